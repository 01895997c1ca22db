import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { authRepo, type Db, type DbOrTrx, type SigningKey } from '@crew/db';
import type { Keyring } from '@crew/platform';

export const SIGNING_ALG = 'ES256';

type PrivateKey = Awaited<ReturnType<typeof importJWK>>;

/** What a signing key's private half is sealed for: the key's own id (a sealed key copied to another kid does not open). */
const owner = (kid: string) => `signing-key:${kid}`;

/**
 * Signing keys live in Postgres so they survive restarts and are shared by every auth replica.
 * One key is active (signs); `previous` keys still appear in the JWKS so tokens they signed keep
 * verifying until an operator retires them. Private keys are sealed with the keyring of
 * SUPPLIER_CREDENTIALS_KEY, bound to their kid; a key stored in plain text (by an earlier release) is read
 * as it is and sealed when loaded, and its plain copy is dropped once it is no longer active.
 */
export class KeyStore {
  private active: { kid: string; key: PrivateKey } | null = null;
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly keyring: Keyring,
    private readonly cacheMs = 30_000,
  ) {}

  /** The active key, creating the first one if the store is empty. */
  async signingKey(): Promise<{ kid: string; key: PrivateKey }> {
    if (this.active && Date.now() - this.loadedAt < this.cacheMs) return this.active;
    let rows = await authRepo.listSigningKeys(this.db);
    if (!rows.some((k) => k.status === 'active')) {
      await this.create(false).catch((err: { code?: string }) => {
        // Another replica created the active key at the same moment (unique partial index).
        if (err.code !== '23505') throw err;
      });
      rows = await authRepo.listSigningKeys(this.db);
    }
    const row = rows.find((k) => k.status === 'active');
    if (!row) throw new Error('no active signing key');
    const key = await importJWK(this.privateJwk(row), SIGNING_ALG);
    await this.seal(rows);
    this.active = { kid: row.kid, key };
    this.loadedAt = Date.now();
    return this.active;
  }

  /** A key's private half: the sealed one opened, else the plain copy an earlier release stored. */
  private privateJwk(row: SigningKey): JWK {
    if (row.private_jwk_sealed) {
      try {
        return JSON.parse(this.keyring.open(row.private_jwk_sealed, owner(row.kid))) as JWK;
      } catch (err) {
        // Sealed by a pod with a newer key list while this one still has the old: the plain copy, while there is one.
        if (row.private_jwk) return row.private_jwk;
        throw new Error(
          `signing key ${row.kid} does not open with SUPPLIER_CREDENTIALS_KEY (${(err as Error).message}); ` +
            'list the key that sealed it, or make a new active key with `npm run keys -- rotate`',
          { cause: err },
        );
      }
    }
    if (row.private_jwk) return row.private_jwk;
    throw new Error(`signing key ${row.kid} has no private key`);
  }

  /**
   * Seals the keys stored in plain text and drops the plain copy of every key no longer active; nothing to write
   * in the usual case. The active key keeps its plain copy: pods of the release before sealing read it there
   * during a rollout. A key sealed under an older credentials key is left as it is (pods still on the old key
   * list must open the active key): the next signing-key rotation seals its successor under the newest.
   */
  private async seal(rows: SigningKey[]): Promise<void> {
    for (const row of rows) {
      if (!row.private_jwk) continue;
      if (!row.private_jwk_sealed)
        await authRepo.storeSealedSigningKey(
          this.db,
          row.kid,
          this.keyring.seal(JSON.stringify(row.private_jwk), owner(row.kid)),
        );
      if (row.status !== 'active') await authRepo.dropPlainSigningKey(this.db, row.kid);
    }
  }

  /** Public keys of every key that is not retired. */
  async jwks(): Promise<{ keys: Record<string, unknown>[] }> {
    await this.signingKey();
    const rows = await authRepo.listSigningKeys(this.db);
    return {
      keys: rows
        .filter((k) => k.status !== 'retired')
        .map((k) => ({ ...k.public_jwk, kid: k.kid, alg: k.alg, use: 'sig' })),
    };
  }

  async sign(
    claims: Record<string, unknown>,
    subject: string,
    issuer: string,
    audience: string,
    ttlSeconds: number,
  ): Promise<string> {
    const { kid, key } = await this.signingKey();
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALG, kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(subject)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(key);
  }

  /** Makes a new active key; the old active one becomes `previous` (still verifies) and keeps no plain copy. */
  async rotate(): Promise<string> {
    await this.seal(await authRepo.listSigningKeys(this.db));
    const kid = await this.create(true);
    this.active = null;
    return kid;
  }

  async retire(kid: string): Promise<boolean> {
    return (await authRepo.retireSigningKey(this.db, kid)) !== undefined;
  }

  private async create(demote: boolean): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const kid = `k-${new Date().toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
    const [priv, pub] = await Promise.all([exportJWK(privateKey), exportJWK(publicKey)]);
    const insert = async (trx: DbOrTrx) => {
      if (demote) await authRepo.demoteActiveKeys(trx);
      await authRepo.insertSigningKey(trx, {
        kid,
        alg: SIGNING_ALG,
        private_jwk_sealed: this.keyring.seal(JSON.stringify(priv), owner(kid)),
        public_jwk: JSON.stringify(pub),
        status: 'active',
      });
    };
    await this.db.transaction().execute(insert);
    return kid;
  }
}

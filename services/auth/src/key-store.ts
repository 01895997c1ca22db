import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { authRepo, type Db, type DbOrTrx } from '@crew/db';

export const SIGNING_ALG = 'ES256';

type PrivateKey = Awaited<ReturnType<typeof importJWK>>;

/**
 * Signing keys live in Postgres so they survive restarts and are shared by every auth replica.
 * One key is active (signs); `previous` keys still appear in the JWKS so tokens they signed keep
 * verifying until an operator retires them.
 */
export class KeyStore {
  private active: { kid: string; key: PrivateKey } | null = null;
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly cacheMs = 30_000,
  ) {}

  /** The active key, creating the first one if the store is empty. */
  async signingKey(): Promise<{ kid: string; key: PrivateKey }> {
    if (this.active && Date.now() - this.loadedAt < this.cacheMs) return this.active;
    let row = (await authRepo.listSigningKeys(this.db)).find((k) => k.status === 'active');
    if (!row) {
      await this.create(false).catch((err: { code?: string }) => {
        // Another replica created the active key at the same moment (unique partial index).
        if (err.code !== '23505') throw err;
      });
      row = (await authRepo.listSigningKeys(this.db)).find((k) => k.status === 'active');
      if (!row) throw new Error('no active signing key');
    }
    this.active = { kid: row.kid, key: await importJWK(row.private_jwk as JWK, SIGNING_ALG) };
    this.loadedAt = Date.now();
    return this.active;
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

  /** Makes a new active key; the old active one becomes `previous` (still verifies). */
  async rotate(): Promise<string> {
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
        private_jwk: JSON.stringify(priv),
        public_jwk: JSON.stringify(pub),
        status: 'active',
      });
    };
    await this.db.transaction().execute(insert);
    return kid;
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets the service must use again later (a supplier's access token, a traveller's passport number) are
 * encrypted, never hashed. Each ciphertext names the key that sealed it, so the key can be rotated: the
 * newest key seals, every listed key opens. The owner (the airline id) is bound in as associated data, so a
 * row copied to another airline does not open.
 *
 * Key list format (`SUPPLIER_CREDENTIALS_KEY`): `kid:key[,kid:key…]`, newest first; each key 32 bytes as 64
 * hex digits or base64. A lone key without `kid:` is key id `k1`.
 */
export class KeyringError extends Error {
  override readonly name = 'KeyringError';
}

const KID = /^[A-Za-z0-9_-]{1,32}$/;
const PREFIX = 'v2';

function keyBytes(raw: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 ? key : null;
}

export class Keyring {
  private constructor(
    private readonly keys: ReadonlyMap<string, Buffer>,
    readonly currentKeyId: string,
  ) {}

  /** Parses the key list; throws KeyringError (never echoing a key) when it is malformed. */
  static parse(raw: string, variable = 'SUPPLIER_CREDENTIALS_KEY'): Keyring {
    const keys = new Map<string, Buffer>();
    let current: string | null = null;
    for (const part of raw
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const i = part.indexOf(':');
      const kid = i > 0 ? part.slice(0, i) : 'k1';
      const key = keyBytes(i > 0 ? part.slice(i + 1) : part);
      if (!KID.test(kid)) throw new KeyringError(`${variable}: a key id may hold letters, digits, _ and - (1-32)`);
      if (!key) throw new KeyringError(`${variable}: key "${kid}" must be 32 bytes, as 64 hex digits or base64`);
      if (keys.has(kid)) throw new KeyringError(`${variable}: key id "${kid}" is listed twice`);
      keys.set(kid, key);
      current ??= kid;
    }
    if (!current) throw new KeyringError(`${variable}: no key`);
    return new Keyring(keys, current);
  }

  /** A fresh single-key list (development, when the variable is unset). */
  static mint(): string {
    return `k1:${randomBytes(32).toString('base64')}`;
  }

  /** AES-256-GCM: `v2.<kid>.<base64 iv|tag|ciphertext>`, bound to `owner`. */
  seal(plain: string, owner: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(owner, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}.${this.currentKeyId}.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Opens what `seal` made for the same owner; throws KeyringError on another owner, an unknown key or tampering. */
  open(sealed: string, owner: string): string {
    const [prefix, kid, body] = sealed.split('.');
    if (prefix !== PREFIX || !kid || !body) throw new KeyringError('not a sealed credential');
    const key = this.keys.get(kid);
    if (!key) throw new KeyringError(`sealed with key "${kid}", which is not in the key list`);
    const raw = Buffer.from(body, 'base64');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(owner, 'utf8'));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      // The error of a failed tag check says nothing of the plaintext; ours says nothing either.
      throw new KeyringError('the sealed credential does not open for this owner');
    }
  }

  /** The key id a sealed value names (rotation: values not sealed with the current key are re-sealed). */
  static keyIdOf(sealed: string): string | null {
    const [prefix, kid] = sealed.split('.');
    return prefix === PREFIX && kid ? kid : null;
  }

  /** Re-seals a value under the current key when an older key sealed it; null when it is current already. */
  reseal(sealed: string, owner: string): string | null {
    return Keyring.keyIdOf(sealed) === this.currentKeyId ? null : this.seal(this.open(sealed, owner), owner);
  }
}

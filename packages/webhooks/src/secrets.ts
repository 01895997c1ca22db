import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * An endpoint's signing secret: made by the api when the airline registers the endpoint, stored sealed, opened
 * by the worker to sign each delivery.
 */

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 24 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** WEBHOOK_SECRET_KEY: 32 bytes, as 64 hex digits or base64. */
export function parseSecretKey(raw: string): Buffer | null {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  return key.length === 32 ? key : null;
}

/** AES-256-GCM: `v1.<base64 iv|tag|ciphertext>`. The secret is needed to sign, so it is encrypted, not hashed. */
export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
}

export function openSecret(key: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1.')) throw new Error('unknown sealed secret format');
  const raw = Buffer.from(sealed.slice(3), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

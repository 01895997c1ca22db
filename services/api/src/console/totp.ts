import { Secret, TOTP } from 'otpauth';
import type { Keyring } from '@crew/platform';

/*
 * Authenticator apps (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, the parameters every app reads). The secret is
 * stored sealed by the services' keyring, bound to the person; a code is accepted one step either side of now,
 * and never twice (the repository keeps the last step taken).
 */
const ISSUER = 'Crew Travel console';
const PERIOD_SECONDS = 30;

function totpOf(secretBase32: string, email: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** A fresh secret (160 bits), as base32 for the person to type or scan. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an app imports. */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** The 30-second step whose code `code` is (within one step of `at`), or null when it is no current code. */
export function totpStep(secretBase32: string, email: string, code: string, at: Date): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(secretBase32, email).validate({ token, timestamp: at.getTime(), window: 1 });
  return delta === null ? null : Math.floor(at.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code of `at` (tests play the authenticator app). */
export function totpCode(secretBase32: string, at: Date): string {
  return totpOf(secretBase32, '').generate({ timestamp: at.getTime() });
}

const owner = (userId: string) => `console-user:${userId}`;

export function sealTotpSecret(keyring: Keyring, userId: string, secretBase32: string): string {
  return keyring.seal(secretBase32, owner(userId));
}

export function openTotpSecret(keyring: Keyring, userId: string, sealed: string): string {
  return keyring.open(sealed, owner(userId));
}

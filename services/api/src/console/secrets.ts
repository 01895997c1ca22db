import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/*
 * Passwords: scrypt (memory-hard; Node's own, no native add-on) with a random salt per hash and a
 * timing-safe compare. The cost travels in the stored text, so a later raise still checks old hashes.
 * 2^15 × 8 × 128 bytes = 32 MiB and about a tenth of a second per hash.
 */
export interface PasswordHashCost {
  N: number;
  r: number;
  p: number;
}
export const PASSWORD_HASH_COST: PasswordHashCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

/**
 * Hashes running at once in this process, at most: each holds a thread of libuv's pool (4 unless
 * UV_THREADPOOL_SIZE says otherwise) and 32 MiB for its tenth of a second, and DNS lookups, zlib and file reads
 * of the whole api wait on the same pool. A burst of sign-ins queues here instead, first come first served.
 */
export const PASSWORD_HASHES_AT_ONCE = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < PASSWORD_HASHES_AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    // The turn passes straight to the next in line; with none waiting, the slot is free.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Hashes running and waiting now (tests; a figure for an operator). */
export function passwordHashing(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return inTurn(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url). `cost` other than the default: tests only (a cheap hash per try). */
export async function hashPassword(password: string, cost: PasswordHashCost = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` is the one `stored` was made from; a malformed stored text is never a match. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  try {
    const key = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
    return key.length === expected.length && timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

const decoys = new Map<string, string>();

/** A hash of `cost` that matches no password: checked when no person has the e-mail, so a miss takes as long as a wrong password. */
export function decoyPasswordHash(cost: PasswordHashCost = PASSWORD_HASH_COST): string {
  const params = `${cost.N}$${cost.r}$${cost.p}`;
  let decoy = decoys.get(params);
  if (!decoy) {
    decoy = `scrypt$${params}$${randomBytes(16).toString('base64url')}$${randomBytes(KEY_LENGTH).toString('base64url')}`;
    decoys.set(params, decoy);
  }
  return decoy;
}

/** 256 random bits, URL-safe: invitation tokens, session ids, anti-forgery tokens. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a token or session id (they carry 256 random bits: a plain SHA-256 suffices). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

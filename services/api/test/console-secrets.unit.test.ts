import {
  decoyPasswordHash,
  hashPassword,
  PASSWORD_HASH_COST,
  passwordHashing,
  PASSWORD_HASHES_AT_ONCE,
  verifyPassword,
} from '../src/console/secrets';

/*
 * Password hashing takes a libuv thread and 32 MiB for about a tenth of a second: a burst of sign-ins must not
 * take every thread of the pool (DNS lookups, zlib and file reads of the whole api wait on the same pool).
 */

it(`runs at most ${PASSWORD_HASHES_AT_ONCE} hashes at once in the process; the others wait their turn and all finish`, async () => {
  const stored = await hashPassword('a password long enough');
  let most = 0;
  const sample = setInterval(() => (most = Math.max(most, passwordHashing().running)), 5);
  const checks = Array.from({ length: 8 }, (_, i) =>
    verifyPassword(i === 3 ? 'a password long enough' : 'wrong', stored),
  );
  expect(passwordHashing()).toEqual({ running: PASSWORD_HASHES_AT_ONCE, waiting: 8 - PASSWORD_HASHES_AT_ONCE });
  const results = await Promise.all(checks);
  clearInterval(sample);
  expect(results.map((ok, i) => [i, ok]).filter(([, ok]) => ok)).toEqual([[3, true]]);
  expect(most).toBeLessThanOrEqual(PASSWORD_HASHES_AT_ONCE);
  expect(passwordHashing()).toEqual({ running: 0, waiting: 0 });
});

it('a hash that fails gives its turn to the next one', async () => {
  const bad = 'scrypt$1023$8$1$c2FsdA$aGFzaA'; // N not a power of two: scrypt refuses it
  const stored = await hashPassword('a password long enough');
  const results = await Promise.all([
    ...Array.from({ length: 4 }, () => verifyPassword('x', bad)),
    verifyPassword('a password long enough', stored),
  ]);
  expect(results).toEqual([false, false, false, false, true]);
  expect(passwordHashing()).toEqual({ running: 0, waiting: 0 });
});

it('hashes at 2^15 × 8 × 1 by default; a cost passed in (tests) is the one stored, and the decoy has the same cost', async () => {
  expect(PASSWORD_HASH_COST).toEqual({ N: 2 ** 15, r: 8, p: 1 });
  expect((await hashPassword('a password long enough')).split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
  expect(decoyPasswordHash().split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
  const cheap = { N: 2 ** 10, r: 8, p: 1 };
  const stored = await hashPassword('a password long enough', cheap);
  expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
  expect(await verifyPassword('a password long enough', stored)).toBe(true);
  expect(await verifyPassword('another password', stored)).toBe(false);
  expect(decoyPasswordHash(cheap).split('$').slice(0, 4)).toEqual(['scrypt', '1024', '8', '1']);
  expect(decoyPasswordHash(cheap)).toBe(decoyPasswordHash(cheap));
  expect(await verifyPassword('a password long enough', decoyPasswordHash(cheap))).toBe(false);
});

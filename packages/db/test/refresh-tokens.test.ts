import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import {
  consumeRefreshToken,
  findRefreshToken,
  insertRefreshToken,
  purgeRefreshTokens,
  revokeRefreshFamily,
} from '../src/auth/auth.repository';

/*
 * Refresh tokens are purged once their whole family has expired (a day past the last member's expiry), in
 * batches; a used token stays while a later token of its family can still be presented, so reusing it still
 * revokes the family.
 */

let t: TestDatabase;
const CLIENT = 'cl_purge';
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await createTestDatabase('refresh_tokens');
  const airline = randomUUID();
  const user = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Token Air', 'TK')`.execute(t.db);
  await sql`insert into users (user_id, airline_id, email, token_hash) values (${user}, ${airline}, 'a@token.air', 'h')`.execute(
    t.db,
  );
  await sql`insert into oauth_clients (client_id, airline_id, user_id, name, secret_hash, scopes)
    values (${CLIENT}, ${airline}, ${user}, 'c', 's', ${['events:read']})`.execute(t.db);
});
afterAll(() => t.drop());

/** A token of `family` expiring `inDays` from now (negative: expired), used and/or revoked as told. */
async function token(family: string, hash: string, inDays: number, state: { used?: boolean; revoked?: boolean } = {}) {
  await insertRefreshToken(t.db, {
    token_hash: hash,
    client_id: CLIENT,
    family_id: family,
    scope: 'events:read',
    expires_at: new Date(Date.now() + inDays * DAY),
  });
  if (state.used) await sql`update refresh_tokens set used_at = now() where token_hash = ${hash}`.execute(t.db);
  if (state.revoked) await sql`update refresh_tokens set revoked_at = now() where token_hash = ${hash}`.execute(t.db);
}

const hashes = async () =>
  (await t.db.selectFrom('refresh_tokens').select('token_hash').orderBy('token_hash').execute()).map(
    (r) => r.token_hash,
  );

it('deletes families whose every token expired more than a day ago, in batches; keeps what reuse detection needs', async () => {
  // Expired families: a never-refreshed client-credentials token, and a rotated family that was revoked.
  await token(randomUUID(), 'a-single', -2);
  const revoked = randomUUID();
  await token(revoked, 'b-1', -40, { used: true, revoked: true });
  await token(revoked, 'b-2', -10, { revoked: true });
  // Many more expired singles, to show the batching.
  for (let i = 0; i < 5; i++) await token(randomUUID(), `c-${i}`, -3 - i);
  // A live family: its used, expired first tokens must stay while its last one can be presented.
  const live = randomUUID();
  await token(live, 'd-1', -3, { used: true });
  await token(live, 'd-2', -2, { used: true });
  await token(live, 'd-3', 20);
  // Expired, but less than a day ago: kept (the margin).
  await token(randomUUID(), 'e-recent', -0.5);

  expect(await purgeRefreshTokens(t.db, 3)).toBe(3);
  let left = await hashes();
  expect(left).toHaveLength(12 - 3);
  while ((await purgeRefreshTokens(t.db, 3)) > 0);
  left = await hashes();
  expect(left).toEqual(['d-1', 'd-2', 'd-3', 'e-recent']);

  // Reuse detection still works on the live family: its used token is known, so its family is revoked.
  expect(await consumeRefreshToken(t.db, 'd-1')).toBeUndefined();
  const known = await findRefreshToken(t.db, 'd-1');
  expect(known?.family_id).toBe(live);
  await revokeRefreshFamily(t.db, known!.family_id);
  expect(await consumeRefreshToken(t.db, 'd-3')).toBeUndefined();
});

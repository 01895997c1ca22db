import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  purgeIdempotencyKeys,
  releaseIdempotencyKey,
  takeOverIdempotencyKey,
} from '../src/bookings/idempotency.repository';

/*
 * An Idempotency-Key's claim has a lease: once it is over, one request takes the claim over (a conditional
 * update), and the request whose claim was taken over can neither answer nor free the key. Keys older than 24 h
 * are purged in batches.
 */

let t: TestDatabase;
let airline: string;
const ENDPOINT = 'POST /crew/action-items';
const LEASE = 60_000;

beforeAll(async () => {
  t = await createTestDatabase('idempotency_keys');
  airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Key Air', 'KY')`.execute(t.db);
});
afterAll(() => t.drop());

const age = (key: string, column: 'claimed_at' | 'created_at', by: string) =>
  sql`update idempotency_keys set ${sql.ref(column)} = ${sql.ref(column)} - ${by}::interval
    where airline_id = ${airline} and key = ${key}`.execute(t.db);

it('a claim is taken over only past its lease, by one request; the old claim can neither answer nor free the key', async () => {
  const first = await claimIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'h');
  expect(first).toEqual(expect.any(String));
  expect(await claimIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'h')).toBeNull();
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'k', LEASE)).toMatchObject({ lease_over: false });
  expect(await takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'h', LEASE)).toBeNull();

  await age('k', 'claimed_at', '61 seconds');
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'k', LEASE)).toMatchObject({ lease_over: true });
  // Another body never takes it over (it is refused as a reuse).
  expect(await takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'other', LEASE)).toBeNull();
  const taken = await Promise.all(
    [1, 2, 3].map(() => takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'h', LEASE)),
  );
  const winners = taken.filter((c) => c !== null);
  expect(winners).toHaveLength(1);
  expect(winners[0]).not.toBe(first);
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'k', LEASE)).toMatchObject({ lease_over: false });

  // The first request, alive after all, answers or frees the key: nothing happens.
  await completeIdempotencyKey(t.db, airline, ENDPOINT, 'k', first!, 500, { late: true });
  await releaseIdempotencyKey(t.db, airline, ENDPOINT, 'k', first!);
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'k', LEASE)).toMatchObject({
    response_status: null,
    response_body: null,
  });
  await completeIdempotencyKey(t.db, airline, ENDPOINT, 'k', winners[0]!, 202, { booking_id: 'b' });
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'k', LEASE)).toMatchObject({
    response_status: 202,
    response_body: { booking_id: 'b' },
    lease_over: false,
  });
  // An answered key is never taken over, however old its claim.
  await age('k', 'claimed_at', '1 hour');
  expect(await takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'k', 'h', LEASE)).toBeNull();

  // The request holding the claim frees it.
  const freed = (await claimIdempotencyKey(t.db, airline, ENDPOINT, 'freed', 'h'))!;
  await releaseIdempotencyKey(t.db, airline, ENDPOINT, 'freed', freed);
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'freed', LEASE)).toBeUndefined();
});

it('an answer stored in the request’s transaction commits with it or not at all, and nothing after replaces it', async () => {
  const claim = (await claimIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', 'h'))!;
  // Rolled back with the work: the key stays claimed, unanswered, and is freed as before.
  await expect(
    t.db.transaction().execute(async (trx) => {
      expect(await completeIdempotencyKey(trx, airline, ENDPOINT, 'in-trx', claim, 202, { n: 1 })).toBe(true);
      throw new Error('the work failed');
    }),
  ).rejects.toThrow('the work failed');
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', LEASE)).toMatchObject({ response_status: null });

  // Committed, with its claim's lease run out meanwhile: a repeat's take-over waits for the commit, then finds
  // the answer and takes nothing.
  await age('in-trx', 'claimed_at', '61 seconds');
  const aged = (
    await sql<{
      claim: string;
    }>`select claimed_at::text as claim from idempotency_keys where airline_id = ${airline} and key = 'in-trx'`.execute(
      t.db,
    )
  ).rows[0]!.claim;
  const takeOver = await t.db.transaction().execute(async (trx) => {
    expect(await completeIdempotencyKey(trx, airline, ENDPOINT, 'in-trx', aged, 202, { n: 2 })).toBe(true);
    const waiting = takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', 'h', LEASE);
    await new Promise((r) => setTimeout(r, 200));
    return { waiting };
  });
  expect(await takeOver.waiting).toBeNull();

  // An error past the commit neither replaces the answer nor frees the key.
  expect(await completeIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', aged, 409, { late: true })).toBe(false);
  await releaseIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', aged);
  expect(await findIdempotencyKey(t.db, airline, ENDPOINT, 'in-trx', LEASE)).toMatchObject({
    response_status: 202,
    response_body: { n: 2 },
  });
  // A claim taken over cannot store its answer: the caller rolls its work back.
  const lost = (await claimIdempotencyKey(t.db, airline, ENDPOINT, 'lost', 'h'))!;
  await age('lost', 'claimed_at', '61 seconds');
  expect(await takeOverIdempotencyKey(t.db, airline, ENDPOINT, 'lost', 'h', LEASE)).not.toBeNull();
  expect(await completeIdempotencyKey(t.db, airline, ENDPOINT, 'lost', lost, 202, {})).toBe(false);
});

it('purges keys older than 24 h, a batch at a time, and keeps the others', async () => {
  for (const key of ['old-1', 'old-2', 'old-3', 'young']) await claimIdempotencyKey(t.db, airline, ENDPOINT, key, 'h');
  for (const key of ['old-1', 'old-2', 'old-3']) await age(key, 'created_at', '25 hours');
  await age('young', 'created_at', '23 hours');
  const left = async () =>
    (
      await t.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('key', 'in', ['old-1', 'old-2', 'old-3', 'young'])
        .orderBy('key')
        .execute()
    ).map((r) => r.key);
  expect(await purgeIdempotencyKeys(t.db, 2)).toBe(2);
  expect(await left()).toHaveLength(2);
  expect(await purgeIdempotencyKeys(t.db, 2)).toBe(1);
  expect(await left()).toEqual(['young']);
  expect(await purgeIdempotencyKeys(t.db, 2)).toBe(0);
});

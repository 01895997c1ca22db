import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

/*
 * Idempotency keys of the airline's POSTs: a key is claimed by the first request, and its answer kept for 24 h.
 * A claim is named by its claimed_at as Postgres holds it (text, to the microsecond: a Date keeps milliseconds),
 * so a request whose claim was taken over can no longer answer or free the key.
 */

const KEPT = sql`interval '24 hours'`;

const leaseOver = (leaseMs: number) => sql<boolean>`claimed_at < now() - ${leaseMs} * interval '1 millisecond'`;

/** Claims a key for this request: the claim, or null when it was claimed before (the caller replays or refuses). */
export async function claimIdempotencyKey(
  db: DbOrTrx,
  airlineId: string,
  endpoint: string,
  key: string,
  requestHash: string,
): Promise<string | null> {
  // Keys older than 24 h are forgotten.
  await db
    .deleteFrom('idempotency_keys')
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('created_at', '<', sql<Date>`now() - ${KEPT}`)
    .execute();
  const r = await db
    .insertInto('idempotency_keys')
    .values({
      airline_id: airlineId,
      endpoint,
      key,
      request_hash: requestHash,
      response_status: null,
      response_body: null,
    })
    .onConflict((oc) => oc.doNothing())
    .returning(sql<string>`claimed_at::text`.as('claim'))
    .executeTakeFirst();
  return r?.claim ?? null;
}

/** The key's row; `lease_over` when it is unanswered and its claim is older than `leaseMs`. */
export function findIdempotencyKey(db: DbOrTrx, airlineId: string, endpoint: string, key: string, leaseMs: number) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .select(leaseOver(leaseMs).as('lease_over'))
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Takes over an unanswered claim older than `leaseMs` (its request's process died): the new claim, or null when
 * the key was answered or another request took it over first (the row lock makes that one win).
 */
export async function takeOverIdempotencyKey(
  db: DbOrTrx,
  airlineId: string,
  endpoint: string,
  key: string,
  requestHash: string,
  leaseMs: number,
): Promise<string | null> {
  const r = await db
    .updateTable('idempotency_keys')
    .set({ claimed_at: sql<Date>`now()` })
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('request_hash', '=', requestHash)
    .where('response_status', 'is', null)
    .where(leaseOver(leaseMs))
    .returning(sql<string>`claimed_at::text`.as('claim'))
    .executeTakeFirst();
  return r?.claim ?? null;
}

/**
 * Stores the answer of the request holding `claim`, in the request's own transaction or after it: whether it
 * was stored. Nothing when another request took the key over, or when the answer was stored already (a request
 * answered in its transaction keeps that answer, whatever fails after the commit).
 */
export async function completeIdempotencyKey(
  db: DbOrTrx,
  airlineId: string,
  endpoint: string,
  key: string,
  claim: string,
  status: number,
  body: unknown,
): Promise<boolean> {
  const r = await db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .where('claimed_at', '=', sql<Date>`${claim}::timestamptz`)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Frees the key the request holding `claim` did not answer; nothing when another request took it over. */
export function releaseIdempotencyKey(db: DbOrTrx, airlineId: string, endpoint: string, key: string, claim: string) {
  return db
    .deleteFrom('idempotency_keys')
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .where('claimed_at', '=', sql<Date>`${claim}::timestamptz`)
    .execute();
}

/** Deletes up to `limit` keys older than 24 h (a key nobody reuses is otherwise kept for ever); how many. */
export async function purgeIdempotencyKeys(db: DbOrTrx, limit: number): Promise<number> {
  const r = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - ${KEPT}`)
    .where((eb) =>
      eb(
        eb.refTuple('airline_id', 'endpoint', 'key'),
        'in',
        eb
          .selectFrom('idempotency_keys')
          .select(['airline_id', 'endpoint', 'key'])
          .where('created_at', '<', sql<Date>`now() - ${KEPT}`)
          .orderBy('created_at')
          .limit(limit)
          .$asTuple('airline_id', 'endpoint', 'key'),
      ),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

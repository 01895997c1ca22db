import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

/* Idempotency keys of the airline's POSTs: a key is claimed by the first request, and its answer kept for 24 h. */

/** Claims a key for this request; false when it was claimed before (the caller replays or refuses). */
export async function claimIdempotencyKey(
  db: DbOrTrx,
  airlineId: string,
  endpoint: string,
  key: string,
  requestHash: string,
): Promise<boolean> {
  // Keys older than 24 h are forgotten.
  await db
    .deleteFrom('idempotency_keys')
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('created_at', '<', sql<Date>`now() - interval '24 hours'`)
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
    .returning('key')
    .executeTakeFirst();
  return r !== undefined;
}

export function findIdempotencyKey(db: DbOrTrx, airlineId: string, endpoint: string, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .executeTakeFirst();
}

export function completeIdempotencyKey(
  db: DbOrTrx,
  airlineId: string,
  endpoint: string,
  key: string,
  status: number,
  body: unknown,
) {
  return db
    .updateTable('idempotency_keys')
    .set({ response_status: status, response_body: JSON.stringify(body) })
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .execute();
}

export function releaseIdempotencyKey(db: DbOrTrx, airlineId: string, endpoint: string, key: string) {
  return db
    .deleteFrom('idempotency_keys')
    .where('airline_id', '=', airlineId)
    .where('endpoint', '=', endpoint)
    .where('key', '=', key)
    .where('response_status', 'is', null)
    .execute();
}

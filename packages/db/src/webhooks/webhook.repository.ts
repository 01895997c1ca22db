import { API_PREFIX } from '@crew/contracts';
import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../database';
import type { WebhookAttemptLog } from './webhook.table';
import { PREPARED } from '../prepared';
import { emitToEndpoints } from '../webhook-events';

/*
 * Webhook endpoints (the api's CRUD, deliveries and redelivery) and their delivery (the worker's drain). The
 * events themselves are written with the change that causes them (webhook-events.ts); the ones the services
 * write themselves are reached here.
 */
export {
  emitBookingEvents,
  emitEvents,
  emitIropCompletedIfDone,
  emitToEndpoints,
  PENDING_REVIEW_IDS,
  type NewEvent,
  type PendingReview,
} from '../webhook-events';

// ---- endpoints (api) ----

/** Serialises the creation of an airline's endpoints until the transaction ends (the count, then the insert). */
export async function lockAirlineEndpoints(trx: DbOrTrx, airlineId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('webhook-endpoints'), hashtext(${airlineId}))`.execute(trx);
}

/** How many endpoints the airline has, enabled or not. */
export async function countEndpoints(db: DbOrTrx, airlineId: string): Promise<number> {
  const r = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('airline_id', '=', airlineId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export function insertEndpoint(
  db: DbOrTrx,
  v: { airline_id: string; url: string; description: string | null; event_types: string[]; secret_enc: string },
) {
  return db.insertInto('webhook_endpoints').values(v).returningAll().executeTakeFirstOrThrow();
}

export function findEndpoint(db: DbOrTrx, airlineId: string, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

export function listEndpoints(db: DbOrTrx, airlineId: string, limit: number, afterSeq: number | null) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .$if(afterSeq !== null, (q) => q.where('seq', '>', afterSeq!))
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/**
 * Changes an endpoint. When the change makes it enabled again, gives it a new URL or a new signing secret, its
 * pending deliveries waiting out a backoff are due now, in the same statement: the airline fixed what failed them,
 * and the endpoint resumes in order at once instead of after the backoff (up to WEBHOOK_BACKOFF_MAX_MS).
 */
export function updateEndpoint(
  db: DbOrTrx,
  airlineId: string,
  endpointId: string,
  patch: Partial<{
    url: string;
    description: string | null;
    event_types: string[];
    enabled: boolean;
    disabled_reason: string | null;
    failing_since: Date | null;
    secret_enc: string;
    previous_secret_enc: string | null;
    previous_secret_expires_at: Date | null;
  }>,
) {
  return db
    .with('old', (q) =>
      q
        .selectFrom('webhook_endpoints')
        .select(['endpoint_id', 'enabled', 'url', 'secret_enc'])
        .where('airline_id', '=', airlineId)
        .where('endpoint_id', '=', endpointId)
        .forUpdate(),
    )
    .with('e', (q) =>
      q
        .updateTable('webhook_endpoints as w')
        .from('old')
        .set({ ...patch, updated_at: new Date() })
        .whereRef('w.endpoint_id', '=', 'old.endpoint_id')
        .returningAll('w')
        .returning(
          sql<boolean>`(w.enabled and not old.enabled) or w.url <> old.url or w.secret_enc <> old.secret_enc`.as(
            'resumes',
          ),
        ),
    )
    .with('resumed', (q) =>
      q
        .updateTable('webhook_deliveries')
        .set({ next_attempt_at: sql<Date>`now()` })
        .where('status', '=', 'PENDING')
        .where('next_attempt_at', '>', sql<Date>`now()`)
        .where('endpoint_id', 'in', q.selectFrom('e').select('e.endpoint_id').where('e.resumes', '=', true))
        .returning('delivery_id'),
    )
    .selectFrom('e')
    .selectAll()
    .executeTakeFirst();
}

export async function deleteEndpoint(db: DbOrTrx, airlineId: string, endpointId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('webhook_endpoints')
    .where('airline_id', '=', airlineId)
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** An endpoint's deliveries, each with its event's type (what the delivery endpoints show). */
function deliveriesOf(db: DbOrTrx, endpointId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.event_id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.endpoint_id', '=', endpointId);
}

export function listDeliveries(
  db: DbOrTrx,
  endpointId: string,
  limit: number,
  beforeSeq: number | null,
  status?: string,
) {
  return deliveriesOf(db, endpointId)
    .$if(status !== undefined, (q) => q.where('d.status', '=', status as 'PENDING'))
    .$if(beforeSeq !== null, (q) => q.where('d.seq', '<', beforeSeq!))
    .orderBy('d.seq', 'desc')
    .limit(limit)
    .execute();
}

export function findDelivery(db: DbOrTrx, endpointId: string, deliveryId: string) {
  return deliveriesOf(db, endpointId).where('d.delivery_id', '=', deliveryId).executeTakeFirst();
}

/** Redeliver: the delivery is due again now with a fresh attempt budget; its attempt log is kept. */
export async function redeliver(db: DbOrTrx, endpointId: string, deliveryId: string): Promise<boolean> {
  const r = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'PENDING', attempts: 0, next_attempt_at: new Date(), delivered_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---- delivery (worker) ----

/** Endpoints whose next delivery (in order) is due and that no live drainer holds, urgent ones first. */
export async function dueEndpoints(db: DbOrTrx, limit: number) {
  const r = await sql<{ endpoint_id: string; urgent: boolean }>`select e.endpoint_id, h.urgent
    from webhook_endpoints e
    cross join lateral (select d.urgent, d.next_attempt_at from webhook_deliveries d where d.endpoint_id = e.endpoint_id and d.status = 'PENDING'
      order by d.urgent desc, d.event_seq limit 1) h
    where e.enabled and (e.lease_until is null or e.lease_until < now()) and h.next_attempt_at <= now()
    order by h.urgent desc limit ${limit}`.execute(db);
  return r.rows;
}

/**
 * Deliveries waiting, by lane (urgent: a P1 booking's event), with the age of the oldest: the backlog gauges.
 * A scan of the pending rows (partial index); sampled every few seconds, never at scrape time.
 */
export async function pendingBacklog(db: DbOrTrx) {
  const r = await sql<{
    urgent: boolean;
    pending: number;
    oldest_seconds: number;
  }>`select urgent, count(*)::int as pending,
      coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest_seconds
    from webhook_deliveries where status = 'PENDING' group by urgent`.execute(db);
  return r.rows;
}

/**
 * Runs a drain on one connection of the pool that commits without waiting for its WAL flush
 * (`synchronous_commit = off`, reset before the connection goes back). Everything a drain writes is
 * bookkeeping of a delivery already made (an attempt, the lease, the endpoint's health): should Postgres itself
 * crash, the last fraction of a second of it is lost as a whole, and a delivery recorded in it is sent again
 * with the same webhook-id, which at-least-once delivery allows. A killed worker loses nothing: its commits
 * were made. Waiting for the flush took most of each delivery's time while bookings were committing.
 */
export function onDrainConnection<T>(db: Db, run: (conn: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`set synchronous_commit = off`.execute(conn);
    try {
      return await run(conn);
    } finally {
      await sql`reset synchronous_commit`.execute(conn);
    }
  });
}

/** Takes the endpoint's drain lease (per-endpoint concurrency 1); undefined when another drainer holds it. */
export function claimEndpoint(db: DbOrTrx, endpointId: string, leaseMs: number) {
  return db
    .updateTable('webhook_endpoints')
    .set({ lease_until: sql<Date>`now() + ${leaseMs} * interval '1 millisecond'` })
    .where('endpoint_id', '=', endpointId)
    .where('enabled', '=', true)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
}

export async function renewLease(db: DbOrTrx, endpointId: string, leaseMs: number): Promise<void> {
  await sql`update webhook_endpoints set lease_until = now() + ${leaseMs} * interval '1 millisecond' where endpoint_id = ${endpointId}`.execute(
    db,
  );
}

export async function releaseEndpoint(db: DbOrTrx, endpointId: string): Promise<void> {
  await sql`update webhook_endpoints set lease_until = null where endpoint_id = ${endpointId}`.execute(db);
}

/** The endpoint's next deliveries in order (urgent ones first, then by event sequence), up to `limit`. */
export async function nextDeliveries(db: DbOrTrx, endpointId: string, limit: number) {
  const r = await sql<{
    delivery_id: string;
    attempts: number;
    next_attempt_at: Date;
    urgent: boolean;
    event_id: string;
    type: string;
    data: Record<string, unknown>;
    links: Record<string, unknown>;
    created_at: Date;
  }>`select d.delivery_id, d.attempts, d.next_attempt_at, d.urgent, e.event_id, e.type, e.data, e.links, e.created_at
    from webhook_deliveries d join webhook_events e on e.event_id = d.event_id
    where d.endpoint_id = ${endpointId} and d.status = 'PENDING'
    order by d.urgent desc, d.event_seq limit ${limit}`.execute(db);
  return r.rows;
}

/** Records one attempt: success, a retry at `nextAttemptAt`, or given up (FAILED). */
export async function recordAttempt(
  db: DbOrTrx,
  deliveryId: string,
  attempt: WebhookAttemptLog,
  outcome: { status: 'SUCCEEDED' | 'FAILED' | 'PENDING'; nextAttemptAt?: Date },
): Promise<void> {
  await sql`${PREPARED} update webhook_deliveries set attempts = attempts + 1, attempt_log = attempt_log || ${JSON.stringify([attempt])}::jsonb,
      last_response_code = ${attempt.response_code}, last_error = ${attempt.error}, status = ${outcome.status},
      next_attempt_at = ${outcome.nextAttemptAt ?? new Date()}, delivered_at = ${outcome.status === 'SUCCEEDED' ? new Date(attempt.at) : null}
    where delivery_id = ${deliveryId}`.execute(db);
}

/**
 * After an attempt: a success clears the endpoint's failing run; a failure starts one or goes on with it (returns
 * its start). See endIdleFailingRun for the run's other end.
 */
export async function markEndpointHealth(db: DbOrTrx, endpointId: string, ok: boolean): Promise<Date | null> {
  const r = await sql<{
    failing_since: Date | null;
  }>`update webhook_endpoints set failing_since = ${ok ? null : sql`coalesce(failing_since, now())`}
    where endpoint_id = ${endpointId} returning failing_since`.execute(db);
  return r.rows[0]?.failing_since ?? null;
}

/**
 * After a delivery is given up: the endpoint's failing run ends when nothing else waits for it (no PENDING
 * delivery), so the next failure, whenever it comes, starts a new run instead of being counted from this one's
 * start (one failure after a quiet week would disable the endpoint). A delivery waiting behind the given-up one
 * keeps the run going: an endpoint down for days is still disabled. Returns whether the run ended.
 */
export async function endIdleFailingRun(db: DbOrTrx, endpointId: string): Promise<boolean> {
  const r = await sql`update webhook_endpoints e set failing_since = null
    where e.endpoint_id = ${endpointId} and e.failing_since is not null
      and not exists (select 1 from webhook_deliveries d where d.endpoint_id = e.endpoint_id and d.status = 'PENDING')`.execute(
    db,
  );
  return Number(r.numAffectedRows ?? 0) === 1;
}

/**
 * Disables an endpoint that failed too long, and tells the airline's other enabled endpoints (endpoint.disabled),
 * in one transaction. Returns false when it was already disabled.
 */
export async function disableFailingEndpoint(trx: DbOrTrx, endpointId: string, reason: string): Promise<boolean> {
  const e = await trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, lease_until: null, updated_at: new Date() })
    .where('endpoint_id', '=', endpointId)
    .where('enabled', '=', true)
    .returningAll()
    .executeTakeFirst();
  if (!e) return false;
  const others = await trx
    .selectFrom('webhook_endpoints')
    .select('endpoint_id')
    .where('airline_id', '=', e.airline_id)
    .where('enabled', '=', true)
    .execute();
  await emitToEndpoints(
    trx,
    e.airline_id,
    others.map((o) => o.endpoint_id),
    {
      type: 'endpoint.disabled',
      data: {
        endpoint_id: e.endpoint_id,
        url: e.url,
        failing_since: (e.failing_since ?? new Date()).toISOString(),
        reason,
      },
      links: { endpoint: `${API_PREFIX}/crew/webhooks/${e.endpoint_id}` },
      urgent: true,
    },
  );
  return true;
}

// ---- retention (worker) ----

/**
 * Events written after `afterSeq`, in the order they were written (their sequence), up to `limit`, each with whether
 * it is older than `retentionDays`: where the worker's purge goes on from.
 */
export async function eventsAfter(db: DbOrTrx, afterSeq: number, limit: number, retentionDays: number) {
  const r = await sql<{
    event_id: string;
    seq: number;
    expired: boolean;
  }>`select event_id, seq, created_at < now() - ${retentionDays} * interval '1 day' as expired
    from webhook_events where seq > ${afterSeq} order by seq limit ${limit}`.execute(db);
  return r.rows;
}

/** Deletes the SUCCEEDED and FAILED deliveries of these events (a PENDING one stays); how many. */
export async function deleteFinishedDeliveries(db: DbOrTrx, eventIds: string[]): Promise<number> {
  if (!eventIds.length) return 0;
  const r = await db
    .deleteFrom('webhook_deliveries')
    .where('event_id', '=', sql<string>`any(${eventIds}::uuid[])`)
    .where('status', '<>', 'PENDING')
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Deletes those of these events that have no delivery left (delivered, given up, or their endpoint deleted); how many. */
export async function deleteEventsWithoutDeliveries(db: DbOrTrx, eventIds: string[]): Promise<number> {
  if (!eventIds.length) return 0;
  const r = await db
    .deleteFrom('webhook_events as e')
    .where('e.event_id', '=', sql<string>`any(${eventIds}::uuid[])`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('webhook_deliveries as d').select('d.delivery_id').whereRef('d.event_id', '=', 'e.event_id'),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** The signing secrets of an endpoint: current, and the previous one while its grace period runs. */
export function endpointSecrets(db: DbOrTrx, endpointId: string) {
  return db
    .selectFrom('webhook_endpoints')
    .select(['secret_enc', 'previous_secret_enc', 'previous_secret_expires_at', 'url', 'enabled', 'airline_id'])
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirst();
}

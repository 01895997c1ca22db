import { API_PREFIX } from '@crew/contracts';
import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from './database';
import { PREPARED } from './prepared';

// created_at is clock_timestamp(), not now(): the moment the event is written, just before its change commits
// (now() would be the start of the transaction, a whole roster diff earlier for schedule events).

/**
 * Outbound webhook events. Events are written by the statement, or in the transaction, of the
 * change that causes them, and only for airlines with an enabled endpoint subscribed to the type: one
 * `webhook_events` row per event and one `webhook_deliveries` row per subscribed endpoint, set-based.
 * Plumbing, like the bulk writes: a booking's settle (bookingRepo.writeSettlement) and a schedule's move
 * (scheduleLifecycleRepo) write their events from here, in their own statement or transaction.
 */

/** The links an event carries are the airline API's (its base path is the contracts'). */
const API = API_PREFIX;

/**
 * The CTEs that turn `src` rows (airline_id, type, data, links, urgent, ord) into events and deliveries;
 * `dl` returns the endpoints that got one. The subscription check is part of the statement.
 */
function fanOut(src: RawBuilder<unknown>) {
  return sql`src as (${src}),
  ev as (
    insert into webhook_events (airline_id, type, data, links, urgent, created_at)
    select s.airline_id, s.type, s.data, s.links, s.urgent, clock_timestamp() from src s
    where exists (select 1 from webhook_endpoints e where e.airline_id = s.airline_id and e.enabled and s.type = any(e.event_types))
    order by s.ord
    returning event_id, seq, airline_id, type, urgent),
  dl as (
    insert into webhook_deliveries (endpoint_id, event_id, event_seq, urgent)
    select e.endpoint_id, ev.event_id, ev.seq, ev.urgent from ev join webhook_endpoints e on e.airline_id = ev.airline_id and e.enabled and ev.type = any(e.event_types)
    order by ev.seq
    returning endpoint_id)`;
}

/** Does the airline have an enabled endpoint for the type? (the cheap check before building an event's data) */
export async function hasSubscriber(db: DbOrTrx, airlineId: string, type: string): Promise<boolean> {
  const r = await sql<{
    ok: boolean;
  }>`select exists (select 1 from webhook_endpoints where airline_id = ${airlineId} and enabled and ${type} = any(event_types)) as ok`.execute(
    db,
  );
  return r.rows[0]?.ok === true;
}

export interface NewEvent {
  airline_id: string;
  type: string;
  data: Record<string, unknown>;
  links: Record<string, unknown>;
  urgent?: boolean;
}

/** Events from the caller's data, for the subscribed endpoints. Returns how many deliveries were written. */
export async function emitEvents(db: DbOrTrx, events: NewEvent[]): Promise<number> {
  if (!events.length) return 0;
  const rows = events.map((e, i) => ({ ...e, urgent: e.urgent ?? false, ord: i }));
  const r = await sql<{ n: number }>`with ${fanOut(
    sql`select x.airline_id, x.type, x.data, x.links, x.urgent, x.ord from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(airline_id uuid, type text, data jsonb, links jsonb, urgent boolean, ord int)`,
  )} select count(*)::int as n from dl`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** One event to the given endpoints of the airline (enabled ones), whatever they subscribe to (test and endpoint.disabled events). */
export async function emitToEndpoints(
  db: DbOrTrx,
  airlineId: string,
  endpointIds: string[],
  event: Omit<NewEvent, 'airline_id'>,
): Promise<string | null> {
  if (!endpointIds.length) return null;
  const r = await sql<{ event_id: string }>`with ev as (
      insert into webhook_events (airline_id, type, data, links, urgent, created_at)
      values (${airlineId}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${JSON.stringify(event.links)}::jsonb, ${event.urgent ?? false}, clock_timestamp())
      returning event_id, seq, urgent),
    dl as (
      insert into webhook_deliveries (endpoint_id, event_id, event_seq, urgent)
      select e.endpoint_id, ev.event_id, ev.seq, ev.urgent from ev join webhook_endpoints e on e.endpoint_id = any(${endpointIds}::uuid[]) and e.airline_id = ${airlineId} and e.enabled
      returning endpoint_id)
    select ev.event_id from ev where exists (select 1 from dl)`.execute(db);
  return r.rows[0]?.event_id ?? null;
}

const bookingData = sql`jsonb_build_object('booking_id', b.booking_id, 'type', b.type, 'status', b.status, 'source', b.source, 'schedule_id', b.schedule_id,
  'action_id', b.action_id, 'irop_ref', b.irop_ref, 'employee_id', b.employee_id, 'pairing_number', b.pairing_number, 'traveller_email', b.traveller_email,
  'duty_date', to_char(b.duty_date, 'YYYY-MM-DD'), 'review_reason', b.review_reason, 'last_error', b.last_error,
  'updated_at', to_char(b.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/**
 * booking.<status> for each booking whose task just ended (call in the settling transaction, after the update),
 * if its status is one of `statuses` (the engine's BOOKING_EVENT_STATUSES: those that end a task).
 */
export async function emitBookingEvents(
  db: DbOrTrx,
  bookingIds: string[],
  urgent: boolean,
  statuses: readonly string[],
): Promise<number> {
  if (!bookingIds.length) return 0;
  const r = await sql<{
    n: number;
  }>`${PREPARED} with ${fanOut(sql`select b.airline_id, 'booking.' || lower(b.status) as type, ${bookingData} as data,
      jsonb_build_object('booking', ${`${API}/crew/bookings/`} || b.booking_id, 'status', ${`${API}/crew/bookings/`} || b.booking_id || '/status') as links,
      ${urgent}::boolean as urgent, b.seq as ord
    from bookings b where b.booking_id = any(${bookingIds}::uuid[]) and b.status = any(${[...statuses]}::text[])`)}
    select count(*)::int as n from dl`.execute(db);
  return r.rows[0]?.n ?? 0;
}

/** Terminal: no task will change it without someone asking (a FAILED booking with an automatic retry ahead is not). */
const TERMINAL = sql.raw(
  `(b.status in ('CONFIRMED', 'MODIFIED', 'CANCELLED', 'NEEDS_REVIEW') or (b.status = 'FAILED' and b.next_attempt_at is null))`,
);

/**
 * irop.completed once every booking of the irop_ref is terminal. Serialised per irop_ref (a transaction lock),
 * so of two bookings settling at once the later one sees the other's outcome and emits.
 */
export async function emitIropCompletedIfDone(
  trx: DbOrTrx,
  airlineId: string,
  iropRef: string,
  urgent: boolean,
): Promise<number> {
  if (!(await hasSubscriber(trx, airlineId, 'irop.completed'))) return 0;
  await sql`select pg_advisory_xact_lock(7302, hashtext(${airlineId} || '/' || ${iropRef}))`.execute(trx);
  const r = await sql<{ n: number }>`with ${fanOut(sql`select b.airline_id, 'irop.completed'::text as type,
      jsonb_build_object('irop_ref', ${iropRef}::text, 'bookings', jsonb_agg(jsonb_build_object('booking_id', b.booking_id, 'type', b.type, 'status', b.status) order by b.seq)) as data,
      jsonb_build_object('bookings', ${`${API}/crew/bookings?irop_ref=`} || ${encodeURIComponent(iropRef)}::text) as links, ${urgent}::boolean as urgent, 0 as ord
    from bookings b where b.airline_id = ${airlineId} and b.irop_ref = ${iropRef}
    group by b.airline_id having bool_and(${TERMINAL})`)}
    select count(*)::int as n from dl`.execute(trx);
  return r.rows[0]?.n ?? 0;
}

/** The schedule's summary as processing-status shows it, in SQL (for the completion event). */
const scheduleSummary = (id: RawBuilder<unknown>) => sql`(select jsonb_build_object(
    'action_items_total', count(*), 'action_items_auto_booked', count(*) filter (where a.disposition = 'AUTO_BOOKED'),
    'action_items_auto_cancelled', count(*) filter (where a.disposition = 'AUTO_CANCELLED'), 'action_items_pending_review', count(*) filter (where a.disposition = 'PENDING_REVIEW'),
    'action_items_failed', count(*) filter (where a.disposition = 'FAILED'),
    'action_items_resolved_by_person', count(*) filter (where a.action_taken is not null and a.action_taken <> 'DISMISS' and coalesce(a.review_status, 'RESOLVED') = 'RESOLVED'),
    'audit_events', (select count(*) from audit_events ae where ae.schedule_id = ${id}))
  from action_items a where a.schedule_id = ${id})`;

const scheduleLinks = (id: RawBuilder<unknown>) =>
  sql`jsonb_build_object('schedule', ${`${API}/crew/schedules/`} || ${id}, 'processing_status', ${`${API}/crew/schedules/`} || ${id} || '/processing-status',
    'action_items', ${`${API}/crew/schedules/`} || ${id} || '/action-items')`;

const iso = (col: RawBuilder<unknown>) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * CTEs after a `done` CTE of schedules that just changed status (returning schedule_id, airline_id,
 * external_ref, status, error, completed_at): their schedule.processing_completed / schedule.failed events,
 * in the same statement as the change. The summary is computed only for airlines with a subscriber.
 * `scheduleId`: the one schedule `done` can hold, when the caller knows it. Its items are then counted by that
 * value, which the planner judges by its statistics; by d.schedule_id it must guess one schedule's share of the
 * table, and after an airline's first big roster (one schedule holding every item) it guessed all of it and
 * scanned the whole table at every completion (40-70 ms for an L roster's 162k items instead of an index range).
 */
export function scheduleEventsAfter(done: string, scheduleId?: string) {
  const d = sql.raw(done);
  const id = scheduleId === undefined ? sql.raw('d.schedule_id') : sql`${scheduleId}::uuid`;
  return fanOut(sql`select d.airline_id, case when d.status = 'COMPLETED' then 'schedule.processing_completed' else 'schedule.failed' end as type,
      case when d.status = 'COMPLETED'
        then jsonb_build_object('schedule_id', d.schedule_id, 'external_ref', d.external_ref, 'processing_status', d.status, 'completed_at', ${iso(sql.raw('d.completed_at'))}, 'summary', ${scheduleSummary(id)})
        else jsonb_build_object('schedule_id', d.schedule_id, 'external_ref', d.external_ref, 'processing_status', d.status, 'error', d.error, 'completed_at', ${iso(sql.raw('d.completed_at'))}) end as data,
      ${scheduleLinks(id)} as links, false as urgent, 0 as ord
    from ${d} d
    where exists (select 1 from webhook_endpoints e where e.airline_id = d.airline_id and e.enabled
      and (case when d.status = 'COMPLETED' then 'schedule.processing_completed' else 'schedule.failed' end) = any(e.event_types))`);
}

/** The ids shown in one action_item.pending_review event; more are counted and paged through the link. */
export const PENDING_REVIEW_IDS = 1000;

/** A processed schedule's PENDING_REVIEW items, as its writer counted them: how many, and the first PENDING_REVIEW_IDS ids in item order. */
export interface PendingReview {
  count: number;
  ids: readonly string[];
}

/**
 * action_item.pending_review for a processed schedule: one event with its PENDING_REVIEW items (none: no
 * event). The writer passes what it wrote: counting them again would read every item of a big roster back.
 */
export async function emitPendingReview(
  trx: DbOrTrx,
  airlineId: string,
  scheduleId: string,
  pending: PendingReview,
): Promise<number> {
  if (pending.count === 0 || !(await hasSubscriber(trx, airlineId, 'action_item.pending_review'))) return 0;
  const ids = pending.ids.slice(0, PENDING_REVIEW_IDS);
  const r = await sql<{
    n: number;
  }>`with ${fanOut(sql`select ${airlineId}::uuid as airline_id, 'action_item.pending_review'::text as type,
      jsonb_build_object('schedule_id', ${scheduleId}::uuid, 'count', ${pending.count}::int, 'action_ids', ${JSON.stringify(ids)}::jsonb, 'truncated', ${pending.count > PENDING_REVIEW_IDS}::boolean) as data,
      jsonb_build_object('schedule', ${`${API}/crew/schedules/${scheduleId}`}::text, 'action_items', ${`${API}/crew/schedules/${scheduleId}/action-items?disposition=PENDING_REVIEW`}::text) as links,
      false as urgent, 0 as ord`)}
    select count(*)::int as n from dl`.execute(trx);
  return r.rows[0]?.n ?? 0;
}

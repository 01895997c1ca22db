import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from '../database';
import { keepReviewState, REVIEW_SETTINGS_OF_ITEM, type ReviewStateOf } from '../review-state';
import { REVIEW_FACT_COLUMNS } from './schedule.table';

/*
 * What keeps the review queue's stored fields right outside an item's own write: due_by again after the
 * airline's review settings change, the review status of an item whose disposition a hand-written statement
 * set, and the escalation's due-soon mark with the queue's figures.
 */

/** The settings due_by is computed from (the engine's ReviewSettings). */
export interface DueBySettings {
  lead_time_minutes: number;
  priority_targets_minutes: Partial<Record<'P1' | 'P2' | 'P3', number>>;
}

/**
 * The engine's dueBy for an OPEN item, in SQL over the action_items row `a`: its own deadline when it has one
 * (review_deadline: no setting moves it); else the earlier of its event minus the lead time and its creation plus
 * its priority's review target (none for P4, nor for a priority without one); null when neither applies.
 * Truncated to milliseconds, the engine's instants.
 */
export function dueBySql(settings: DueBySettings): RawBuilder<Date | null> {
  const t = settings.priority_targets_minutes;
  return sql<Date | null>`date_trunc('milliseconds', coalesce(a.review_deadline, least(
    a.event_at - make_interval(mins => ${settings.lead_time_minutes}::int),
    a.created_at + make_interval(mins => case a.priority when 'P1' then ${t.P1 ?? null}::int when 'P2' then ${t.P2 ?? null}::int
      when 'P3' then ${t.P3 ?? null}::int end))))`;
}

/**
 * The airline's OPEN items dated again with its new review settings, in one statement (rows whose due_by does
 * not change are left alone). Call in the transaction that stores the settings. Returns how many changed.
 */
export async function redateOpenItems(trx: DbOrTrx, airlineId: string, settings: DueBySettings): Promise<number> {
  const due = dueBySql(settings);
  const r = await sql`update action_items a set due_by = ${due}
    where a.airline_id = ${airlineId} and a.review_status = 'OPEN' and a.due_by is distinct from ${due}`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/**
 * The OPEN items of bookings that another item takes over (a later roster's change or cancellation, an injection
 * that fulfils or cancels the booking), superseded by that item: RESOLVED, no deadline, `superseded_by` the new
 * item (the engine's reviewStatusOf in SQL). Call before the booking's action_id moves to the new item: the old
 * item is found through it, by primary keys only (no index on action_items.booking_id slows the diff's COPY).
 */
export async function supersedeOpenItems(
  trx: DbOrTrx,
  takeovers: readonly { booking_id: string; action_id: string }[],
): Promise<void> {
  if (takeovers.length === 0) return;
  await sql`update action_items o set review_status = 'RESOLVED', due_by = null, superseded_by = x.action_id
    from json_to_recordset(${JSON.stringify(takeovers)}::json) as x(booking_id uuid, action_id uuid)
    join bookings b on b.booking_id = x.booking_id
    where o.action_id = b.action_id and o.action_id <> x.action_id and o.review_status = 'OPEN'`.execute(trx);
}

/**
 * The item's review fields as the rules give them now, after a statement of its own set its disposition: its
 * facts read (row-locked, in the caller's transaction) and written back when they change.
 */
export async function refreshReviewState(trx: DbOrTrx, actionId: string, reviewOf: ReviewStateOf): Promise<void> {
  const item = await trx
    .selectFrom('action_items')
    .select([...REVIEW_FACT_COLUMNS, REVIEW_SETTINGS_OF_ITEM.as('review_settings')])
    .where('action_id', '=', actionId)
    .forUpdate()
    .executeTakeFirst();
  if (item) await keepReviewState(trx, item, reviewOf);
}

/** An OPEN item just marked due soon: what its action_item.due_soon event says. */
export interface DueSoonItem {
  action_id: string;
  airline_id: string;
  schedule_id: string | null;
  type: string;
  classification: string;
  priority: string;
  disposition: string | null;
  booking_id: string | null;
  due_by: Date;
  action_taken: string | null;
  action_taken_at: Date | null;
  action_taken_by: string | null;
  action_reason: string | null;
  assignee: string | null;
}

/**
 * The OPEN items whose due_by is within their airline's due_soon_minutes of `now` (or past) and that were not
 * marked before, marked now (due_soon_at), at most `limit` of them, soonest first. The mark is set only where it
 * is still unset, so of two passes at once each item goes to one: what this returns is this caller's to announce,
 * in the same transaction. `defaultDueSoonMinutes`: for airlines without stored settings.
 */
export async function markDueSoon(
  trx: DbOrTrx,
  now: Date,
  defaultDueSoonMinutes: number,
  limit: number,
): Promise<DueSoonItem[]> {
  const r = await sql<DueSoonItem>`with due as (
      select x.action_id from airlines al
      left join review_settings s on s.airline_id = al.airline_id
      cross join lateral (
        select i.action_id, i.due_by from action_items i
        where i.airline_id = al.airline_id and i.review_status = 'OPEN'
          and i.due_by <= ${now}::timestamptz + make_interval(mins => coalesce(s.due_soon_minutes, ${defaultDueSoonMinutes}::int))
          and i.due_soon_at is null
        order by i.due_by, i.action_id limit ${limit}) x
      order by x.due_by, x.action_id limit ${limit})
    update action_items a set due_soon_at = ${now}
    from due where a.action_id = due.action_id and a.due_soon_at is null and a.review_status = 'OPEN'
    returning a.action_id, a.airline_id, a.schedule_id, a.type, a.classification, a.priority, a.disposition, a.booking_id,
      a.due_by, a.action_taken, a.action_taken_at, a.action_taken_by, a.action_reason, a.assignee`.execute(trx);
  return r.rows;
}

/** OPEN items past their due_by (overdue) or within their airline's due_soon_minutes of it (due soon), per priority. */
export async function reviewQueueFigures(
  db: DbOrTrx,
  now: Date,
  defaultDueSoonMinutes: number,
): Promise<{ priority: string; overdue: number; due_soon: number }[]> {
  const r = await sql<{ priority: string; overdue: number; due_soon: number }>`select x.priority,
      count(*) filter (where x.due_by <= ${now}::timestamptz)::int as overdue,
      count(*) filter (where x.due_by > ${now}::timestamptz)::int as due_soon
    from airlines al
    left join review_settings s on s.airline_id = al.airline_id
    cross join lateral (
      select i.priority, i.due_by from action_items i
      where i.airline_id = al.airline_id and i.review_status = 'OPEN'
        and i.due_by <= ${now}::timestamptz + make_interval(mins => coalesce(s.due_soon_minutes, ${defaultDueSoonMinutes}::int))) x
    group by x.priority`.execute(db);
  return r.rows;
}

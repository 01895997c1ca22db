import { sql } from 'kysely';
import type { ProcessingStatusValue } from '@crew/contracts';
import type { DbOrTrx } from '../database';
import { emitPendingReview, scheduleEventsAfter, type PendingReview } from '../webhook-events';

/*
 * The schedule aggregate's processing lifecycle (spec 3.1): the per-airline processing lock, the next open
 * schedule, and the guarded moves QUEUED/PROCESSING → FAILED, PROCESSING → BOOKING/COMPLETED, BOOKING → COMPLETED.
 */

/** Per-airline processing lock namespace (pg advisory locks take two int4 keys). */
const AIRLINE_LOCK = 7301;

export async function tryLockAirline(conn: DbOrTrx, airlineId: string): Promise<boolean> {
  const r = await sql<{
    ok: boolean;
  }>`select pg_try_advisory_lock(${AIRLINE_LOCK}, hashtext(${airlineId})) as ok`.execute(conn);
  return r.rows[0]?.ok === true;
}

export async function unlockAirline(conn: DbOrTrx, airlineId: string): Promise<void> {
  await sql`select pg_advisory_unlock(${AIRLINE_LOCK}, hashtext(${airlineId}))`.execute(conn);
}

/*
 * Which moves a schedule may make is the engine's (schedule-state.ts, spec 3.1): the caller passes the statuses
 * a move may start from (engine movesInto / UNPROCESSED) and the status it goes to; these only run the guarded update.
 */

/** The oldest schedule of the airline still to process, among `unprocessed` statuses (engine UNPROCESSED). */
export function nextOpenSchedule(db: DbOrTrx, airlineId: string, unprocessed: readonly ProcessingStatusValue[]) {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('status', 'in', [...unprocessed])
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The latest-captured snapshot among the airline's schedules in `applied` (engine APPLIED) whose window overlaps
 * [start, end] and which carry an `as_of`: what a submission captured earlier must not undo (engine staleSnapshot).
 */
export async function newestAppliedSnapshot(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  applied: readonly ProcessingStatusValue[],
): Promise<{ schedule_id: string; as_of: string; start: string; end: string } | undefined> {
  const r = await db
    .selectFrom('schedules')
    .select(['schedule_id', 'as_of', 'schedule_start_date', 'schedule_end_date'])
    .where('airline_id', '=', airlineId)
    .where('status', 'in', [...applied])
    .where('as_of', 'is not', null)
    .where('schedule_start_date', '<=', window.end)
    .where('schedule_end_date', '>=', window.start)
    .orderBy('as_of', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.as_of
    ? {
        schedule_id: r.schedule_id,
        as_of: r.as_of.toISOString(),
        start: r.schedule_start_date,
        end: r.schedule_end_date,
      }
    : undefined;
}

/** PROCESSING (started_at kept from a first start), from one of `from` (engine movesInto('PROCESSING')). */
export function markProcessing(db: DbOrTrx, scheduleId: string, from: readonly ProcessingStatusValue[]) {
  return db
    .updateTable('schedules')
    .set({ status: 'PROCESSING', started_at: sql<Date>`coalesce(started_at, now())` })
    .where('schedule_id', '=', scheduleId)
    .where('status', 'in', [...from])
    .execute();
}

/** FAILED from one of `from` (engine movesInto('FAILED')), with its schedule.failed webhook event in the same statement. */
export async function markFailed(
  db: DbOrTrx,
  scheduleId: string,
  error: string,
  from: readonly ProcessingStatusValue[],
): Promise<void> {
  await sql`with done as (update schedules set status = 'FAILED', error = ${error}, completed_at = statement_timestamp()
      where schedule_id = ${scheduleId} and status = any(${[...from]}::text[])
      returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done', scheduleId)}
    select 1`.execute(db);
}

/**
 * The end of processing: into `to` (engine statusAfterProcessing: BOOKING or COMPLETED), only from PROCESSING
 * (a schedule is processed once). Its completed_at is when this statement runs, at the end of the write
 * transaction: now() is when that transaction began, up to the whole write (seconds for a big roster) earlier.
 */
export async function finishProcessing(
  db: DbOrTrx,
  scheduleId: string,
  to: 'BOOKING' | 'COMPLETED',
  pendingReview: PendingReview,
): Promise<boolean> {
  // With its webhook events (schedule.processing_completed when it completes): same statement, same transaction.
  const r = await sql<{ n: number; airline_id: string | null }>`with done as (update schedules
      set status = ${to}, completed_at = case when ${to} = 'COMPLETED' then statement_timestamp() else completed_at end
      where schedule_id = ${scheduleId} and status = 'PROCESSING'
      returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter("(select * from done where status = 'COMPLETED')", scheduleId)}
    select (select count(*) from done)::int as n, (select airline_id from done) as airline_id`.execute(db);
  const row = r.rows[0];
  if (!row || row.n !== 1) return false;
  // One action_item.pending_review event for the whole schedule, never one per item.
  await emitPendingReview(db, row.airline_id!, scheduleId, pendingReview);
  return true;
}

/**
 * Called after a booking task's outcome is committed: the schedule completes once none of its items is
 * open (a held cancellation is not: nothing of it is in flight, docs/decisions.md). Run outside that transaction, so whichever settle commits last sees every other one (two checks
 * inside their own transactions could each see the other's item still open).
 */
export async function completeIfSettled(db: DbOrTrx, scheduleId: string): Promise<void> {
  await sql`with done as (update schedules set status = 'COMPLETED', completed_at = statement_timestamp()
    where schedule_id = ${scheduleId} and status = 'BOOKING'
      and not exists (select 1 from action_items where schedule_id = ${scheduleId} and disposition is null and held_until is null)
    returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done', scheduleId)}
    select 1`.execute(db);
}

/** Completes every BOOKING schedule with no open item (a worker that died between a settle and its check). */
export async function completeSettledSchedules(db: DbOrTrx): Promise<number> {
  const r = await sql<{
    n: number;
  }>`with done as (update schedules s set status = 'COMPLETED', completed_at = statement_timestamp()
    where s.status = 'BOOKING' and not exists (select 1 from action_items a where a.schedule_id = s.schedule_id and a.disposition is null and a.held_until is null)
    returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done')}
    select (select count(*) from done)::int as n`.execute(db);
  return r.rows[0]?.n ?? 0;
}

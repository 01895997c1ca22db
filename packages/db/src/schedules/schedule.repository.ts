import { sql, type Transaction } from 'kysely';
import type { Database, DbOrTrx } from '../database';
import { newestFirst } from '../keyset';
import type { ProcessingStatus } from './schedule.table';

/** Per-airline intake lock namespace: apart from the processing (7301) and booking-anchor (7302) locks, which must not block intake. */
const INTAKE_LOCK = 7303;

/**
 * Stores a submission as QUEUED. Its seq (the processing and listing order) and received_at are assigned in
 * one statement under a per-airline lock held until the caller's transaction ends, so one airline's
 * submissions commit one at a time in seq order and received_at (the statement's clock, not the
 * transaction's start) grows with seq: the three orders agree.
 */
export async function insertSchedule(
  trx: Transaction<Database>,
  row: {
    airline_id: string;
    external_ref: string | null;
    as_of: Date | null;
    schedule_start_date: string;
    schedule_end_date: string;
    pairing_count: number;
  },
) {
  await sql`select pg_advisory_xact_lock(${INTAKE_LOCK}, hashtext(${row.airline_id}))`.execute(trx);
  return trx
    .insertInto('schedules')
    .values({ ...row, status: 'QUEUED', received_at: sql<Date>`clock_timestamp()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertPayload(trx: DbOrTrx, scheduleId: string, bodyGzip: Buffer) {
  return trx.insertInto('schedule_payloads').values({ schedule_id: scheduleId, body_gzip: bodyGzip }).execute();
}

export function findPayload(db: DbOrTrx, scheduleId: string) {
  return db
    .selectFrom('schedule_payloads')
    .select('body_gzip')
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
}

export function findSchedule(db: DbOrTrx, airlineId: string, scheduleId: string) {
  return db
    .selectFrom('schedules')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirst();
}

export interface ScheduleFilter {
  from?: string;
  to?: string;
  status?: ProcessingStatus;
}

function filtered(db: DbOrTrx, airlineId: string, f: ScheduleFilter) {
  let q = db.selectFrom('schedules').where('airline_id', '=', airlineId);
  // from/to are dates of receipt (UTC), inclusive.
  if (f.from) q = q.where('received_at', '>=', sql<Date>`${f.from}::date`);
  if (f.to) q = q.where('received_at', '<', sql<Date>`${f.to}::date + 1`);
  if (f.status) q = q.where('status', '=', f.status);
  return q;
}

/** Newest first, keyset on seq (stable under concurrent inserts). */
export function listSchedules(
  db: DbOrTrx,
  airlineId: string,
  f: ScheduleFilter,
  limit: number,
  beforeSeq: number | null,
) {
  return newestFirst(filtered(db, airlineId, f).selectAll(), limit, beforeSeq);
}

export async function countSchedules(db: DbOrTrx, airlineId: string, f: ScheduleFilter): Promise<number> {
  const r = await filtered(db, airlineId, f)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return r.n;
}

/**
 * The engine's resolvedByPerson in SQL: a person's action other than a dismissal (ASSIGN is never an action
 * taken), on an item not back with a person since (stored review_status; an item stored before review
 * statuses were kept counts by its action).
 */
export const RESOLVED_BY_PERSON = sql<boolean>`action_taken is not null and action_taken <> 'DISMISS' and coalesce(review_status, 'RESOLVED') = 'RESOLVED'`;

export interface ScheduleCounts {
  total: number;
  auto_booked: number;
  auto_cancelled: number;
  pending_review: number;
  failed: number;
  /** Items a person resolved from the review queue (engine resolvedByPerson), besides their disposition's count. */
  resolved_by_person: number;
  /** Items whose booking task is not terminal yet, and the FLIGHT ones among them. */
  open: number;
  open_flight: number;
  audit_events: number;
}

/**
 * Summary counters computed from the action items themselves, so they are always in step. Only the schedules of
 * `counted` (by default all) are looked up; the others count zero.
 */
export async function scheduleCounts(
  db: DbOrTrx,
  scheduleIds: readonly string[],
  counted: readonly string[] = scheduleIds,
): Promise<Map<string, ScheduleCounts>> {
  const out = new Map<string, ScheduleCounts>();
  for (const id of scheduleIds)
    out.set(id, {
      total: 0,
      auto_booked: 0,
      auto_cancelled: 0,
      pending_review: 0,
      failed: 0,
      resolved_by_person: 0,
      open: 0,
      open_flight: 0,
      audit_events: 0,
    });
  if (counted.length === 0) return out;
  const items = await db
    .selectFrom('action_items')
    .select([
      'schedule_id',
      sql<number>`count(*)::int`.as('total'),
      sql<number>`count(*) filter (where disposition = 'AUTO_BOOKED')::int`.as('auto_booked'),
      sql<number>`count(*) filter (where disposition = 'AUTO_CANCELLED')::int`.as('auto_cancelled'),
      sql<number>`count(*) filter (where disposition = 'PENDING_REVIEW')::int`.as('pending_review'),
      sql<number>`count(*) filter (where disposition = 'FAILED')::int`.as('failed'),
      sql<number>`count(*) filter (where ${RESOLVED_BY_PERSON})::int`.as('resolved_by_person'),
      // A held cancellation has nothing in flight (docs/decisions.md): not open.
      sql<number>`count(*) filter (where disposition is null and held_until is null)::int`.as('open'),
      sql<number>`count(*) filter (where disposition is null and held_until is null and type = 'FLIGHT')::int`.as(
        'open_flight',
      ),
    ])
    .where('schedule_id', 'in', counted)
    .groupBy('schedule_id')
    .execute();
  for (const r of items) Object.assign(out.get(r.schedule_id!)!, { ...r, schedule_id: undefined });
  const audits = await db
    .selectFrom('audit_events')
    .select(['schedule_id', sql<number>`count(*)::int`.as('n')])
    .where('schedule_id', 'in', counted)
    .groupBy('schedule_id')
    .execute();
  for (const r of audits) out.get(r.schedule_id)!.audit_events = r.n;
  return out;
}

export interface ActionItemFilter {
  type?: string;
  subtype?: string;
  priority?: string;
  disposition?: string;
}

export function listActionItems(
  db: DbOrTrx,
  scheduleId: string,
  f: ActionItemFilter,
  limit: number,
  afterSeq: number | null,
) {
  let q = db.selectFrom('action_items').selectAll().where('schedule_id', '=', scheduleId);
  if (f.type) q = q.where('type', '=', f.type as 'HOTEL');
  if (f.subtype) q = q.where('subtype', '=', f.subtype);
  if (f.priority) q = q.where('priority', '=', f.priority);
  if (f.disposition) q = q.where('disposition', '=', f.disposition);
  if (afterSeq !== null) q = q.where('seq', '>', afterSeq);
  return q
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

export function listAuditEvents(db: DbOrTrx, scheduleId: string, limit: number, afterSeq: number | null) {
  let q = db.selectFrom('audit_events').selectAll().where('schedule_id', '=', scheduleId);
  if (afterSeq !== null) q = q.where('seq', '>', afterSeq);
  return q
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

export function findActionItem(db: DbOrTrx, airlineId: string, actionId: string) {
  return db
    .selectFrom('action_items')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('action_id', '=', actionId)
    .executeTakeFirst();
}

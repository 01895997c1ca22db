import type { BookingFlightBlock, BookingHotelBlock } from '@crew/contracts';
import type { MovedAwayStay } from '@crew/engine';
import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import { bulkInsert, type ColumnTypes } from '../bulk';
import { newestFirst } from '../keyset';
import { PREPARED } from '../prepared';
import { keepReviewState, REVIEW_SETTINGS_OF_ITEM, type ReviewStateOf } from '../review-state';
import { emitBookingEvents, emitIropCompletedIfDone } from '../webhook-events';
import { ACTION_ITEM_COLUMNS, REVIEW_FACT_COLUMNS } from '../schedules/schedule.table';
import {
  BOOKING_COLUMNS,
  BOOKING_EVENT_COLUMNS,
  type BookingOperation,
  type BookingStatus,
  type BookingRow,
  type BeingCancelledMark,
  type StoredCancellation,
} from './booking.table';

export function findBooking(db: DbOrTrx, bookingId: string, airlineId?: string) {
  let q = db.selectFrom('bookings').selectAll().where('booking_id', '=', bookingId);
  if (airlineId) q = q.where('airline_id', '=', airlineId);
  return q.executeTakeFirst();
}

/** The booking, row-locked for the rest of the transaction. */
export function lockBooking(trx: DbOrTrx, bookingId: string) {
  return trx.selectFrom('bookings').selectAll().where('booking_id', '=', bookingId).forUpdate().executeTakeFirst();
}

export interface BookingPatch {
  status?: BookingStatus;
  hotel?: BookingHotelBlock | null;
  flight?: BookingFlightBlock | null;
  manual_override?: boolean;
  pending_cancel?: boolean;
  review_reason?: string | null;
  last_error?: string | null;
  next_attempt_at?: Date | null;
  retry_count?: number;
  booked_by?: string | null;
  config_version_used?: string | null;
  station?: string | null;
  checkin_time_local?: string | null;
  checkout_time_local?: string | null;
  duty_date?: string | null;
  from_airport?: string | null;
  to_airport?: string | null;
  dep_time_local?: string | null;
  arr_time_local?: string | null;
  flight_number?: string | null;
  retry_job_id?: string | null;
  task_ref?: string | null;
  task_operation?: BookingOperation | null;
  schedule_id?: string | null;
  action_id?: string | null;
  cancellation?: StoredCancellation | null;
  order_reference?: string | null;
  stray_order_reference?: string | null;
  stray_order_due_at?: Date | null;
  being_cancelled?: BeingCancelledMark | null;
}

/** Applies a change and records the status transition in the history ({status, at, reason, actor}). */
export async function updateBooking(
  trx: DbOrTrx,
  bookingId: string,
  patch: BookingPatch,
  event?: { reason: string | null; actor: string },
): Promise<void> {
  const { hotel, flight, cancellation, being_cancelled, ...rest } = patch;
  await trx
    .updateTable('bookings')
    .set({
      ...rest,
      ...(cancellation !== undefined
        ? { cancellation: cancellation === null ? null : JSON.stringify(cancellation) }
        : {}),
      ...(being_cancelled !== undefined
        ? { being_cancelled: being_cancelled === null ? null : JSON.stringify(being_cancelled) }
        : {}),
      ...(hotel !== undefined ? { hotel: hotel === null ? null : JSON.stringify(hotel) } : {}),
      ...(flight !== undefined ? { flight: flight === null ? null : JSON.stringify(flight) } : {}),
      updated_at: new Date(),
    })
    .where('booking_id', '=', bookingId)
    .modifyEnd(PREPARED)
    .execute();
  if (event && patch.status)
    await trx
      .insertInto('booking_events')
      .values({ booking_id: bookingId, status: patch.status, reason: event.reason, actor: event.actor })
      .modifyEnd(PREPARED)
      .execute();
}

/** A booking made by a request or a rebook: the roster's columns and its task's operation. */
const REQUESTED_BOOKING_COLUMNS: ColumnTypes = { ...BOOKING_COLUMNS, task_operation: 'text' };

export function insertBookings(trx: DbOrTrx, rows: Record<string, unknown>[]) {
  return bulkInsert(trx, 'bookings', REQUESTED_BOOKING_COLUMNS, rows);
}

export function insertBookingEvents(
  trx: DbOrTrx,
  rows: { booking_id: string; status: string; reason: string | null; actor: string }[],
) {
  return bulkInsert(trx, 'booking_events', BOOKING_EVENT_COLUMNS, rows);
}

export function insertActionItems(trx: DbOrTrx, rows: Record<string, unknown>[]) {
  return bulkInsert(trx, 'action_items', ACTION_ITEM_COLUMNS, rows);
}

/** Every status transition, oldest first: the diff's creation entry kept in the booking row, then the recorded events. */
export async function bookingHistory(
  db: DbOrTrx,
  bookingId: string,
): Promise<{ status: string; at: Date; reason: string | null; actor: string }[]> {
  const [created, events] = await Promise.all([
    db
      .selectFrom('bookings')
      .select(['created_status', 'created_reason', 'created_at'])
      .where('booking_id', '=', bookingId)
      .executeTakeFirst(),
    db
      .selectFrom('booking_events')
      .select(['status', 'at', 'reason', 'actor'])
      .where('booking_id', '=', bookingId)
      .orderBy('event_id')
      .execute(),
  ]);
  const first = created?.created_status
    ? [{ status: created.created_status, at: created.created_at, reason: created.created_reason, actor: 'engine' }]
    : [];
  return [...first, ...events];
}

/**
 * Sets an action item's disposition; returns what metrics and schedule completion need. With `reviewOf` (the
 * engine's review rules) the item's review status and due_by follow, from the item read back by this update
 * and its airline's review settings (a second write only when they change).
 */
export async function setDisposition(
  trx: DbOrTrx,
  actionId: string,
  disposition: string,
  patch: {
    message?: string | null;
    recommended_action?: string | null;
    flight_options_url?: string | null;
    booking_id?: string;
    review_deadline?: string | null;
  } = {},
  reviewOf?: ReviewStateOf,
) {
  const update = trx
    .updateTable('action_items')
    .set({ disposition, disposition_at: new Date(), ...patch })
    .where('action_id', '=', actionId);
  if (!reviewOf)
    return update.returning(['schedule_id', 'priority', 'created_at', 'type']).modifyEnd(PREPARED).executeTakeFirst();
  const item = await update
    .returning([...REVIEW_FACT_COLUMNS, 'schedule_id', REVIEW_SETTINGS_OF_ITEM.as('review_settings')])
    .modifyEnd(PREPARED)
    .executeTakeFirst();
  if (item) await keepReviewState(trx, item, reviewOf);
  return item;
}

/**
 * What ending a booking task writes (the engine's settleBooking decides it): the booking's fields with its
 * history entry, its action item's disposition (and so its review status), and the webhook events.
 */
export interface SettlementWrite {
  patch: BookingPatch;
  history: { reason: string | null; actor: string };
  disposition: {
    action_id: string;
    disposition: string;
    message: string | null;
    recommended_action?: string;
    /** The deadline the item's review is due by (absent: the stored one stays). */
    review_deadline?: string | null;
  } | null;
  /** The review rules the item's review status and due_by follow (absent: they are left as they are). */
  review?: ReviewStateOf;
  events: {
    statuses: readonly string[];
    urgent: (itemPriority: string | null | undefined) => boolean;
    irop: { airline_id: string; irop_ref: string } | null;
  };
}

/**
 * Writes a booking task's end as decided, in the caller's transaction (which holds the booking's lock): the
 * booking and its history, the action item's disposition, then booking.<status> and irop.completed. Returns
 * the item (its schedule to complete, its priority and age for the metrics) and how many deliveries were written.
 */
export async function writeSettlement(trx: DbOrTrx, bookingId: string, s: SettlementWrite) {
  await updateBooking(trx, bookingId, s.patch, s.history);
  const d = s.disposition;
  const item = d
    ? await setDisposition(
        trx,
        d.action_id,
        d.disposition,
        {
          message: d.message,
          ...(d.recommended_action ? { recommended_action: d.recommended_action } : {}),
          ...(d.review_deadline !== undefined ? { review_deadline: d.review_deadline } : {}),
        },
        s.review,
      )
    : undefined;
  const urgent = s.events.urgent(item?.priority);
  let events = await emitBookingEvents(trx, [bookingId], urgent, s.events.statuses);
  if (s.events.irop)
    events += await emitIropCompletedIfDone(trx, s.events.irop.airline_id, s.events.irop.irop_ref, urgent);
  return { item, events };
}

/** The stay a booking moved away from, as the move's task records it once the old room is cancelled. */
export type MovedStay = MovedAwayStay;

/**
 * Records the stay a booking moved away from (hotel_moved_stays), in the caller's transaction: once per move (a
 * retried task's second write is nothing) and once per room (a second task that cancelled the same room, one of
 * them superseded, writes nothing either: hotel_moved_stays_room_key).
 */
export async function recordMovedStay(db: DbOrTrx, stay: MovedStay): Promise<void> {
  await db
    .insertInto('hotel_moved_stays')
    .values({
      ...stay,
      contracted_rate: stay.contracted_rate ? JSON.stringify(stay.contracted_rate) : null,
      cancellation_penalty: stay.cancellation_penalty ? JSON.stringify(stay.cancellation_penalty) : null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * What a hotel's answer to the CANCELLED row of a stay moved away from it writes (the engine's
 * settleMovedAwayAnswer decides it): the booking's hotel block and stored cancellation with a history entry (its
 * status unchanged), and, when the old hotel still holds the room, the item handed to a person.
 */
export interface MovedAwayAnswerWrite {
  hotel: BookingHotelBlock;
  /** The old hotel confirmed the cancellation: the stay there, for its invoice (recordMovedStay). */
  moved_stay?: MovedStay;
  cancellation?: StoredCancellation;
  history: { status: BookingStatus; reason: string; actor: string };
  review: {
    action_id: string;
    message: string;
    /** The deadline the item's review is due by (absent: the stored one stays). */
    review_deadline?: string | null;
    review: ReviewStateOf;
  } | null;
}

/** Writes it in the caller's transaction (which holds the booking's lock); returns the item it handed to a person. */
export async function writeMovedAwayAnswer(trx: DbOrTrx, bookingId: string, w: MovedAwayAnswerWrite) {
  await updateBooking(
    trx,
    bookingId,
    { status: w.history.status, hotel: w.hotel, ...(w.cancellation ? { cancellation: w.cancellation } : {}) },
    w.history,
  );
  if (w.moved_stay) await recordMovedStay(trx, w.moved_stay);
  const r = w.review;
  if (!r) return undefined;
  return setDisposition(
    trx,
    r.action_id,
    'PENDING_REVIEW',
    { message: r.message, ...(r.review_deadline !== undefined ? { review_deadline: r.review_deadline } : {}) },
    r.review,
  );
}

export function findActionItemById(db: DbOrTrx, actionId: string) {
  return db.selectFrom('action_items').selectAll().where('action_id', '=', actionId).executeTakeFirst();
}

export interface BookingFilter {
  schedule_id?: string;
  employee_id?: string;
  pairing_number?: string;
  flight_number?: string;
  irop_ref?: string;
  source?: string;
  type?: string;
  status?: string;
  from_date?: string;
  to_date?: string;
}

function filtered(db: DbOrTrx, airlineId: string, f: BookingFilter) {
  let q = db.selectFrom('bookings').where('airline_id', '=', airlineId);
  for (const k of [
    'schedule_id',
    'employee_id',
    'pairing_number',
    'flight_number',
    'irop_ref',
    'source',
    'type',
    'status',
  ] as const) {
    const v = f[k];
    if (v !== undefined) q = q.where(k, '=', v as never);
  }
  if (f.from_date) q = q.where('duty_date', '>=', f.from_date);
  if (f.to_date) q = q.where('duty_date', '<=', f.to_date);
  return q;
}

/** Newest first, keyset on seq. */
export function listBookings(
  db: DbOrTrx,
  airlineId: string,
  f: BookingFilter,
  limit: number,
  beforeSeq: number | null,
) {
  return newestFirst(filtered(db, airlineId, f).selectAll(), limit, beforeSeq);
}

export function failedBookings(db: DbOrTrx, airlineId: string, f: BookingFilter) {
  return filtered(db, airlineId, { ...f, status: 'FAILED' })
    .selectAll()
    .orderBy('seq')
    .execute();
}

/**
 * FAILED bookings with an automatic retry scheduled, oldest booking first (keyset on seq, the airline's
 * booking index; each entry carries its next_attempt_at).
 */
export function retryQueue(db: DbOrTrx, airlineId: string, limit: number, afterSeq: number | null) {
  let q = db
    .selectFrom('bookings')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('status', '=', 'FAILED')
    .where('next_attempt_at', 'is not', null);
  if (afterSeq !== null) q = q.where('seq', '>', afterSeq);
  return q
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

/** A FAILED booking whose automatic retry is overdue: what its retry job is named and queued with. */
export interface OverdueRetry {
  booking_id: string;
  airline_id: string;
  type: 'HOTEL' | 'FLIGHT';
  action_id: string | null;
  retry_count: number;
  task_ref: string | null;
  task_operation: BookingOperation | null;
  /** The booking's action item's priority (the lane its task ran in); null without an item. */
  priority: string | null;
}

/**
 * FAILED bookings, of every airline, whose automatic retry was due before `before` and has not been accepted:
 * the retry job is overdue (lost with Redis, or late behind a backlog). Soonest first, through the partial index
 * of scheduled retries.
 */
export function overdueRetries(db: DbOrTrx, before: Date, limit: number): Promise<OverdueRetry[]> {
  return db
    .selectFrom('bookings as b')
    .leftJoin('action_items as i', 'i.action_id', 'b.action_id')
    .select([
      'b.booking_id',
      'b.airline_id',
      'b.type',
      'b.action_id',
      'b.retry_count',
      'b.task_ref',
      'b.task_operation',
      'i.priority',
    ])
    .where('b.status', '=', 'FAILED')
    .where('b.next_attempt_at', 'is not', null)
    .where('b.next_attempt_at', '<', before)
    .orderBy('b.next_attempt_at')
    .limit(limit)
    .execute();
}

/** Namespace of the per-airline booking-anchor lock (pg advisory locks take two int4 keys). */
const BOOKING_ANCHORS_LOCK = 7302;

/**
 * Serializes, per airline, every check-then-create of a booking on its anchors (requests, injections and
 * the roster diff's write), until the transaction ends: the duplicate check of spec 4.4 rule 4 cannot race.
 */
export async function lockAirlineBookings(trx: DbOrTrx, airlineId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${BOOKING_ANCHORS_LOCK}, hashtext(${airlineId}))`.execute(trx);
}

/**
 * The live bookings of the same type for the same anchors, newest first (POST /crew/bookings/request duplicate
 * check). A booking whose roster cancellation is held or awaits a person (pending_cancel) is on its way out, and
 * no duplicate; `withPendingCancel` reads it too, for a cancellation that may be the one to carry it out.
 */
export function liveBookingFor(
  db: DbOrTrx,
  airlineId: string,
  type: 'HOTEL' | 'FLIGHT',
  anchors: { traveller_email: string; pairing_number?: string | null; duty_date: string },
  { withPendingCancel = false }: { withPendingCancel?: boolean } = {},
) {
  let q = db
    .selectFrom('bookings')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('type', '=', type)
    .where('traveller_email', '=', anchors.traveller_email.toLowerCase())
    .where('duty_date', '=', anchors.duty_date)
    .where('status', '!=', 'CANCELLED');
  if (!withPendingCancel) q = q.where('pending_cancel', '=', false);
  if (anchors.pairing_number) q = q.where('pairing_number', '=', anchors.pairing_number);
  return q.orderBy('seq', 'desc').execute();
}

// ---- the roster diff meets the airline's own bookings ----

/** Live bookings the airline requested or injected that no roster row holds yet, dated around a window (bookings_requested_ix holds only such bookings). */
export function requestedLiveBookings(db: DbOrTrx, airlineId: string, start: string, end: string) {
  return db
    .selectFrom('bookings')
    .select(['booking_id', 'type', 'status', 'traveller_email', 'pairing_number', 'duty_date'])
    .where('airline_id', '=', airlineId)
    .where('source', '!=', 'SCHEDULE_DIFF')
    .where('status', '!=', 'CANCELLED')
    .where('pending_cancel', '=', false)
    .where('duty_period_num', 'is', null)
    .where('leg_sequence', 'is', null)
    .where('traveller_email', 'is not', null)
    .where('duty_date', '>=', sql<string>`${start}::date - 1`)
    .where('duty_date', '<=', sql<string>`${end}::date + 1`)
    .execute();
}

/** Ties adopted bookings to their roster rows, so later diffs see them as the row's booking. */
export async function adoptBookings(
  trx: DbOrTrx,
  rows: {
    booking_id: string;
    employee_id: string;
    pairing_number: string;
    duty_period_num: number | null;
    leg_sequence: number | null;
  }[],
): Promise<void> {
  for (const r of rows) {
    await trx
      .updateTable('bookings')
      .set({
        employee_id: r.employee_id,
        pairing_number: r.pairing_number,
        duty_period_num: r.duty_period_num,
        leg_sequence: r.leg_sequence,
        updated_at: new Date(),
      })
      .where('booking_id', '=', r.booking_id)
      .execute();
  }
}

/**
 * Up to `limit` bookings whose stray order is due to be looked for (stray_order_due_at at or before `now`), each
 * leased until `leaseUntil`: another worker's pass skips them meanwhile, and one whose pass ended without clearing
 * its reference (the supplier did not answer, the process died) is taken again once the lease ends.
 */
export async function claimStrayOrderChecks(
  db: DbOrTrx,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<BookingRow[]> {
  return db
    .updateTable('bookings')
    .set({ stray_order_due_at: leaseUntil })
    .where(
      'booking_id',
      'in',
      db
        .selectFrom('bookings')
        .select('booking_id')
        .where('stray_order_reference', 'is not', null)
        .where('stray_order_due_at', '<=', now)
        .orderBy('stray_order_due_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import type { BookingFlightBlock, BookingHotelBlock } from '@crew/contracts';
import type { BookingRow } from '../bookings/booking.table';
import { ascendingAfter, oldestFirst, type KeyPosition } from '../keyset';
import { PREPARED } from '../prepared';
import { ACTION_ITEM_VIEW_COLUMNS } from './schedule.table';

/*
 * The review queue a travel desk works: the airline's action items in one list (injected ones included), the
 * booking facts the engine's review rules read, and a person's action written on the item.
 */

export interface QueueFilter {
  type?: string;
  subtype?: string;
  priority?: string;
  disposition?: string;
  review_status?: string;
  schedule_id?: string;
  /** A layover's station, or a deadhead's origin or destination (diff-derived or injected). */
  station?: string;
  /** due_by before this instant. */
  due_before?: string;
  assignee?: string;
}

export type QueueSort = 'due_by' | 'created_at';

const REVIEW_STATUSES = new Set(['OPEN', 'RESOLVED', 'DISMISSED']);

/** The fields of a booking's hotel and flight blocks the review rules read (the engine's ReviewBooking). */
const HOTEL_REVIEW_FIELDS = [
  'supplier_ref',
  'supplier_status',
  'rate_flag',
  'rooming_status',
  'rooming_marking',
] as const;
const FLIGHT_REVIEW_FIELDS = ['supplier_ref', 'supplier_status', 'pnr', 'airline_change_id'] as const;
export type HotelReviewFacts = Pick<BookingHotelBlock, (typeof HOTEL_REVIEW_FIELDS)[number]>;
export type FlightReviewFacts = Pick<BookingFlightBlock, (typeof FLIGHT_REVIEW_FIELDS)[number]>;

/**
 * An item's booking as the engine's review rules read it, and for a flight whether its traveller has a date of
 * birth (a flight option cannot be booked without one; null for a hotel).
 */
export interface BookingReviewFacts {
  booking_id: string;
  type: 'HOTEL' | 'FLIGHT';
  status: BookingRow['status'];
  retry_count: number;
  task_operation: BookingRow['task_operation'];
  hotel: HotelReviewFacts | null;
  flight: FlightReviewFacts | null;
  traveller_has_dob: boolean | null;
}

/**
 * The listed fields of the block `column` of `b` as one object (absent ones left out), null without a block. A
 * page carries these for each of its rows: not the whole block (names, addresses, rates, terms), which the review
 * rules never read and the api would parse on every row of every page.
 */
const blockFacts = (column: 'hotel' | 'flight', fields: readonly string[]) =>
  sql`case when jsonb_typeof(b.${sql.ref(column)}) = 'object' then jsonb_strip_nulls(jsonb_build_object(${sql.join(
    fields.map((f) => sql`${sql.lit(f)}, b.${sql.ref(column)} -> ${sql.lit(f)}`),
  )})) end`;

/** BookingReviewFacts of the booking `b` (its traveller `t`) as one JSON object: one shape for every reader. */
const bookingFactsJson = sql<BookingReviewFacts>`json_build_object('booking_id', b.booking_id, 'type', b.type,
  'status', b.status, 'retry_count', b.retry_count, 'task_operation', b.task_operation,
  'hotel', ${blockFacts('hotel', HOTEL_REVIEW_FIELDS)}, 'flight', ${blockFacts('flight', FLIGHT_REVIEW_FIELDS)},
  'traveller_has_dob', case when b.type = 'FLIGHT' then (select t.has_date_of_birth from travellers t
    where t.airline_id = b.airline_id and t.traveller_email = b.traveller_email) end)`;

/** The airline's stored review settings as one JSON object (null: the defaults apply). */
const reviewSettingsJson = (airlineId: string) => sql<ReviewPageFacts['settings']>`(select json_build_object(
    'lead_time_minutes', s.lead_time_minutes, 'due_soon_minutes', s.due_soon_minutes,
    'priority_targets_minutes', s.priority_targets_minutes)
  from review_settings s where s.airline_id = ${airlineId})`;

const maxRetries = (airlineId: string) =>
  sql<number | null>`(select a.max_retries from airlines a where a.airline_id = ${airlineId})`;

/**
 * One page of the airline's action items, keyset on (due_by, action_id), rows without a due_by last, or in
 * creation order (seq); one more row than `limit` tells that another page follows. The review status is the
 * stored one (the writers keep it; the partial index on open items serves the queue's default). Each row also
 * carries what the review rules read (its booking's facts, the airline's max_retries and review settings,
 * the last two computed once per statement): a page under many concurrent readers is one round trip.
 */
export function listQueue(
  db: DbOrTrx,
  airlineId: string,
  f: QueueFilter,
  sort: QueueSort,
  limit: number,
  after: KeyPosition | null,
) {
  let q = db
    .selectFrom('action_items')
    .select(ACTION_ITEM_VIEW_COLUMNS)
    // Prepared (parsed once per connection): many readers page the same few texts, whose parsing and planning cost
    // Postgres more than running them.
    .modifyEnd(PREPARED)
    .select([
      sql<BookingReviewFacts | null>`(select ${bookingFactsJson} from bookings b
        where b.airline_id = action_items.airline_id and b.booking_id = action_items.booking_id)`.as('booking_facts'),
      maxRetries(airlineId).as('max_retries'),
      reviewSettingsJson(airlineId).as('review_settings'),
    ])
    .where('airline_id', '=', airlineId);
  if (f.type) q = q.where('type', '=', f.type as 'HOTEL');
  if (f.subtype) q = q.where('subtype', '=', f.subtype);
  if (f.priority) q = q.where('priority', '=', f.priority);
  if (f.disposition) q = q.where('disposition', '=', f.disposition);
  if (f.review_status)
    // A known status is written into the text: a prepared statement's generic plan can then use the partial
    // index on open items, which a parameter could not be proven to match.
    q = q.where(
      'review_status',
      '=',
      REVIEW_STATUSES.has(f.review_status) ? sql.lit(f.review_status) : f.review_status,
    );
  if (f.schedule_id) q = q.where('schedule_id', '=', f.schedule_id);
  if (f.due_before) q = q.where('due_by', '<', new Date(f.due_before));
  if (f.assignee) q = q.where(sql<string>`lower(assignee)`, '=', f.assignee.toLowerCase());
  if (f.station) {
    const s = f.station;
    q = q.where(
      sql<boolean>`${s} in (details->>'station', details->>'from_airport', details->>'to_airport', details->'flight'->>'from_airport', details->'flight'->>'to_airport')`,
    );
  }
  // Creation order is the insertion order: the airline's (airline_id, seq) index serves it.
  if (sort === 'created_at') return oldestFirst(q, limit, after?.key ?? null);
  return ascendingAfter(q, sort, 'action_id', limit, after);
}

/** The item, row-locked for the rest of the transaction: two people acting on it take turns. */
export function lockActionItem(trx: DbOrTrx, airlineId: string, actionId: string) {
  return trx
    .selectFrom('action_items')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('action_id', '=', actionId)
    .forUpdate()
    .executeTakeFirst();
}

/** What the review rules read of the airline and of a page's bookings, in one statement (reviewPageFacts). */
export interface ReviewPageFacts {
  /** The airline's max_retries (null: no such airline). */
  max_retries: number | null;
  /** The airline's stored review settings (null: the defaults apply). */
  settings: {
    lead_time_minutes: number;
    due_soon_minutes: number;
    priority_targets_minutes: Record<string, number>;
  } | null;
  bookings: BookingReviewFacts[];
}

/**
 * The airline's max_retries and stored review settings, and the review facts of these bookings, in one round
 * trip (listQueue carries the same on each row of a queue page).
 */
export async function reviewPageFacts(
  db: DbOrTrx,
  airlineId: string,
  bookingIds: readonly string[],
): Promise<ReviewPageFacts> {
  const r = await sql<ReviewPageFacts>`select
      ${maxRetries(airlineId)} as max_retries,
      ${reviewSettingsJson(airlineId)} as settings,
      coalesce((select json_agg(${bookingFactsJson}) from bookings b
        where b.airline_id = ${airlineId} and b.booking_id = any(${[...bookingIds]}::uuid[])), '[]'::json) as bookings`.execute(
    db,
  );
  return r.rows[0]!;
}

/** A person's action as written on the item (the engine's ReviewItemPatch, with the reason given). */
export interface ReviewWrite {
  review_status: string;
  due_by?: Date | string | null;
  action_taken?: string;
  action_taken_at?: Date | string;
  action_taken_by?: string;
  action_reason?: string | null;
  assignee?: string;
  recommended_action?: null;
  flight_options_url?: null;
}

/** Writes a person's action on the item; returns the item as it now stands. */
export function writeReview(trx: DbOrTrx, actionId: string, w: ReviewWrite) {
  return trx
    .updateTable('action_items')
    .set(w)
    .where('action_id', '=', actionId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Stores items' review status and due_by as the engine derives them (items written before they were kept). */
export async function writeReviewStates(
  db: DbOrTrx,
  rows: readonly { action_id: string; review_status: string | null; due_by: string | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    update action_items a set review_status = x.review_status, due_by = x.due_by
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(action_id uuid, review_status text, due_by timestamptz)
    where a.action_id = x.action_id`.execute(db);
}

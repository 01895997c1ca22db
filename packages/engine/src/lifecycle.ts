import type { BookingHotelBlock, BookingOperation, BookingStatus, Money } from '@crew/contracts';
import { ceilingCheck } from './flight-options';
import type { FxTable } from './fx';
import { rateCheck, type Decision, type HotelChoice } from './policy';
import { localDateOf } from './time';

/*
 * The booking lifecycle (spec 2.3-2.5, 3.2, 4.4): the status and task a decision starts, how a supplier failure
 * ends a task and when a task may run again. What an airline's request becomes is in airline-requests.ts, what a
 * PATCH or DELETE does in patch-and-delete.ts. The api and the worker carry these out; none of them is decided there.
 */

// ---- a decision's booking and task ----

/** The status a booking gets from a decision: a task runs for an automatic one; anything else waits for a person. */
export function bookingStatusOf(d: Decision): 'PENDING' | 'NEEDS_REVIEW' {
  return d.action === 'AUTO_BOOK' || d.action === 'AUTO_MODIFY' || d.action === 'AUTO_CANCEL'
    ? 'PENDING'
    : 'NEEDS_REVIEW';
}

/** The supplier task a decision starts (null: none). */
export function taskOperationOf(d: Decision): BookingOperation | null {
  return d.action === 'AUTO_BOOK'
    ? 'BOOK'
    : d.action === 'AUTO_MODIFY'
      ? 'AMEND'
      : d.action === 'AUTO_CANCEL'
        ? 'CANCEL'
        : null;
}

/** The booking's `hotel` block for the configured hotel and contract the policy chose. */
export function hotelBlockOf(h: HotelChoice): BookingHotelBlock {
  return {
    property_id: h.property_id,
    name: h.name,
    handler_type: h.handler_type,
    hotel_config_id: h.hotel_config_id,
    contract_id: h.contract_id,
    contracted_rate: h.rate,
    // The supplier is asked for the contract's negotiated rates only when the contract has a code.
    ...(h.rate_access_code ? { rate_access_code: h.rate_access_code } : {}),
  };
}
/** The fields of a supplier's room on a hotel block (what `reserved` writes besides the hotel's own). */
const SUPPLIER_ROOM_FIELDS = [
  'supplier',
  'supplier_ref',
  'supplier_status',
  'live_mode',
  'confirmation_number',
  'supplier_booking_id',
  'supplier_booking_ids',
  'cancellation_timeline',
  'check_in_date',
  'check_out_date',
  'nights',
  'nightly_rate',
  'total_price',
  'rate_flag',
] as const satisfies readonly (keyof BookingHotelBlock)[];

/**
 * A supplier's room a change moved away from a DIRECT hotel's stay: the booking's block names a DIRECT hotel now
 * (the roster moved the layover there) but still holds the supplier's room of the stay as booked. That room is
 * cancelled at its supplier before the DIRECT hotel's rooming list carries the new stay. Null: none to cancel.
 */
export function supplierRoomMovedAway(
  hotel: BookingHotelBlock | null | undefined,
  operation: BookingOperation | null | undefined,
): { supplier: string | undefined; supplier_ref: string } | null {
  if (operation !== 'AMEND' || hotel?.handler_type !== 'DIRECT' || !hotel.supplier_ref) return null;
  return { supplier: hotel.supplier, supplier_ref: hotel.supplier_ref };
}

/**
 * A stay a booking moved away from (a roster's move to another hotel, on the same booking), once its old room is
 * cancelled: the old hotel's room as it was, cancelled, with the late fee the cancellation cost (null: in time, or
 * no terms). The booking names the new hotel from then on, so the old hotel's invoice matches its lines to this
 * stay (a late-cancellation fee against the fee recorded, anything charged after a timely cancellation disputed),
 * as it would to a booking cancelled there. One per move (its task's ref).
 */
export interface MovedAwayStay {
  booking_id: string;
  move_ref: string;
  airline_id: string;
  property_id: string;
  confirmation_number: string | null;
  check_in_date: string;
  check_out_date: string;
  contract_id: number | null;
  contracted_rate: Money | null;
  cancellation_penalty: Money | null;
}

export function movedAwayStay(
  b: { booking_id: string; airline_id: string },
  moveRef: string,
  room: {
    property_id: string;
    check_in_date: string;
    check_out_date: string;
    confirmation_number?: string | null;
    contract_id?: number | null;
    contracted_rate?: Money | null;
  },
  /** What the old room's cancellation recorded (madeCancellationCost's fields); absent: nothing. */
  cost: Pick<BookingHotelBlock, 'cancellation_penalty'> | null | undefined,
): MovedAwayStay {
  return {
    booking_id: b.booking_id,
    move_ref: moveRef,
    airline_id: b.airline_id,
    property_id: room.property_id,
    confirmation_number: room.confirmation_number ?? null,
    check_in_date: room.check_in_date,
    check_out_date: room.check_out_date,
    contract_id: room.contract_id ?? null,
    contracted_rate: room.contracted_rate ?? null,
    cancellation_penalty: cost?.cancellation_penalty ?? null,
  };
}

/** The block once that room is cancelled: the DIRECT hotel's stay, without the supplier's room. */
export function withoutSupplierRoom(hotel: BookingHotelBlock): BookingHotelBlock {
  const out: BookingHotelBlock = { ...hotel };
  for (const k of SUPPLIER_ROOM_FIELDS) delete out[k];
  return out;
}

/** The fields of a DIRECT hotel's rooming-list row on a hotel block (what a row's placement and answer write). */
const ROOMING_ROW_FIELDS = [
  'rooming_ref',
  'rooming_status',
  'rooming_marking',
  'rooming_list_id',
  'rooming_list_version',
  'confirmation_number',
  'hotel_confirmed_at',
] as const satisfies readonly (keyof BookingHotelBlock)[];

/**
 * A DIRECT hotel's stay a change moved to a supplier's hotel: the booking's block names the supplier's hotel now
 * (the roster moved the layover there) but still carries the rooming-list row of the stay as booked (the diff's
 * merge leaves it). The old hotel is sent a CANCELLED row before the supplier books the new room. A cancellation
 * is not such a change.
 */
export function roomingStayMovedAway(
  hotel: BookingHotelBlock | null | undefined,
  operation: BookingOperation | null | undefined,
): boolean {
  return (operation ?? 'BOOK') !== 'CANCEL' && !!hotel && hotel.handler_type !== 'DIRECT' && !!hotel.rooming_list_id;
}

/** The block once the old hotel is told: the supplier's hotel's stay, without the old hotel's row and number. */
export function withoutRoomingRow(hotel: BookingHotelBlock): BookingHotelBlock {
  const out: BookingHotelBlock = { ...hotel };
  for (const k of ROOMING_ROW_FIELDS) delete out[k];
  return out;
}

// ---- a task's end and its retries ----

/** How a supplier failure ends a task: transient (nothing refused) FAILED and retryable; a refusal NEEDS_REVIEW. */
export function supplierErrorOutcome(err: { transient: boolean; code: string; message: string }): {
  status: 'FAILED' | 'NEEDS_REVIEW';
  reason: string;
} {
  return err.transient
    ? { status: 'FAILED', reason: `${err.code}: ${err.message}` }
    : { status: 'NEEDS_REVIEW', reason: `supplier refused (${err.code}): ${err.message}` };
}

/**
 * A room the supplier reserved: held at its price when it matches the contracted rate (compared in the
 * contract's currency at the rate of the first night, rateCheck); a mismatch under STRICT is held for a person
 * to decide on (NEEDS_REVIEW), under LOOSE booked and flagged. No contracted rate: nothing to compare.
 */
export function reservationOutcome(
  contracted: Money | null | undefined,
  charged: Money,
  firstNight: string,
  mode: 'STRICT' | 'LOOSE',
  fx: FxTable,
  success: 'CONFIRMED' | 'MODIFIED',
): { status: 'CONFIRMED' | 'MODIFIED' | 'NEEDS_REVIEW'; reason: string | null; rate_flag: string | null } {
  const check = contracted
    ? rateCheck(contracted, charged, mode, fx, firstNight)
    : { ok: true, flag: null, reason: null };
  return check.ok
    ? { status: success, reason: check.flag, rate_flag: check.flag }
    : { status: 'NEEDS_REVIEW', reason: check.reason, rate_flag: check.flag };
}

/**
 * A ticket the supplier issued: the engine never orders above the ceiling (a supplier that prices at ordering
 * refuses a fare above it before buying, orderingCeiling), so a fare it searched that a supplier ticketed above
 * it anyway is held for review. A committed option (the airline chose it) is not compared.
 */
export function ticketingOutcome(
  committed: boolean,
  fare: Money,
  departure: string,
  ceiling: Money | null,
  fx: FxTable,
): { status: 'CONFIRMED' | 'NEEDS_REVIEW'; reason: string | null } {
  const c = committed ? null : ceilingCheck(fare, ceiling, fx, localDateOf(departure));
  return c && !c.ok
    ? { status: 'NEEDS_REVIEW', reason: `at ticketing: ${c.reason}` }
    : { status: 'CONFIRMED', reason: null };
}

/** A flight change is cancel-and-rebook at the supplier: the new ticket makes the booking MODIFIED. */
export function amendedStatus<S extends string>(rebooked: S): S | 'MODIFIED' {
  return rebooked === 'CONFIRMED' ? 'MODIFIED' : rebooked;
}

/** A task's last attempt ended in an error of our own: FAILED, retryable. */
export function internalErrorOutcome(message: string): { status: 'FAILED'; reason: string } {
  return { status: 'FAILED', reason: `internal error: ${message}` };
}

/** POST …/retry: why this booking cannot be retried by hand (FAILED only, within max_retries), or null. */
export function retryRefusal(b: { status: BookingStatus; retry_count: number }, maxRetries: number): string | null {
  if (b.status !== 'FAILED') return `Only a FAILED booking can be retried; this one is ${b.status}`;
  if (b.retry_count >= maxRetries) return `The booking has used its ${maxRetries} retries`;
  return null;
}

/** Whether a retry job may re-run this booking's task (the same rule as retryRefusal, set-based in SQL too). */
export function retryable(b: { status: BookingStatus; retry_count: number }, maxRetries: number): boolean {
  return retryRefusal(b, maxRetries) === null;
}

/** A booking task's identity as the job carries it. */
export interface TaskJob {
  attempt: number;
  ref?: string | null;
}

/** The job is the task the booking waits for: PENDING, same task, same attempt. A stale or duplicate one does nothing. */
export function isCurrentTask(
  b: { status: BookingStatus; task_ref: string | null; retry_count: number },
  job: TaskJob,
): boolean {
  return b.status === 'PENDING' && (b.task_ref ?? null) === (job.ref ?? null) && b.retry_count + 1 === job.attempt;
}

/** An automatic retry fires: it applies only if the booking still waits for it (FAILED, same task, same retry count). */
export function automaticRetryApplies(
  b: { status: BookingStatus; task_ref: string | null; retry_count: number },
  job: TaskJob,
): boolean {
  return b.status === 'FAILED' && b.retry_count + 2 === job.attempt && (b.task_ref ?? null) === (job.ref ?? null);
}

/**
 * The operation of a booking's task. Stored in its own column; a row written without it (before the column,
 * or by a writer not yet carrying it) names it in its task_ref's prefix, as every task_ref did.
 */
export function taskOperation(b: {
  task_operation?: BookingOperation | null;
  task_ref: string | null;
}): BookingOperation {
  if (b.task_operation) return b.task_operation;
  const op = b.task_ref?.split('-', 1)[0];
  return op === 'AMEND' || op === 'CANCEL' ? op : 'BOOK';
}

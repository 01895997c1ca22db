import type {
  ActionInjectionBody,
  BookingFlightBlock,
  BookingHotelBlock,
  BookingOperation,
  BookingRequestBody,
  BookingStatus,
  Disposition,
  Money,
  Priority,
  ValidationIssue,
} from '@crew/contracts';
import { CANCELLING_CLASSIFICATIONS, DEFAULT_CHECK_IN, DEFAULT_CHECK_OUT } from './booking-tasks';
import type { FxTable } from './fx';
import {
  ceilingCheck,
  contractedRate,
  decide,
  NO_BOOKER,
  NO_DOB,
  rateCheck,
  type Decision,
  type HotelChoice,
  type PolicyContext,
  type StationHotel,
} from './policy';
import { localDateOf } from './time';
import { holdsReservation } from './types';

/*
 * The booking lifecycle (spec 2.3-2.5, 3.2, 4.4): what an airline's request becomes, the status and task a
 * decision starts, what a PATCH or DELETE does, how a supplier failure ends a task and when a task may run
 * again. The api and the worker carry these out; none of them is decided there.
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

// ---- an airline's own request (POST /crew/action-items, POST /crew/bookings/request) ----

/** Whether the airline asks to let a booking go (a cancelling classification) rather than make one. */
export function isCancellingRequest(classification: string): boolean {
  return CANCELLING_CLASSIFICATIONS.has(classification);
}

/**
 * What is wrong with an airline's request beyond its schema: the block its type needs (and no other), irop_ref
 * for an IROP request, a hotel's city or property and its check-out, a flight's route and date (unless a
 * commit names an option, or it cancels). `commit`: POST /crew/bookings/request.
 */
export function requestIssues(body: ActionInjectionBody | BookingRequestBody, commit: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (body.type === 'HOTEL' && !body.hotel) issues.push({ field: '/hotel', issue: 'is required when type is HOTEL' });
  if (body.type === 'HOTEL' && body.flight)
    issues.push({ field: '/flight', issue: 'must be absent when type is HOTEL' });
  if (body.type === 'FLIGHT' && !body.flight)
    issues.push({ field: '/flight', issue: 'is required when type is FLIGHT' });
  if (body.type === 'FLIGHT' && body.hotel)
    issues.push({ field: '/hotel', issue: 'must be absent when type is FLIGHT' });
  if (body.source === 'IROP' && !body.irop_ref)
    issues.push({ field: '/irop_ref', issue: 'is required when source is IROP' });
  if (body.hotel && !body.hotel.city && !body.hotel.property_id)
    issues.push({ field: '/hotel/city', issue: 'city or property_id is required' });
  if (body.hotel && !body.hotel.check_out_date && !body.hotel.num_nights)
    issues.push({ field: '/hotel/check_out_date', issue: 'check_out_date or num_nights is required' });
  if (body.hotel?.check_out_date && body.hotel.check_out_date <= body.hotel.check_in_date)
    issues.push({ field: '/hotel/check_out_date', issue: 'must be after check_in_date' });
  const f: { flight_option_id?: string; from_airport?: string; to_airport?: string; depart_date?: string } | undefined =
    body.flight;
  if (f && !isCancellingRequest(body.classification) && !(commit && f.flight_option_id)) {
    for (const k of ['from_airport', 'to_airport', 'depart_date'] as const)
      if (!f[k])
        issues.push({ field: `/flight/${k}`, issue: commit ? 'is required without flight_option_id' : 'is required' });
    if (f.from_airport && f.from_airport === f.to_airport)
      issues.push({ field: '/flight/to_airport', issue: 'must differ from from_airport' });
  }
  // A cancellation finds its booking by the traveller and the date: the flight's, the anchors', or a committed offer's.
  if (
    f &&
    isCancellingRequest(body.classification) &&
    !f.depart_date &&
    !body.anchors.duty_date &&
    !(commit && f.flight_option_id)
  )
    issues.push({
      field: '/flight/depart_date',
      issue: 'or anchors.duty_date is required to find the booking to cancel',
    });
  return issues;
}

/** The subtype of an injected action item. */
export function requestSubtype(classification: string): 'CANCEL' | 'NEW_BOOKING' {
  return isCancellingRequest(classification) ? 'CANCEL' : 'NEW_BOOKING';
}

/** An injection without a priority, a booking request (commit) and a retry wait in the P2 lane. */
export const REQUEST_PRIORITY: Priority = 'P2';
/** PATCH and DELETE: the airline's caller waits for the outcome. */
export const CALLER_WAITS_PRIORITY: Priority = 'P1';

/** The lane of a request's booking task: the injection's priority, else REQUEST_PRIORITY. */
export function requestPriority(priority: Priority | null | undefined): Priority {
  return priority ?? REQUEST_PRIORITY;
}

/** A request's source: as given, else IROP when it names an irop_ref, else AIRLINE_INJECTED. */
export function requestSource(
  source: 'IROP' | 'AIRLINE_INJECTED' | null | undefined,
  iropRef: string | null | undefined,
): 'IROP' | 'AIRLINE_INJECTED' {
  return source ?? (iropRef ? 'IROP' : 'AIRLINE_INJECTED');
}

/** Spec 4.4: manual_override is true after any change by the airline unless it sends false. */
export function manualOverrideOf(value: boolean | null | undefined): boolean {
  return value ?? true;
}

/** A flight booking needs the traveller's date of birth (a cancellation does not): why one cannot be made, or null. */
export function dateOfBirthIssue(
  type: 'HOTEL' | 'FLIGHT',
  classification: string,
  dateOfBirth: string | null | undefined,
): string | null {
  return type === 'FLIGHT' && !isCancellingRequest(classification) && !dateOfBirth ? NO_DOB : null;
}

/** What a booking task for a flight needs of its traveller: a date of birth; else why it goes to review. */
export function flightTravellerIssue(dateOfBirth: string | null | undefined): string | null {
  return dateOfBirth ? null : NO_DOB;
}

/** The facts of an airline's request the engine decides on. */
export interface BookingRequestFacts {
  action_id: string;
  /** injection: POST /crew/action-items; commit: POST /crew/bookings/request. */
  kind: 'injection' | 'commit';
  type: 'HOTEL' | 'FLIGHT';
  classification: string;
  traveller_email: string;
  /** HOTEL: the station and the stay (injectedStay), and a pinned property. */
  station?: string;
  checkin_time_local?: string;
  checkout_time_local?: string;
  property_id?: string | null;
}

/**
 * The decision on a request to book: a hotel stay goes through the policy like a roster's; a flight commit
 * (a chosen option, or a route to search) is placed under the calling user (spec rule 11); an injected flight
 * is not gated by the deadhead lever, only by the booking account.
 */
export function decideRequest(r: BookingRequestFacts, policy: PolicyContext): Decision {
  if (r.type === 'HOTEL') {
    return decide(
      {
        action_id: r.action_id,
        type: 'HOTEL',
        subtype: 'NEW_BOOKING',
        classification: r.classification,
        booking_status: null,
        traveller_email: r.traveller_email,
        station: r.station,
        checkin_time_local: r.checkin_time_local,
        checkout_time_local: r.checkout_time_local,
        property_id: r.property_id ?? null,
      },
      policy,
    );
  }
  const auto: Decision = {
    action: 'AUTO_BOOK',
    auto_eligible: true,
    reason: null,
    recommended_action: null,
    flight_options_url: null,
  };
  if (r.kind === 'commit' || policy.crew_booker_email) return auto;
  return {
    action: 'REVIEW',
    auto_eligible: false,
    reason: NO_BOOKER,
    recommended_action: null,
    flight_options_url: null,
  };
}

/** The injected item's disposition when written: held for review at once, else its task (or nothing) decides. */
export function requestDisposition(d: Decision | null): Disposition | null {
  return d && d.action === 'REVIEW' ? 'PENDING_REVIEW' : null;
}

/** Who a request's booking is made under: a flight commit under the calling user, anything else the booking account. */
export function requestBookedBy(
  type: 'HOTEL' | 'FLIGHT',
  kind: 'injection' | 'commit',
  callerEmail: string,
  crewBookerEmail: string | null,
): string | null {
  return type === 'FLIGHT' && kind === 'commit' ? callerEmail : crewBookerEmail;
}

/**
 * The date a request is for: a stay's check-in date; a flight's departure date as the body gives it, else its
 * anchors' duty date, else the committed offer's departure date (local at the origin).
 */
export function requestDutyDate(
  type: 'HOTEL' | 'FLIGHT',
  hotel: { check_in_date: string } | null | undefined,
  flightDate: string | null | undefined,
  anchorDate: string | null | undefined,
  offerDeparture: string | null | undefined,
): string {
  if (type === 'HOTEL') return hotel!.check_in_date;
  return flightDate ?? anchorDate ?? offerDeparture!.slice(0, 10);
}

/** A request's booking blocks: the chosen hotel (or the pinned property), the flight option or search constraints. */
export function requestBlocks(
  type: 'HOTEL' | 'FLIGHT',
  d: Decision,
  pinnedProperty: string | null | undefined,
  flight:
    | {
        flight_option_id?: string | null;
        depart_after?: string | null;
        arrive_by?: string | null;
        cabin_class?: string | null;
      }
    | null
    | undefined,
): { hotel: BookingHotelBlock | null; flight: BookingFlightBlock | null } {
  const hotel = d.hotel ? hotelBlockOf(d.hotel) : pinnedProperty ? { property_id: pinnedProperty } : null;
  const constraints = {
    depart_after: flight?.depart_after ?? null,
    arrive_by: flight?.arrive_by ?? null,
    cabin_class: (flight?.cabin_class ?? null) as NonNullable<BookingFlightBlock['constraints']>['cabin_class'],
  };
  return {
    hotel,
    flight: type === 'FLIGHT' ? { flight_option_id: flight?.flight_option_id ?? null, constraints } : null,
  };
}

interface BlockHolder {
  status: BookingStatus;
  hotel: unknown;
  flight: unknown;
}
const supplierRefOf = (block: unknown) => (block as { supplier_ref?: string } | null)?.supplier_ref;

/** A booking the engine left for a person (BOOK_MANUALLY, no reservation made): a request fulfils it instead of conflicting. */
export function awaitsManualBooking(b: BlockHolder): boolean {
  return b.status === 'NEEDS_REVIEW' && !supplierRefOf(b.hotel) && !supplierRefOf(b.flight);
}

// ---- PATCH and DELETE (spec 3.2, 4.4) ----

/** Replaces the date of a local timestamp, keeping its time and offset (or the default time, at UTC). */
function onDate(ts: string | null, date: string, fallback: string): string {
  return ts ? `${date}${ts.slice(10)}` : `${date}T${fallback}:00+00:00`;
}

/** A DIRECT hotel's stay on a rooming list still waiting for the hotel's answer: its task is done, it stays PENDING. */
export function awaitsHotelAnswer(hotel: unknown): boolean {
  return ['QUEUED', 'SENT'].includes(String((hotel as { rooming_status?: string } | null)?.rooming_status));
}

/** A supplier task is in flight: another must wait for it to end. */
export function taskInFlight(b: { status: BookingStatus; hotel: unknown }): boolean {
  return b.status === 'PENDING' && !awaitsHotelAnswer(b.hotel);
}

/** The block of a PATCH must match the booking's type: the field at fault, or null. */
export function patchBlockIssue(
  type: 'HOTEL' | 'FLIGHT',
  body: { hotel?: unknown; flight?: unknown },
): { field: string; issue: string } | null {
  if ((body.hotel && type !== 'HOTEL') || (body.flight && type !== 'FLIGHT'))
    return { field: body.hotel ? '/hotel' : '/flight', issue: `does not match a ${type} booking` };
  return null;
}

export interface PatchedBooking {
  type: 'HOTEL' | 'FLIGHT';
  status: BookingStatus;
  hotel: unknown;
  booked_by: string | null;
  station: string | null;
  checkin_time_local: string | null;
  checkout_time_local: string | null;
}

export interface PatchBody {
  hotel?: { check_in_date?: string; check_out_date?: string; property_id?: string };
  flight?: { flight_option_id?: string; desired_arrival_by?: string };
}

/** What a PATCH does. Hotel dates: a supplier amend of the same booking; another property or any flight change: cancel-and-rebook. */
export type PatchPlan =
  | { kind: 'OVERRIDE_ONLY' }
  | { kind: 'INVALID'; field: string; issue: string }
  | { kind: 'CONFLICT'; message: string }
  | {
      kind: 'AMEND';
      operation: 'AMEND';
      changes: { checkin_time_local: string; checkout_time_local: string; duty_date: string };
    }
  | { kind: 'REBOOK'; changes: Record<string, unknown> & { booked_by: string | null } };

/**
 * The PATCH plan (spec 4.4, 3.2), for a booking no task is running on. Never gated by booking_modification.
 * `stationHotel`: the hotel configured at the booking's station (a rebook at it books at its contracted rate
 * and through its channel); `crewBookerEmail` the airline's booking account.
 */
export function patchPlan(
  b: PatchedBooking,
  body: PatchBody,
  callerEmail: string,
  stationHotel: StationHotel | undefined,
  crewBookerEmail: string | null,
): PatchPlan {
  if (!body.hotel && !body.flight) return { kind: 'OVERRIDE_ONLY' };
  if (b.status === 'CANCELLED')
    return { kind: 'CONFLICT', message: 'A cancelled booking cannot be modified; request a new booking' };
  if (b.type === 'HOTEL') {
    const h = body.hotel!;
    const checkin = onDate(
      b.checkin_time_local,
      h.check_in_date ?? localDateOf(b.checkin_time_local!),
      DEFAULT_CHECK_IN,
    );
    const checkout = onDate(
      b.checkout_time_local,
      h.check_out_date ?? localDateOf(b.checkout_time_local!),
      DEFAULT_CHECK_OUT,
    );
    if (localDateOf(checkout) <= localDateOf(checkin))
      return { kind: 'INVALID', field: '/hotel/check_out_date', issue: 'must be after the check-in date' };
    const stay = { checkin_time_local: checkin, checkout_time_local: checkout, duty_date: localDateOf(checkin) };
    const swap =
      h.property_id !== undefined && h.property_id !== (b.hotel as { property_id?: string } | null)?.property_id;
    if (!swap) {
      if (!holdsReservation(b.status))
        return {
          kind: 'CONFLICT',
          message: `The booking is ${b.status} and holds no confirmed room to amend; retry it or request a new booking`,
        };
      return { kind: 'AMEND', operation: 'AMEND', changes: stay };
    }
    const configured = stationHotel && stationHotel.property_id === h.property_id ? stationHotel : undefined;
    const rate = configured ? contractedRate(configured, checkin, checkout) : null;
    return {
      kind: 'REBOOK',
      changes: {
        ...stay,
        hotel: {
          property_id: h.property_id,
          ...(rate ? { contract_id: rate.contract.contract_id, contracted_rate: rate.rate } : {}),
          ...(rate?.contract.rate_access_code ? { rate_access_code: rate.contract.rate_access_code } : {}),
          // The station's configured hotel: its channel (a DIRECT hotel's stay goes on its rooming list).
          ...(configured
            ? {
                handler_type: configured.handler_type,
                hotel_config_id: configured.hotel_config_id,
                name: configured.name,
              }
            : {}),
        },
        booked_by: crewBookerEmail ?? b.booked_by,
      },
    };
  }
  const f = body.flight ?? {};
  return {
    kind: 'REBOOK',
    changes: {
      flight: f.flight_option_id
        ? { flight_option_id: f.flight_option_id }
        : { constraints: { depart_after: null, arrive_by: f.desired_arrival_by ?? null, cabin_class: null } },
      // A chosen option is ticketed under the caller; a search-and-book under the booking account it had.
      booked_by: f.flight_option_id ? callerEmail : b.booked_by,
    },
  };
}

/** DELETE: a CANCELLED booking makes no supplier call (only the override is recorded); any other is cancelled (again on NEEDS_REVIEW). */
export function deleteNeedsSupplierCall(status: BookingStatus): boolean {
  return status !== 'CANCELLED';
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
 * A ticket the supplier issued: the engine never books above the ceiling, so a fare it searched that moved
 * above it at ticketing is held for review. A committed option (the airline chose it) is not compared.
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

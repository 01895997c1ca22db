import type {
  ActionInjectionBody,
  BookingFlightBlock,
  BookingHotelBlock,
  BookingRequestBody,
  BookingStatus,
  Disposition,
  Priority,
  ValidationIssue,
} from '@crew/contracts';
import { CANCELLING_CLASSIFICATIONS, numNightsIssue } from './booking-tasks';
import { hotelBlockOf } from './lifecycle';
import { decide, NO_BOOKER, NO_DOB, type Decision, type PolicyContext } from './policy';

/*
 * The booking lifecycle of an airline's own request (spec 2.7, 4.2, 4.4): what an injection or a commit is
 * checked for, and the booking it becomes.
 */

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
  if (body.hotel && !body.hotel.check_out_date && (body.hotel.num_nights ?? null) === null)
    issues.push({ field: '/hotel/check_out_date', issue: 'check_out_date or num_nights is required' });
  if (body.hotel?.check_out_date && body.hotel.check_out_date <= body.hotel.check_in_date)
    issues.push({ field: '/hotel/check_out_date', issue: 'must be after check_in_date' });
  // The same num_nights rule as a PATCH's (a disagreeing num_nights was ignored: check_out_date won).
  const nights = body.hotel?.check_in_date
    ? numNightsIssue(body.hotel.check_in_date, body.hotel.check_out_date, body.hotel.num_nights)
    : null;
  if (nights) issues.push(nights);
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

/**
 * The booking a cancelling request lets go, of the live ones matching its anchors (newest first). One not already
 * on its way out comes first: a booking whose roster cancellation is held or awaits a person (pending_cancel) is
 * cancelled by the request only when no other matches, since an explicit cancellation of it is the one the roster
 * asked for. Within each, a booking with a reservation or a task before one left for a person (awaitsManualBooking).
 */
export function cancellationTarget<B extends BlockHolder & { pending_cancel: boolean }>(
  live: readonly B[],
): B | undefined {
  for (const group of [live.filter((b) => !b.pending_cancel), live.filter((b) => b.pending_cancel)]) {
    const awaiting = group.find(awaitsManualBooking);
    const target = group.find((b) => b !== awaiting) ?? awaiting;
    if (target) return target;
  }
  return undefined;
}

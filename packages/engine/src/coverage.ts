import {
  COVERAGE_ORIGINS,
  COVERAGE_STATUSES,
  type CoverageRowBooking,
  type DeadheadCoverageFacts,
  type LayoverCoverageFacts,
} from '@crew/contracts';
import { inWindow, instantOf, localDateOf, type DateWindow } from './time';
import {
  holdsReservation,
  type BookingStatus,
  type DeadheadRow,
  type FlightSegment,
  type HotelStay,
  type LayoverRow,
} from './types';

/**
 * Coverage: is every rostered layover held by a confirmed room, every DH leg by a ticketed
 * flight? The states, their reasons and the rule from one row's facts to its state live here; SQL only
 * gathers the rows (the roster's stay or leg and the booking that matches it).
 */
export const COVERAGE_STATES = COVERAGE_STATUSES;
export type CoverageState = (typeof COVERAGE_STATES)[number];

/**
 * Where a coverage row comes from: a stay or leg of the latest processed roster (ROSTERED), a live booking
 * the roster no longer holds (DROPPED: the roster dropped it and its cancellation awaits review, or
 * cancellation is off), or a stay the airline injected itself (INJECTED).
 */
export { COVERAGE_ORIGINS };
export type CoverageOrigin = (typeof COVERAGE_ORIGINS)[number];

export interface CoverageBooking {
  status: BookingStatus;
  /** The roster dropped it and its cancellation awaits review. */
  pending_cancel: boolean;
  review_reason: string | null;
}

export type CoverageFacts =
  | { type: 'HOTEL'; origin: CoverageOrigin; booking: (CoverageBooking & HotelStay) | null; roster: HotelStay | null }
  | {
      type: 'FLIGHT';
      origin: CoverageOrigin;
      booking: (CoverageBooking & FlightSegment) | null;
      roster: FlightSegment | null;
    };

export interface CoverageVerdict {
  status: CoverageState;
  /** Why a row is not COVERED (null when it is), in the spec's words. */
  reason: string | null;
}

const sameInstant = (a: string, b: string) => a === b || instantOf(a) === instantOf(b);

/** Whether the booking asks for exactly the roster's stay (instants compared: offsets may be written differently). */
export function stayMatches(booked: HotelStay, rostered: HotelStay): boolean {
  return (
    booked.station === rostered.station &&
    sameInstant(booked.checkin_time_local, rostered.checkin_time_local) &&
    sameInstant(booked.checkout_time_local, rostered.checkout_time_local)
  );
}

/** Whether the booking is for exactly the roster's leg: route, flight number (when the roster names one) and times. */
export function legMatches(booked: FlightSegment, rostered: FlightSegment): boolean {
  return (
    booked.from_airport === rostered.from_airport &&
    booked.to_airport === rostered.to_airport &&
    (rostered.flight_number === null ||
      booked.flight_number === null ||
      booked.flight_number === rostered.flight_number) &&
    sameInstant(booked.dep_time_local, rostered.dep_time_local) &&
    sameInstant(booked.arr_time_local, rostered.arr_time_local)
  );
}

/**
 * The state of one coverage row, or null when the row is not one to show (a cancelled booking the roster no
 * longer holds). COVERED: a CONFIRMED/MODIFIED booking holds exactly what the roster asks for. AT_RISK: a
 * booking exists but is PENDING, FAILED (awaiting retry), NEEDS_REVIEW, its cancellation awaits review, or
 * its stay no longer matches the roster (or is no longer rostered at all). UNCOVERED: no live booking.
 */
export function coverageOf(f: CoverageFacts): CoverageVerdict | null {
  const hotel = f.type === 'HOTEL';
  const what = hotel ? 'layover' : 'deadhead leg';
  const b = f.booking;
  if (!b || b.status === 'CANCELLED') {
    if (f.origin !== 'ROSTERED') return null;
    return {
      status: 'UNCOVERED',
      reason: b
        ? `its booking is CANCELLED but the ${what} is still in the roster`
        : hotel
          ? 'no live hotel booking for this layover'
          : 'no ticketed flight for this deadhead leg',
    };
  }
  if (f.origin === 'DROPPED') {
    return {
      status: 'AT_RISK',
      reason: b.pending_cancel
        ? `${hotel ? 'stay' : 'leg'} no longer rostered: its cancellation awaits review`
        : `${hotel ? 'stay' : 'leg'} no longer rostered: the booking is still ${b.status}`,
    };
  }
  if (b.pending_cancel) return { status: 'AT_RISK', reason: 'the booking’s cancellation awaits review' };
  switch (b.status) {
    case 'NEEDS_REVIEW':
      return { status: 'AT_RISK', reason: `the booking awaits review${b.review_reason ? `: ${b.review_reason}` : ''}` };
    case 'PENDING':
      return { status: 'AT_RISK', reason: 'the booking is PENDING with the supplier' };
    case 'FAILED':
      return { status: 'AT_RISK', reason: 'the booking FAILED and awaits retry' };
    default:
      break;
  }
  if (!holdsReservation(b.status)) return { status: 'AT_RISK', reason: `the booking is ${b.status}` };
  if (f.origin === 'ROSTERED' && f.roster) {
    const matches = f.type === 'HOTEL' ? stayMatches(f.booking!, f.roster) : legMatches(f.booking!, f.roster);
    if (!matches)
      return {
        status: 'AT_RISK',
        reason: hotel
          ? 'the booking’s stay no longer matches the roster'
          : 'the booked flight no longer matches the roster’s leg',
      };
  }
  return { status: 'COVERED', reason: null };
}

/** Counts per state, every state present. */
export function emptyCoverageCounts(): Record<CoverageState, number> {
  return { COVERED: 0, AT_RISK: 0, UNCOVERED: 0 };
}

export type { CoverageRowBooking, LayoverCoverageFacts, DeadheadCoverageFacts };

/** A coverage row with the engine's verdict. */
export type Classified<T> = T & CoverageVerdict;

const coverageBookingOf = (r: CoverageRowBooking): CoverageBooking | null =>
  r.booking_id && r.booking_status
    ? {
        status: r.booking_status as BookingStatus,
        pending_cancel: r.pending_cancel === true,
        review_reason: r.review_reason,
      }
    : null;

/** Each row with its verdict (coverageOf); rows the engine does not show are left out. The rows are extended in place. */
function classify<T extends CoverageRowBooking>(
  rows: T[],
  facts: (r: T, booking: CoverageBooking | null) => CoverageFacts,
): Classified<T>[] {
  const out: Classified<T>[] = [];
  for (const r of rows) {
    const v = coverageOf(facts(r, coverageBookingOf(r)));
    if (v) out.push(Object.assign(r, v));
  }
  return out;
}

/** The layovers of a window with their state. */
export function classifyLayovers<T extends LayoverCoverageFacts>(rows: T[]): Classified<T>[] {
  return classify(rows, (r, b) => ({
    type: 'HOTEL',
    origin: r.origin,
    booking: b && {
      ...b,
      station: r.b_station ?? '',
      checkin_time_local: r.b_checkin_time_local ?? '',
      checkout_time_local: r.b_checkout_time_local ?? '',
    },
    roster:
      r.origin === 'ROSTERED'
        ? { station: r.station, checkin_time_local: r.checkin_time_local, checkout_time_local: r.checkout_time_local }
        : null,
  }));
}

/** The DH legs of a window with their state. */
export function classifyDeadheads<T extends DeadheadCoverageFacts>(rows: T[]): Classified<T>[] {
  return classify(rows, (r, b) => ({
    type: 'FLIGHT',
    origin: r.origin,
    booking: b && {
      ...b,
      from_airport: r.b_from_airport ?? '',
      to_airport: r.b_to_airport ?? '',
      flight_number: r.b_flight_number,
      dep_time_local: r.b_dep_time_local ?? '',
      arr_time_local: r.b_arr_time_local ?? '',
    },
    roster:
      r.origin === 'ROSTERED'
        ? {
            from_airport: r.from_airport,
            to_airport: r.to_airport,
            flight_number: r.flight_number,
            dep_time_local: r.dep_time_local,
            arr_time_local: r.arr_time_local,
          }
        : null,
  }));
}

/**
 * The rostered rows a processed roster leaves for coverage (rostered_layovers / rostered_deadheads): its
 * layovers and DH legs dated inside the processed window, each with its roster date, as nextRosterState keeps
 * them; `flaggedKeys` (rows skipped as impossible data) keep their earlier rows.
 */
export function rosteredRowsIn(
  window: DateWindow,
  flat: { layovers: readonly LayoverRow[]; deadheads: readonly DeadheadRow[]; flaggedKeys: readonly string[] },
) {
  const layovers = [];
  for (const l of flat.layovers) {
    const date = localDateOf(l.checkin_time_local);
    if (!inWindow(date, window)) continue;
    layovers.push({
      roster_date: date,
      row_key: l.key,
      employee_id: l.employee_id,
      pairing_number: l.pairing_number,
      duty_period_num: l.duty_period_num,
      duty_date: l.duty_date,
      traveller_email: l.traveller_email.toLowerCase(),
      station: l.station,
      checkin_time_local: l.checkin_time_local,
      checkout_time_local: l.checkout_time_local,
      checkin_at: l.checkin_time_local,
    });
  }
  const deadheads = [];
  for (const d of flat.deadheads) {
    if (!inWindow(d.duty_date, window)) continue;
    deadheads.push({
      roster_date: d.duty_date,
      row_key: d.key,
      employee_id: d.employee_id,
      pairing_number: d.pairing_number,
      duty_period_num: d.duty_period_num,
      leg_sequence: d.leg_sequence,
      traveller_email: d.traveller_email.toLowerCase(),
      from_airport: d.from_airport,
      to_airport: d.to_airport,
      flight_number: d.flight_number,
      dep_time_local: d.dep_time_local,
      arr_time_local: d.arr_time_local,
      dep_at: d.dep_time_local,
    });
  }
  return { layovers, deadheads, flaggedKeys: [...flat.flaggedKeys] };
}

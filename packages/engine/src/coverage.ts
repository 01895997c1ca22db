import { instantOf } from './time';
import type { BookingStatus, FlightSegment, HotelStay } from './types';

/**
 * Coverage (issue 14): is every rostered layover held by a confirmed room, every DH leg by a ticketed
 * flight? The states, their reasons and the rule from one row's facts to its state live here; SQL only
 * gathers the rows (the roster's stay or leg and the booking that matches it).
 */
export const COVERAGE_STATES = ['COVERED', 'AT_RISK', 'UNCOVERED'] as const;
export type CoverageState = (typeof COVERAGE_STATES)[number];

/**
 * Where a coverage row comes from: a stay or leg of the latest processed roster (ROSTERED), a live booking
 * the roster no longer holds (DROPPED: the roster dropped it and its cancellation awaits review, or
 * cancellation is off), or a stay the airline injected itself (INJECTED).
 */
export const COVERAGE_ORIGINS = ['ROSTERED', 'DROPPED', 'INJECTED'] as const;
export type CoverageOrigin = (typeof COVERAGE_ORIGINS)[number];

export interface CoverageBooking {
  status: BookingStatus;
  /** The roster dropped it and its cancellation awaits review. */
  pending_cancel: boolean;
  review_reason: string | null;
}

export type CoverageFacts =
  | { type: 'HOTEL'; origin: CoverageOrigin; booking: (CoverageBooking & HotelStay) | null; roster: HotelStay | null }
  | { type: 'FLIGHT'; origin: CoverageOrigin; booking: (CoverageBooking & FlightSegment) | null; roster: FlightSegment | null };

export interface CoverageVerdict {
  status: CoverageState;
  /** Why a row is not COVERED (null when it is), in the spec's words. */
  reason: string | null;
}

/** Statuses that hold a reservation (a room, a ticket). */
const HELD: readonly BookingStatus[] = ['CONFIRMED', 'MODIFIED'];

const sameInstant = (a: string, b: string) => a === b || instantOf(a) === instantOf(b);

/** Whether the booking asks for exactly the roster's stay (instants compared: offsets may be written differently). */
export function stayMatches(booked: HotelStay, rostered: HotelStay): boolean {
  return booked.station === rostered.station && sameInstant(booked.checkin_time_local, rostered.checkin_time_local) && sameInstant(booked.checkout_time_local, rostered.checkout_time_local);
}

/** Whether the booking is for exactly the roster's leg: route, flight number (when the roster names one) and times. */
export function legMatches(booked: FlightSegment, rostered: FlightSegment): boolean {
  return (
    booked.from_airport === rostered.from_airport &&
    booked.to_airport === rostered.to_airport &&
    (rostered.flight_number === null || booked.flight_number === null || booked.flight_number === rostered.flight_number) &&
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
    return { status: 'UNCOVERED', reason: b ? `its booking is CANCELLED but the ${what} is still in the roster` : hotel ? 'no live hotel booking for this layover' : 'no ticketed flight for this deadhead leg' };
  }
  if (f.origin === 'DROPPED') {
    return { status: 'AT_RISK', reason: b.pending_cancel ? `${hotel ? 'stay' : 'leg'} no longer rostered: its cancellation awaits review` : `${hotel ? 'stay' : 'leg'} no longer rostered: the booking is still ${b.status}` };
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
  if (!HELD.includes(b.status)) return { status: 'AT_RISK', reason: `the booking is ${b.status}` };
  if (f.origin === 'ROSTERED' && f.roster) {
    const matches = f.type === 'HOTEL' ? stayMatches(f.booking!, f.roster) : legMatches(f.booking!, f.roster);
    if (!matches) return { status: 'AT_RISK', reason: hotel ? 'the booking’s stay no longer matches the roster' : 'the booked flight no longer matches the roster’s leg' };
  }
  return { status: 'COVERED', reason: null };
}

/** Counts per state, every state present. */
export function emptyCoverageCounts(): Record<CoverageState, number> {
  return { COVERED: 0, AT_RISK: 0, UNCOVERED: 0 };
}

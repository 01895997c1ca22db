import type { Disposition, ValidationIssue } from '@crew/contracts';
import type { HotelTerms } from './hotel-config';
import type { LegWindow } from './flight-options';
import { stayNights } from './policy';
import { addDays, instantOf, isoInstant, MS_PER_HOUR } from './time';
import { holdsReservation, type BookingStatus } from './types';

/*
 * The rules of one booking task (the worker's supplier call) and of an airline's booking request,
 * kept here so that the services only carry them out: which dates a room is sold for, which flights
 * may carry a deadhead, which disposition a task's end gives its action
 * item, when a failed task is tried again, and how an injected stay is timed.
 */

/** A deadhead option may leave up to this much before the leg's departure and arrive this much after. */
export const DEADHEAD_SLACK_MS = 3 * MS_PER_HOUR;

/**
 * The flights that may carry a deadhead: the airline's own constraints where it gave them (a
 * request's depart_after / arrive_by), else the leg's times widened by DEADHEAD_SLACK_MS.
 */
export function deadheadWindow(
  leg: { dep_time_local: string | null; arr_time_local: string | null },
  constraints?: Partial<LegWindow> | null,
): LegWindow {
  const shifted = (ts: string | null, ms: number) => (ts ? isoInstant(instantOf(ts) + ms) : null);
  return {
    depart_after: constraints?.depart_after ?? shifted(leg.dep_time_local, -DEADHEAD_SLACK_MS),
    arrive_by: constraints?.arrive_by ?? shifted(leg.arr_time_local, DEADHEAD_SLACK_MS),
  };
}

/** The room's dates at the supplier: check-in date to the day after the last night; a day room is sold as one night. */
export function roomDates(checkin: string, checkout: string): { check_in_date: string; check_out_date: string } {
  const nights = stayNights(checkin, checkout);
  return { check_in_date: nights[0]!, check_out_date: addDays(nights[nights.length - 1]!, 1) };
}

/** How a booking task can end. */
export type TaskStatus = Extract<BookingStatus, 'CONFIRMED' | 'MODIFIED' | 'CANCELLED' | 'NEEDS_REVIEW' | 'FAILED'>;

/** The action item's disposition when its booking task ends so (spec 2.3). */
export const DISPOSITION_OF_TASK: Readonly<Record<TaskStatus, Disposition>> = {
  CONFIRMED: 'AUTO_BOOKED',
  MODIFIED: 'AUTO_BOOKED',
  CANCELLED: 'AUTO_CANCELLED',
  NEEDS_REVIEW: 'PENDING_REVIEW',
  FAILED: 'FAILED',
};

/**
 * When a FAILED task is tried again by itself: while fewer than `maxRetries` retries were made, after
 * the delay for this retry (the last delay repeats). Null: it stays FAILED until a person retries it.
 */
export function nextAutomaticRetry(
  retriesMade: number,
  maxRetries: number,
  delaysSeconds: readonly number[],
  failedAtMs: number,
): { delayMs: number; at: Date } | null {
  if (retriesMade >= maxRetries || delaysSeconds.length === 0) return null;
  const delayMs = delaysSeconds[Math.min(retriesMade, delaysSeconds.length - 1)]! * 1000;
  return { delayMs, at: new Date(failedAtMs + delayMs) };
}

/** Classifications with which an airline asks to let a booking go rather than make one. */
export const CANCELLING_CLASSIFICATIONS: ReadonlySet<string> = new Set([
  'IROP_HOTEL_CANCEL',
  'LAYOVER_CANCELLED',
  'DEADHEAD_CANCELLED',
  'PAIRING_CANCELLED',
]);

/** Default times of a stay whose hotel has none on file (an injected stay, a PATCH of a booking without times). */
export const DEFAULT_CHECK_IN = '15:00';
export const DEFAULT_CHECK_OUT = '11:00';

/**
 * num_nights of a hotel block (spec 2.7) counts the nights from the check-in date: alone it gives the check-out
 * date; beside a check-out date it must agree with it, and it is never below 1. The issue (on /hotel/num_nights), or
 * null. One rule for a PATCH, a booking request and an injection.
 */
export function numNightsIssue(
  checkInDate: string,
  checkOutDate: string | null | undefined,
  numNights: number | null | undefined,
): ValidationIssue | null {
  if (numNights === undefined || numNights === null) return null;
  if (numNights < 1) return { field: '/hotel/num_nights', issue: 'must be at least 1' };
  if (!checkOutDate || addDays(checkInDate, numNights) === checkOutDate) return null;
  return {
    field: '/hotel/num_nights',
    issue: `disagrees with the dates: ${checkInDate} to ${checkOutDate} is not ${numNights} night(s)`,
  };
}

/**
 * The stay an airline's hotel request asks for. A request carries dates only, so the times come from
 * the station hotel's policy: its guaranteed early check-in / late check-out where it has them, else
 * its standard times, else 15:00 / 11:00.
 */
export function injectedStay(
  request: { check_in_date: string; check_out_date?: string | null; num_nights?: number | null },
  terms: HotelTerms | undefined,
): { checkin: string; checkout: string } {
  const out = request.check_out_date ?? addDays(request.check_in_date, request.num_nights ?? 1);
  const inTime = terms?.guaranteed_early_check_in_time ?? terms?.standard_check_in_time ?? DEFAULT_CHECK_IN;
  const outTime = terms?.guaranteed_late_check_out_time ?? terms?.standard_check_out_time ?? DEFAULT_CHECK_OUT;
  return { checkin: `${request.check_in_date}T${inTime}:00+00:00`, checkout: `${out}T${outTime}:00+00:00` };
}

/**
 * The earliest travel date still worth searching: the calendar date at UTC-12, the last place on Earth to
 * leave a day behind. A date before it is past at every origin, so a search for it is refused; a date that
 * is still today at some origin is not.
 */
export function earliestTravelDate(nowMs: number): string {
  return isoInstant(nowMs - 12 * MS_PER_HOUR).slice(0, 10);
}

/** A live booking the airline asked for itself (request or injection), not yet tied to a roster row. */
export interface RequestedBooking {
  booking_id: string;
  type: 'HOTEL' | 'FLIGHT';
  status: BookingStatus;
  traveller_email: string;
  pairing_number: string | null;
  /** HOTEL: the check-in date; FLIGHT: the departure date. */
  date: string;
}

/**
 * The airline's own live booking that already covers a roster's new layover or deadhead (same type,
 * traveller and date, and the same pairing where the request named one): the diff adopts it instead of
 * booking a second room or ticket (spec 4.4 rule 4 applied to the diff path).
 */
export function coveringRequestedBooking(
  item: {
    type: 'HOTEL' | 'FLIGHT';
    subtype: string;
    anchors: { pairing_number: string };
    details: { traveller_email?: string | null; checkin_time_local?: string; dep_time_local?: string };
  },
  requested: ReadonlyMap<string, readonly RequestedBooking[]>,
): RequestedBooking | null {
  if (item.subtype !== 'NEW_BOOKING' || !item.details.traveller_email) return null;
  const when = item.type === 'HOTEL' ? item.details.checkin_time_local : item.details.dep_time_local;
  if (!when) return null;
  const found = requested.get(requestedBookingKey(item.type, item.details.traveller_email, when.slice(0, 10))) ?? [];
  return found.find((b) => b.pairing_number === null || b.pairing_number === item.anchors.pairing_number) ?? null;
}

export function requestedBookingKey(type: 'HOTEL' | 'FLIGHT', travellerEmail: string, date: string): string {
  return [type, travellerEmail.toLowerCase(), date].join('|');
}

/** An adopted booking in flight or held counts as booked; one awaiting a person keeps the item in review. */
export function dispositionOfCovered(status: BookingStatus): 'AUTO_BOOKED' | 'PENDING_REVIEW' {
  return status === 'PENDING' || holdsReservation(status) ? 'AUTO_BOOKED' : 'PENDING_REVIEW';
}

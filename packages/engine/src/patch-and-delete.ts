import type { BookingStatus } from '@crew/contracts';
import { DEFAULT_CHECK_IN, DEFAULT_CHECK_OUT, numNightsIssue } from './booking-tasks';
import { contractedRate, type StationHotel } from './policy';
import { addDays, localDateOf } from './time';
import { holdsReservation } from './types';

/* The booking lifecycle of a PATCH or DELETE by the airline: what it may change, and how. */

// ---- PATCH and DELETE (spec 3.2, 4.4) ----

/** Replaces the date of a local timestamp, keeping its time and offset (or the default time, at UTC). */
function onDate(ts: string | null, date: string, fallback: string): string {
  return ts ? `${date}${ts.slice(10)}` : `${date}T${fallback}:00+00:00`;
}

/** A DIRECT hotel's stay on a rooming list still waiting for the hotel's answer: its task is done, it stays PENDING. */
export function awaitsHotelAnswer(hotel: unknown): boolean {
  return ['QUEUED', 'SENT'].includes(String((hotel as { rooming_status?: string } | null)?.rooming_status));
}

/**
 * A crew seat requested from the airline's own system, which answered 202: the request waits for the airline's
 * callback (which may take any time), no call is running. A cancellation of it waits for that answer too.
 */
export function awaitsOwnSeatAnswer(flight: unknown): boolean {
  const f = flight as { supplier?: string; supplier_status?: string; pnr?: string; request_reference?: string } | null;
  return f?.supplier === 'OWN_AIRLINE' && f.supplier_status === 'REQUESTED' && !f.pnr && Boolean(f.request_reference);
}

/**
 * A crew seat requested from the airline's own system whose answer never came (a timeout, a 5xx, an unreadable
 * answer): the airline may have ticketed it. Asked again under the same reference, it answers with what it did
 * (docs/own-airline.md), so a retry or a cancellation learns the seat from that answer.
 */
export function ownSeatOutcomeUnknown(flight: unknown): boolean {
  const f = flight as { supplier?: string; supplier_status?: string; pnr?: string; request_reference?: string } | null;
  return f?.supplier === 'OWN_AIRLINE' && !f.supplier_status && !f.pnr && Boolean(f.request_reference);
}

/**
 * A supplier task is in flight: another must wait for it to end. A booking only waiting for someone's answer (a
 * DIRECT hotel's rooming list, the airline's own system's callback) is not: nobody waits hours for it, and a
 * change may follow it.
 */
export function taskInFlight(b: { status: BookingStatus; hotel: unknown; flight?: unknown }): boolean {
  return b.status === 'PENDING' && !awaitsHotelAnswer(b.hotel) && !awaitsOwnSeatAnswer(b.flight);
}

/** The block of a PATCH must match the booking's type: the field at fault (the block that does not), or null. */
export function patchBlockIssue(
  type: 'HOTEL' | 'FLIGHT',
  body: { hotel?: unknown; flight?: unknown },
): { field: string; issue: string } | null {
  if (body.hotel && type !== 'HOTEL') return { field: '/hotel', issue: `does not match a ${type} booking` };
  if (body.flight && type !== 'FLIGHT') return { field: '/flight', issue: `does not match a ${type} booking` };
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
  hotel?: { check_in_date?: string; check_out_date?: string; num_nights?: number; property_id?: string };
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
    // num_nights (spec 2.7's hotel block) counts from the check-in: alone it sets the check-out date; beside a
    // check-out date it must agree with it (numNightsIssue).
    const nights = numNightsIssue(localDateOf(checkin), h.check_out_date, h.num_nights);
    if (nights) return { kind: 'INVALID', ...nights };
    const nightsOut = h.num_nights !== undefined ? addDays(localDateOf(checkin), h.num_nights) : undefined;
    const checkout = onDate(
      b.checkout_time_local,
      h.check_out_date ?? nightsOut ?? localDateOf(b.checkout_time_local!),
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

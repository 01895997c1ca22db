import { deadheadWindow } from './booking-tasks';
import { instantOf } from './time';
import { holdsReservation, type BookingStatus } from './types';

/*
 * An airline changed a ticketed deadhead on its own (a retime, a new flight number, a reroute): whether the
 * change may be taken as it is, or a person must look. Pure: the worker fetches the change and carries out
 * the answer (accept it at the supplier and update the flight block, or send the booking to review).
 */

/** One flight of the itinerary before or after the change, as the adapter maps it (offset timestamps). */
export interface ChangedFlight {
  airline_code: string;
  flight_number: string;
  from_airport: string;
  to_airport: string;
  dep_time: string;
  arr_time: string;
}

export interface AirlineChangeFacts {
  id: string;
  /** The flights the change adds (the new itinerary of the order's slice). */
  added: readonly ChangedFlight[];
  /** What the supplier allows on the change (Duffel: `accept`, `cancel`, `change`, `update`). */
  available_actions: readonly string[];
  /** Non-null once someone (us, a person at the supplier) acted on the change. */
  action_taken: string | null;
}

/** The booking the change touches: the leg it was made for and the airline's own window, if it gave one. */
export interface ChangedBookingFacts {
  status: BookingStatus;
  from_airport: string | null;
  to_airport: string | null;
  dep_time_local: string | null;
  arr_time_local: string | null;
  flight: {
    constraints?: { depart_after?: string | null; arrive_by?: string | null } | null;
    airline_change_id?: string | null;
  } | null;
}

export const ACCEPT_CHANGE = 'ACCEPT_CHANGE';

export type AirlineChangeDecision =
  /** Take the change at the supplier; the booked flight becomes `flight`, the booking keeps its status. */
  | { kind: 'ACCEPT'; flight: ChangedFlight }
  /** A person decides: the change stays open at the supplier, its id on the booking. */
  | { kind: 'REVIEW'; reason: string; recommended_action: typeof ACCEPT_CHANGE | 'BOOK_MANUALLY' }
  /** Nothing to do (already acted on, or the booking no longer holds a ticket). */
  | { kind: 'IGNORE'; reason: string };

const at = (ts: string) => instantOf(ts);

/**
 * A change that still brings the crew member to the duty on time is taken: same origin and destination as
 * the leg, departing no earlier and arriving no later than the window the booking was made for (the
 * airline's depart_after / arrive_by, else the leg widened by the deadhead slack), and the supplier lets us
 * accept it. Anything else waits for a person, who either accepts it anyway or books another flight.
 */
export function decideAirlineChange(booking: ChangedBookingFacts, change: AirlineChangeFacts): AirlineChangeDecision {
  if (change.action_taken !== null) return { kind: 'IGNORE', reason: `the change was already ${change.action_taken}` };
  if (!holdsReservation(booking.status)) {
    // A booking under review already waits for a person; a cancelled or pending one holds no ticket we keep.
    return { kind: 'IGNORE', reason: `the booking is ${booking.status}` };
  }
  const first = change.added[0];
  const last = change.added[change.added.length - 1];
  if (!first || !last) return review('the airline removed the flight without a replacement', 'BOOK_MANUALLY');
  const window = deadheadWindow(booking, booking.flight?.constraints ?? null);
  const route = `${first.from_airport}-${last.to_airport}`;
  if (
    booking.from_airport &&
    booking.to_airport &&
    (first.from_airport !== booking.from_airport || last.to_airport !== booking.to_airport)
  ) {
    return review(
      `the airline moved the flight to ${route}; the leg is ${booking.from_airport}-${booking.to_airport}`,
      'BOOK_MANUALLY',
    );
  }
  if (window.arrive_by && at(last.arr_time) > at(window.arrive_by)) {
    return review(
      `the airline's change arrives ${last.arr_time}, after the latest arrival for the duty (${window.arrive_by})`,
      'BOOK_MANUALLY',
    );
  }
  if (window.depart_after && at(first.dep_time) < at(window.depart_after)) {
    return review(
      `the airline's change departs ${first.dep_time}, before the earliest departure for the leg (${window.depart_after})`,
      'BOOK_MANUALLY',
    );
  }
  // On time, but our flight block holds one flight: a connection is a person's call.
  if (change.added.length > 1)
    return review(
      `the airline's change adds a connection (${change.added.map((f) => f.flight_number).join(', ')}) though it arrives on time`,
      ACCEPT_CHANGE,
    );
  if (!change.available_actions.includes('accept'))
    return review('the change arrives on time but the supplier does not let us accept it', ACCEPT_CHANGE);
  return { kind: 'ACCEPT', flight: first };
}

function review(reason: string, recommended_action: typeof ACCEPT_CHANGE | 'BOOK_MANUALLY'): AirlineChangeDecision {
  return { kind: 'REVIEW', reason, recommended_action };
}

/** The flight block after an accepted change: the new flight, no open change. */
export function acceptedFlightBlock<T extends object>(
  block: T | null,
  flight: ChangedFlight,
): T & ChangedFlight & { airline_change_id: null } {
  return { ...((block ?? {}) as T), ...flight, airline_change_id: null };
}

/**
 * The flight a person takes when they accept an airline's change from the review queue: the change's one
 * flight, or for a change that adds a connection, the journey as the flight block holds one flight (the first
 * flight's carrier and number, from the first origin at its departure to the last destination at its arrival).
 * Null when the change adds no flight (the airline removed it: nothing to accept; book another flight).
 */
export function acceptedChangeFlight(added: readonly ChangedFlight[]): ChangedFlight | null {
  const first = added[0];
  const last = added[added.length - 1];
  if (!first || !last) return null;
  return { ...first, to_airport: last.to_airport, arr_time: last.arr_time };
}

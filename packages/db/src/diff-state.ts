import * as bookingRepo from './bookings/booking.repository';
import type { DbOrTrx } from './database';
import { bookingsInWindow, type WindowBooking } from './schedules/diff-write.repository';
import { loadBookingFacts } from './config/airline-policy.repository';
import { type StoredRosterStateRow } from './schedules/roster-state.repository';
import { gunzipText } from './compressed';

export type { WindowBooking };

/**
 * What a roster is diffed against, as stored and read-only: the airline's previous roster state (decoded
 * JSON, of the type its writer stored: the engine's RosterState), its bookings dated inside the window,
 * and what the booking policy is made of (loadBookingFacts). Plain rows: the caller turns them into the diff's input (engine
 * diffStateOf). The worker's diff and the dry-run preview (POST /crew/schedules/preview) both load it
 * here, so they cannot drift.
 */
export interface DiffStateRows<State> {
  previous: State | null;
  hotelRows: WindowBooking[];
  flightRows: WindowBooking[];
  /** The caller assembles the booking context from these (engine bookingContextOf). */
  facts: Awaited<ReturnType<typeof loadBookingFacts>>;
}

/**
 * `lap` names the phases for the caller's timing log (the worker's "schedule processed"). With `pairings`,
 * only their bookings are read (a diff of the pairings that changed, engine changedPairings). `previous`: the
 * previous state, on its way (decodeRosterState with the engine's reader of its stored forms; the worker reads it
 * while it decompresses the roster).
 */
export async function loadDiffState<State>(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  lap: (phase: string) => void,
  pairings: readonly string[] | undefined,
  previous: Promise<State | null>,
): Promise<DiffStateRows<State>> {
  // Queued on the connection behind the state: Postgres reads the bookings while this process decodes the state.
  const rest = Promise.all([
    bookingsInWindow(db, airlineId, 'HOTEL', window.start, window.end, pairings),
    bookingsInWindow(db, airlineId, 'FLIGHT', window.start, window.end, pairings),
    loadBookingFacts(db, airlineId),
  ]);
  rest.catch(() => undefined);
  const state = await previous;
  lap('load_decode_state');
  const [hotelRows, flightRows, facts] = await rest;
  lap('load_bookings_context');
  return { previous: state, hotelRows, flightRows, facts };
}

/** A stored roster state (loadRosterState) decompressed (on libuv's pool): its JSON text, or null when there is none. */
export async function rosterStateText(
  row: Promise<StoredRosterStateRow | undefined> | StoredRosterStateRow | undefined,
): Promise<string | null> {
  const stored = await row;
  return stored ? gunzipText(stored.state_gzip) : null;
}

/** A stored roster state (loadRosterState, or its text from rosterStateText) decoded: the JSON its writer stored, or null when there is none. */
export async function decodeRosterState<State>(
  row: Promise<StoredRosterStateRow | undefined> | StoredRosterStateRow | undefined | Promise<string | null>,
  parse: (text: string) => State = (text) => JSON.parse(text) as State,
): Promise<State | null> {
  const stored = await row;
  const text = typeof stored === 'string' || stored === null ? stored : await rosterStateText(stored);
  return text === null ? null : parse(text);
}

/** The airline's own requested live bookings dated inside the window (± a day): what the diff may adopt (engine requestedBookingsByKey). */
export function loadRequestedBookings(db: DbOrTrx, airlineId: string, window: { start: string; end: string }) {
  return bookingRepo.requestedLiveBookings(db, airlineId, window.start, window.end);
}

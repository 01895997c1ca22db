import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { diffRoster, requestedBookingKey, type BookingStatus, type DateWindow, type DiffResult, type FlatRoster, type FlightBookingActual, type HotelBookingActual, type RequestedBooking, type RosterState } from '@crew/engine';
import * as bookingRepo from './booking.repository';
import type { DbOrTrx } from './database';
import * as pipelineRepo from './pipeline.repository';
import { loadBookingContext, type AirlineBookingContext } from './policy-context';

const gunzipAsync = promisify(gunzip);

/**
 * What a roster is diffed against, read-only: the airline's previous roster state, its bookings dated inside
 * the window (as the diff sees them), their statuses and retry counts, and the booking policy's context. The
 * worker's diff and the dry-run preview (POST /crew/schedules/preview) both load it here, so they cannot drift.
 */
export interface DiffState {
  previous: RosterState | null;
  hotelBookings: HotelBookingActual[];
  flightBookings: FlightBookingActual[];
  statusById: Map<string, BookingStatus>;
  retryCounts: Map<string, number>;
  ctx: AirlineBookingContext;
}

type WindowBooking = Awaited<ReturnType<typeof pipelineRepo.bookingsInWindow>>[number];

/** A booking's status as the diff sees it. One whose cancellation awaits review counts as cancelled: the roster neither re-cancels nor re-creates it. */
function statusOf(b: WindowBooking): BookingStatus {
  return b.pending_cancel ? 'CANCELLED' : b.status;
}

/** `lap` names the phases for the caller's timing log (the worker's "schedule processed"). */
export async function loadDiffState(db: DbOrTrx, airlineId: string, window: DateWindow, processedAt: string, lap: (phase: string) => void = () => undefined): Promise<DiffState> {
  const [stateRow, hotelRows, flightRows, ctx] = await Promise.all([
    pipelineRepo.loadRosterState(db, airlineId),
    pipelineRepo.bookingsInWindow(db, airlineId, 'HOTEL', window.start, window.end),
    pipelineRepo.bookingsInWindow(db, airlineId, 'FLIGHT', window.start, window.end),
    loadBookingContext(db, airlineId, processedAt),
  ]);
  lap('load_state_bookings_context');
  const previous = stateRow ? (JSON.parse((await gunzipAsync(stateRow.state_gzip)).toString('utf8')) as RosterState) : null;
  lap('decode_state');
  // Object literals, not a spread of actualOf: a big airline has hundreds of thousands (issue 12).
  const hotelBookings: HotelBookingActual[] = hotelRows.map((b) => ({
    booking_id: b.booking_id,
    status: statusOf(b),
    manual_override: b.manual_override,
    traveller_email: b.traveller_email,
    employee_id: b.employee_id,
    pairing_number: b.pairing_number,
    duty_period_num: b.duty_period_num,
    duty_date: b.duty_date,
    station: b.station ?? '',
    checkin_time_local: b.checkin_time_local ?? '',
    checkout_time_local: b.checkout_time_local ?? '',
  }));
  const flightBookings: FlightBookingActual[] = flightRows.map((b) => ({
    booking_id: b.booking_id,
    status: statusOf(b),
    manual_override: b.manual_override,
    traveller_email: b.traveller_email,
    employee_id: b.employee_id,
    pairing_number: b.pairing_number,
    duty_date: b.duty_date,
    leg_sequence: b.leg_sequence,
    from_airport: b.from_airport ?? '',
    to_airport: b.to_airport ?? '',
    flight_number: b.flight_number,
    dep_time_local: b.dep_time_local ?? '',
    arr_time_local: b.arr_time_local ?? '',
  }));
  const statusById = new Map<string, BookingStatus>();
  const retryCounts = new Map<string, number>();
  for (const rows of [hotelRows, flightRows]) {
    for (const b of rows) {
      statusById.set(b.booking_id, b.status);
      retryCounts.set(b.booking_id, b.retry_count);
    }
  }
  lap('map_bookings');
  return { previous, hotelBookings, flightBookings, statusById, retryCounts, ctx };
}

/** The diff of a flattened roster against the state (pure). */
export function diffAgainst(flat: FlatRoster, state: DiffState, window: DateWindow, processedAt: string): DiffResult {
  return diffRoster({
    current: flat,
    previous: state.previous,
    hotelBookings: state.hotelBookings,
    flightBookings: state.flightBookings,
    window,
    settings: { emit_unchanged: state.ctx.emitUnchanged, cancellation_lookback_days: state.ctx.policy.cancellation_lookback_days },
    processedAt,
  });
}

/** The airline's own requested live bookings dated inside the window, by requestedBookingKey (what the diff may adopt). */
export async function loadRequestedBookings(db: DbOrTrx, airlineId: string, window: DateWindow): Promise<Map<string, RequestedBooking[]>> {
  const requested = new Map<string, RequestedBooking[]>();
  for (const b of await bookingRepo.requestedLiveBookings(db, airlineId, window.start, window.end)) {
    const key = requestedBookingKey(b.type, b.traveller_email!, b.duty_date!);
    requested.set(key, [...(requested.get(key) ?? []), { ...b, traveller_email: b.traveller_email!, date: b.duty_date!, status: b.status }]);
  }
  return requested;
}

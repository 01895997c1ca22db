import { requestedBookingKey, type RequestedBooking } from './booking-tasks';
import { diffRoster } from './diff';
import type { DateWindow } from './time';
import { rosterStateOfStored, type StoredState } from './state-lines';
import type {
  BookingStatus,
  DiffInput,
  DiffResult,
  FlatRoster,
  FlightBookingActual,
  HotelBookingActual,
  RosterState,
} from './types';

/** A booking dated inside the processed window, as stored: the columns the diff and the plan read. */
export interface WindowBookingRow {
  booking_id: string;
  status: string;
  manual_override: boolean;
  pending_cancel: boolean;
  retry_count: number;
  traveller_email: string | null;
  employee_id: string | null;
  pairing_number: string | null;
  duty_date: string | null;
  duty_period_num: number | null;
  leg_sequence: number | null;
  flight_number: string | null;
  station: string | null;
  checkin_time_local: string | null;
  checkout_time_local: string | null;
  from_airport: string | null;
  to_airport: string | null;
  dep_time_local: string | null;
  arr_time_local: string | null;
}

/**
 * What a roster is diffed against: the airline's previous roster state and its bookings dated inside the
 * window as the diff sees them, with their stored statuses and retry counts (for the plan). The worker's
 * diff and the dry-run preview both build it here from the rows the db package reads, so they cannot drift.
 */
export interface DiffState {
  previous: RosterState | null;
  hotelBookings: HotelBookingActual[];
  flightBookings: FlightBookingActual[];
  statusById: Map<string, BookingStatus>;
  retryCounts: Map<string, number>;
}

/** A booking's status as the diff sees it. One whose cancellation awaits review counts as cancelled: the roster neither re-cancels nor re-creates it. */
function statusOf(b: WindowBookingRow): BookingStatus {
  return (b.pending_cancel ? 'CANCELLED' : b.status) as BookingStatus;
}

/**
 * The state with the bookings whose held cancellation the roster has just withdrawn (engine returnedHolds) seen
 * live again, with their stored status: the diff reconciles their layover as any live booking's (an amendment
 * when the stay changed), where pending_cancel had made them look cancelled.
 */
export function withKeptHolds(state: DiffState, kept: ReadonlySet<string>): DiffState {
  if (kept.size === 0) return state;
  return {
    ...state,
    hotelBookings: state.hotelBookings.map((b) =>
      kept.has(b.booking_id) ? { ...b, status: state.statusById.get(b.booking_id) ?? b.status } : b,
    ),
  };
}

/** `previous` as stored (either form, storedRosterState). */
export function diffStateOf(
  stored: StoredState | null,
  hotelRows: readonly WindowBookingRow[],
  flightRows: readonly WindowBookingRow[],
): DiffState {
  // Object literals, not a spread per row: a big airline has hundreds of thousands.
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
      statusById.set(b.booking_id, b.status as BookingStatus);
      retryCounts.set(b.booking_id, b.retry_count);
    }
  }
  return { previous: stored && rosterStateOfStored(stored), hotelBookings, flightBookings, statusById, retryCounts };
}

/** The diff of a flattened roster against the state, with the airline's diff settings. */
export function diffAgainst(...args: Parameters<typeof diffInputOf>): DiffResult {
  return diffRoster(diffInputOf(...args));
}

/** The input of the diff of a flattened roster against the state, with the airline's diff settings (diffRoster, diffRosterInParts). */
export function diffInputOf(
  flat: FlatRoster,
  state: DiffState,
  ctx: { emitUnchanged: boolean; policy: { cancellation_lookback_days: number } },
  window: DateWindow,
  processedAt: string,
  changedPairings?: ReadonlySet<string>,
): DiffInput {
  return {
    changedPairings,
    current: flat,
    previous: state.previous,
    hotelBookings: state.hotelBookings,
    flightBookings: state.flightBookings,
    window,
    settings: { emit_unchanged: ctx.emitUnchanged, cancellation_lookback_days: ctx.policy.cancellation_lookback_days },
    processedAt,
  };
}

/** The airline's own requested live bookings (db bookingRepo.requestedLiveBookings), by requestedBookingKey: what the diff may adopt. */
export function requestedBookingsByKey(
  rows: readonly {
    booking_id: string;
    type: 'HOTEL' | 'FLIGHT';
    status: string;
    traveller_email: string | null;
    pairing_number: string | null;
    duty_date: string | null;
  }[],
): Map<string, RequestedBooking[]> {
  const requested = new Map<string, RequestedBooking[]>();
  for (const b of rows) {
    const key = requestedBookingKey(b.type, b.traveller_email!, b.duty_date!);
    requested.set(key, [
      ...(requested.get(key) ?? []),
      {
        booking_id: b.booking_id,
        type: b.type,
        pairing_number: b.pairing_number,
        traveller_email: b.traveller_email!,
        date: b.duty_date!,
        status: b.status as BookingStatus,
      },
    ]);
  }
  return requested;
}

/** Small hand-built rosters and bookings for the engine tests. */
import type { CrewMember, DutyPeriod, Layover, Leg, Pairing, ScheduleSubmission } from '@crew/contracts';
import {
  diffRoster,
  flattenRoster,
  rosterState,
  type DerivedActionItem,
  type DiffResult,
  type DiffSettings,
  type FlightItemDetails,
  type HotelItemDetails,
  type FlatRoster,
  type FlightBookingActual,
  type HotelBookingActual,
  type RosterState,
  type DateWindow,
} from '../src';

export const WINDOW: DateWindow = { start: '2026-12-01', end: '2026-12-31' };
/** Far enough before the window that every event in it is P4. */
export const PROCESSED_AT = '2026-11-01T00:00:00Z';
export const SETTINGS: DiffSettings = { emit_unchanged: false, cancellation_lookback_days: 0 };

/** `2026-12-10T08:00:00-05:00` */
export const ts = (date: string, hhmm: string, offset = '+00:00') => `${date}T${hhmm}:00${offset}`;

export function crew(employeeId: string, over: Partial<CrewMember> = {}): CrewMember {
  return {
    employee_id: employeeId,
    name: `Crew ${employeeId}`,
    rank: 'FA',
    home_base: 'LHR',
    traveller_email: `${employeeId.toLowerCase()}@crew.example.com`,
    ...over,
  };
}

export function leg(
  seq: number,
  activity: Leg['activity_code'],
  from: string,
  to: string,
  dep: string,
  arr: string,
  over: Partial<Leg> = {},
): Leg {
  return {
    leg_sequence: seq,
    activity_code: activity,
    flight_number: `XY${100 + seq}`,
    from_airport: from,
    to_airport: to,
    dep_time_local: dep,
    arr_time_local: arr,
    ...over,
  };
}

export function layover(station: string, checkin: string, checkout: string, bookingRequired = true): Layover {
  return { station, booking_required: bookingRequired, checkin_time_local: checkin, checkout_time_local: checkout };
}

export function duty(num: number, date: string, legs: Leg[], lay?: Layover): DutyPeriod {
  return {
    duty_period_num: num,
    duty_date: date,
    fdp_start_local: ts(date, '06:00'),
    fdp_end_local: ts(date, '20:00'),
    legs,
    ...(lay ? { layover: lay } : {}),
  };
}

export function pairing(pairingNumber: string, members: CrewMember[], duties: DutyPeriod[]): Pairing {
  const first = duties[0]!;
  const last = duties[duties.length - 1]!;
  return {
    pairing_number: pairingNumber,
    origin_base: 'LHR',
    terminus_base: 'LHR',
    check_in_local: first.fdp_start_local,
    check_out_local: last.fdp_end_local,
    crew: members,
    duty_periods: duties,
  };
}

export function submission(pairings: Pairing[], window: DateWindow = WINDOW): ScheduleSubmission {
  return { schedule_start_date: window.start, schedule_end_date: window.end, pairings };
}

/**
 * The reference pairing P1, crew E1 and E2 (home base LHR), flattened rows per member:
 * DP1 2026-12-10: leg 1 FLT LHR-CDG (row 1), leg 2 DH CDG-FRA (row 2), layover FRA (row 3);
 * DP2 2026-12-11: leg 1 FLT FRA-LHR (row 4). E2 has rows 5-8.
 */
export function p1(
  members: CrewMember[] = [crew('E1'), crew('E2')],
  changes: { dh?: Partial<Leg>; lay?: Partial<Layover> } = {},
): Pairing {
  return pairing('P1', members, [
    duty(
      1,
      '2026-12-10',
      [
        leg(1, 'FLT', 'LHR', 'CDG', ts('2026-12-10', '08:00'), ts('2026-12-10', '10:15', '+01:00')),
        leg(
          2,
          'DH',
          'CDG',
          'FRA',
          ts('2026-12-10', '12:00', '+01:00'),
          ts('2026-12-10', '13:10', '+01:00'),
          changes.dh,
        ),
      ],
      { ...layover('FRA', ts('2026-12-10', '14:00', '+01:00'), ts('2026-12-11', '07:00', '+01:00')), ...changes.lay },
    ),
    duty(2, '2026-12-11', [
      leg(1, 'FLT', 'FRA', 'LHR', ts('2026-12-11', '08:30', '+01:00'), ts('2026-12-11', '09:10')),
    ]),
  ]);
}

/** CONFIRMED bookings exactly matching a flattened roster's rows. */
export function bookingsFor(flat: FlatRoster): {
  hotelBookings: HotelBookingActual[];
  flightBookings: FlightBookingActual[];
} {
  return {
    hotelBookings: flat.layovers.map((l) => ({
      booking_id: `H-${l.key}`,
      employee_id: l.employee_id,
      pairing_number: l.pairing_number,
      duty_period_num: l.duty_period_num,
      station: l.station,
      checkin_time_local: l.checkin_time_local,
      checkout_time_local: l.checkout_time_local,
      status: 'CONFIRMED',
      manual_override: false,
      traveller_email: l.traveller_email,
    })),
    flightBookings: flat.deadheads.map((r) => ({
      booking_id: `F-${r.key}`,
      employee_id: r.employee_id,
      pairing_number: r.pairing_number,
      duty_date: r.duty_date,
      leg_sequence: r.leg_sequence,
      from_airport: r.from_airport,
      to_airport: r.to_airport,
      flight_number: r.flight_number,
      dep_time_local: r.dep_time_local,
      arr_time_local: r.arr_time_local,
      status: 'CONFIRMED',
      manual_override: false,
    })),
  };
}

export interface RunOptions {
  previous?: ScheduleSubmission | RosterState | null;
  hotelBookings?: HotelBookingActual[];
  flightBookings?: FlightBookingActual[];
  settings?: Partial<DiffSettings>;
  processedAt?: string;
  window?: DateWindow;
}

/** Flattens `current` and diffs it; a previous submission is turned into its full state. */
export function run(current: ScheduleSubmission, o: RunOptions = {}): DiffResult & { flat: FlatRoster } {
  const flat = flattenRoster(current);
  const previous =
    o.previous && 'pairings' in o.previous && 'schedule_start_date' in o.previous
      ? rosterState(flattenRoster(o.previous))
      : (o.previous ?? null);
  const result = diffRoster({
    current: flat,
    previous,
    hotelBookings: o.hotelBookings ?? [],
    flightBookings: o.flightBookings ?? [],
    window: o.window ?? WINDOW,
    settings: { ...SETTINGS, ...o.settings },
    processedAt: o.processedAt ?? PROCESSED_AT,
  });
  return { ...result, flat };
}

/** Runs a day-2 roster against a day-1 roster whose rows are all booked. */
export function runAfter(day1: ScheduleSubmission, day2: ScheduleSubmission, o: RunOptions = {}) {
  const booked = bookingsFor(flattenRoster(day1));
  return run(day2, { previous: day1, ...booked, ...o });
}

export const classifications = (r: DiffResult) =>
  r.actionItems.map((i) => `${i.classification}:${i.anchors.employee_id}`).sort();

/** The bookings planDiffWrites creates for the NEW items (one each, with the item's key, stay or leg and anchors). */
export function writtenBookings(
  items: readonly DerivedActionItem[],
  idPrefix = 'NEW',
): { hotels: HotelBookingActual[]; flights: FlightBookingActual[] } {
  const hotels: HotelBookingActual[] = [];
  const flights: FlightBookingActual[] = [];
  items
    .filter((i) => i.subtype === 'NEW_BOOKING')
    .forEach((i, n) => {
      const base = {
        booking_id: `${idPrefix}-${n}`,
        status: 'NEEDS_REVIEW' as const,
        manual_override: false,
        employee_id: i.anchors.employee_id,
        pairing_number: i.anchors.pairing_number,
        duty_date: i.anchors.duty_date,
      };
      if (i.type === 'HOTEL') {
        const d = i.details as HotelItemDetails;
        hotels.push({
          ...base,
          traveller_email: d.traveller_email,
          duty_period_num: d.duty_period_num,
          station: d.station,
          checkin_time_local: d.checkin_time_local,
          checkout_time_local: d.checkout_time_local,
        });
      } else {
        const d = i.details as FlightItemDetails;
        flights.push({
          ...base,
          traveller_email: d.traveller_email,
          leg_sequence: d.leg_sequence,
          from_airport: d.from_airport,
          to_airport: d.to_airport,
          flight_number: d.flight_number,
          dep_time_local: d.dep_time_local,
          arr_time_local: d.arr_time_local,
        });
      }
    });
  return { hotels, flights };
}

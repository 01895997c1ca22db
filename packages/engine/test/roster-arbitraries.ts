/*
 * Random small rosters around a short window, so that rows and bookings fall on both sides of
 * its edges. A roster is generated as a plain spec and built from it, so a test can change one
 * field of the spec and rebuild. Shared by properties*.test.ts.
 */
import fc from 'fast-check';
import type { DutyPeriod, Leg, Pairing, ScheduleSubmission } from '@crew/contracts';
import {
  addDays,
  diffRoster,
  flattenRoster,
  type DerivedActionItem,
  type FlightBookingActual,
  type HotelBookingActual,
  type RosterState,
} from '../src';
import { crew, SETTINGS } from './fixtures';

export const WINDOW = { start: '2026-12-02', end: '2026-12-04' };
export const DATES = ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'];
export const NEXT: Record<string, string> = {
  '2026-12-01': '2026-12-02',
  '2026-12-02': '2026-12-03',
  '2026-12-03': '2026-12-04',
  '2026-12-04': '2026-12-05',
  '2026-12-05': '2026-12-06',
};
export const EMPLOYEES = ['E1', 'E2', 'E3', 'E4', 'E5'];
export const AIRPORTS = ['LHR', 'CDG', 'FRA', 'MAD'];
export const OFFSETS = ['+00:00', '+01:00', '-05:00'];
export const PROCESSED_AT = '2026-11-20T00:00:00Z';

export interface LegSpec {
  seq: number;
  dh: boolean;
  from: string;
  to: string;
  hour: number;
  minutes: number;
  offset: string;
  /** Departs the day after its duty date: dropped during grouping. */
  offDate: boolean;
}
export interface DutySpec {
  num: number;
  date: string;
  legs: LegSpec[];
  /** `afterMidnight`: the check-in is on the day after the duty date. */
  layover: { station: string; required: boolean; late: boolean; afterMidnight?: boolean } | null;
}
export interface PairingSpec {
  crew: string[];
  duties: DutySpec[];
}

export const legSpec = fc.record({
  seq: fc.integer({ min: 1, max: 3 }),
  dh: fc.boolean(),
  from: fc.constantFrom(...AIRPORTS),
  to: fc.constantFrom(...AIRPORTS),
  hour: fc.integer({ min: 0, max: 20 }),
  minutes: fc.integer({ min: 30, max: 180 }),
  offset: fc.constantFrom(...OFFSETS),
  // One leg in ten departs on the wrong day.
  offDate: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
});
export const dutySpec = fc.record({
  num: fc.integer({ min: 1, max: 3 }),
  date: fc.constantFrom(...DATES),
  legs: fc.array(legSpec, { maxLength: 3 }),
  layover: fc.option(
    fc.record({
      station: fc.constantFrom(...AIRPORTS),
      required: fc.boolean(),
      late: fc.boolean(),
      afterMidnight: fc.integer({ min: 0, max: 2 }).map((roll) => roll === 0),
    }),
    { nil: null },
  ),
});
export const pairingSpec = fc.record({
  crew: fc.shuffledSubarray(EMPLOYEES, { minLength: 1, maxLength: 3 }),
  duties: fc.array(dutySpec, { minLength: 1, maxLength: 3 }),
});
export const rosterSpec = fc.array(pairingSpec, { minLength: 1, maxLength: 5 });

export const pad = (n: number) => String(n).padStart(2, '0');

export function buildLeg(l: LegSpec, date: string): Leg {
  const depDate = l.offDate ? NEXT[date]! : date;
  const end = l.hour * 60 + l.minutes;
  const arrDate = end >= 24 * 60 ? NEXT[depDate]! : depDate;
  return {
    leg_sequence: l.seq,
    activity_code: l.dh ? 'DH' : 'FLT',
    flight_number: `XY${l.seq}${l.hour}`,
    from_airport: l.from,
    to_airport: l.to,
    dep_time_local: `${depDate}T${pad(l.hour)}:00:00${l.offset}`,
    arr_time_local: `${arrDate}T${pad(Math.floor(end / 60) % 24)}:${pad(end % 60)}:00${l.offset}`,
  };
}

export function buildDuty(d: DutySpec): DutyPeriod {
  return {
    duty_period_num: d.num,
    duty_date: d.date,
    fdp_start_local: `${d.date}T00:00:00Z`,
    fdp_end_local: `${d.date}T23:00:00Z`,
    legs: d.legs.map((l) => buildLeg(l, d.date)),
    ...(d.layover
      ? {
          layover: {
            station: d.layover.station,
            booking_required: d.layover.required,
            checkin_time_local: d.layover.afterMidnight
              ? `${NEXT[d.date]}T00:30:00+01:00`
              : `${d.date}T${d.layover.late ? '23:30' : '20:00'}:00+01:00`,
            checkout_time_local: `${addDays(d.date, d.layover.afterMidnight ? 2 : 1)}T07:00:00+01:00`,
          },
        }
      : {}),
  };
}

export function build(spec: PairingSpec[]): ScheduleSubmission {
  const pairings: Pairing[] = spec.map((p, i) => ({
    pairing_number: `P${i}`,
    origin_base: 'LHR',
    terminus_base: 'LHR',
    check_in_local: `${p.duties[0]!.date}T00:00:00Z`,
    check_out_local: `${p.duties[p.duties.length - 1]!.date}T23:00:00Z`,
    crew: p.crew.map((e) => crew(e)),
    duty_periods: p.duties.map(buildDuty),
  }));
  return { schedule_start_date: WINDOW.start, schedule_end_date: WINDOW.end, pairings };
}

// Bookings of one airline: booking_id is a primary key, so arrays of them are drawn with unique ids.
export const hotelBookingArb: fc.Arbitrary<HotelBookingActual> = fc
  .record({
    n: fc.nat(),
    emp: fc.constantFrom(...EMPLOYEES),
    pairing: fc.integer({ min: 0, max: 4 }),
    num: fc.integer({ min: 1, max: 3 }),
    station: fc.constantFrom(...AIRPORTS),
    date: fc.constantFrom(...DATES),
    afterMidnight: fc.boolean(),
    status: fc.constantFrom('CONFIRMED', 'CANCELLED', 'NEEDS_REVIEW', 'FAILED' as const),
    manual_override: fc.boolean(),
  })
  .map((b) => ({
    booking_id: `HB${b.n}`,
    employee_id: b.emp,
    pairing_number: `P${b.pairing}`,
    // The duty date is the check-in's, or the day before for a check-in after midnight (the database reads a window's bookings by it).
    duty_date: b.afterMidnight ? addDays(b.date, -1) : b.date,
    duty_period_num: b.num,
    station: b.station,
    checkin_time_local: `${b.date}T20:00:00+01:00`,
    checkout_time_local: `${NEXT[b.date]}T07:00:00+01:00`,
    status: b.status,
    manual_override: b.manual_override,
  }));

export const flightBookingArb: fc.Arbitrary<FlightBookingActual> = fc
  .record({
    n: fc.nat(),
    emp: fc.constantFrom(...EMPLOYEES),
    pairing: fc.integer({ min: 0, max: 4 }),
    seq: fc.integer({ min: 1, max: 3 }),
    date: fc.constantFrom(...DATES),
    status: fc.constantFrom('CONFIRMED', 'CANCELLED', 'PENDING' as const),
    manual_override: fc.boolean(),
  })
  .map((b) => ({
    booking_id: `FB${b.n}`,
    employee_id: b.emp,
    pairing_number: `P${b.pairing}`,
    duty_date: b.date,
    leg_sequence: b.seq,
    from_airport: 'LHR',
    to_airport: 'CDG',
    flight_number: null,
    dep_time_local: `${b.date}T10:00:00Z`,
    arr_time_local: `${b.date}T11:00:00Z`,
    status: b.status,
    manual_override: b.manual_override,
  }));

export function diff(
  current: ScheduleSubmission,
  previous: RosterState | null,
  hotelBookings: HotelBookingActual[],
  flightBookings: FlightBookingActual[],
  emitUnchanged = false,
) {
  return diffRoster({
    current: flattenRoster(current),
    previous,
    hotelBookings,
    flightBookings,
    window: WINDOW,
    settings: { ...SETTINGS, emit_unchanged: emitUnchanged },
    processedAt: PROCESSED_AT,
  });
}

/** An airline's hotel and flight bookings. */
export const hotelsArb = fc.uniqueArray(hotelBookingArb, { maxLength: 8, selector: (b) => b.booking_id });
export const flightsArb = fc.uniqueArray(flightBookingArb, { maxLength: 8, selector: (b) => b.booking_id });

/** Yesterday's roster, today's, the airline's bookings and emit_unchanged: a diff's whole input. */
export const twoRostersAndBookings = [rosterSpec, rosterSpec, hotelsArb, flightsArb, fc.boolean()] as const;

export const inWindow = (date: string) => date >= WINDOW.start && date <= WINDOW.end;
/** A state's rows whatever their order (a state stored a line per pairing reads back each pairing's rows together). */
export const canonical = (state: RosterState) => ({
  deadheads: state.deadheads.map((r) => JSON.stringify(r)).sort(),
  layovers: state.layovers.map((r) => JSON.stringify(r)).sort(),
  pairings: state.pairings.map((r) => JSON.stringify(r)).sort(),
});
export const withoutRows = (items: DerivedActionItem[]) => items.map(({ source_rows: _rows, ...rest }) => rest);

import fc from 'fast-check';
import type { DutyPeriod, Leg, Pairing, ScheduleSubmission } from '@crew/contracts';
import {
  addDays,
  cancellationCutoffOf,
  changedPairings,
  diffBasisOf,
  diffRoster,
  diffRosterInParts,
  elementsOfWhole,
  flattenElements,
  flattenRoster,
  knownElements,
  layoverKey,
  legKey,
  localDateOf,
  pairingOfKey,
  rosterState,
  rosterStateOf,
  settlesOnRerun,
  storedRosterState,
  isStateLinesText,
  linesOfStateInParts,
  rosterStateOfStored,
  storedStateOfText,
  type DerivedActionItem,
  type DiffBasis,
  type FlightBookingActual,
  type HotelBookingActual,
  linesOfState,
  rewrittenPairings,
  pairingShapesOf,
  rosterStateOfLines,
  stateLinesOf,
  stateLinesText,
  type FlatRoster,
  type RosterElements,
  type RosterState,
} from '../src';
import { bookingsFor, crew, SETTINGS, writtenBookings } from './fixtures';

/*
 * Random small rosters around a short window, so that rows and bookings fall on both sides of
 * its edges. A roster is generated as a plain spec and built from it, so a test can change one
 * field of the spec and rebuild.
 */

const WINDOW = { start: '2026-12-02', end: '2026-12-04' };
const DATES = ['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04', '2026-12-05'];
const NEXT: Record<string, string> = {
  '2026-12-01': '2026-12-02',
  '2026-12-02': '2026-12-03',
  '2026-12-03': '2026-12-04',
  '2026-12-04': '2026-12-05',
  '2026-12-05': '2026-12-06',
};
const EMPLOYEES = ['E1', 'E2', 'E3', 'E4', 'E5'];
const AIRPORTS = ['LHR', 'CDG', 'FRA', 'MAD'];
const OFFSETS = ['+00:00', '+01:00', '-05:00'];
const PROCESSED_AT = '2026-11-20T00:00:00Z';

interface LegSpec {
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
interface DutySpec {
  num: number;
  date: string;
  legs: LegSpec[];
  /** `afterMidnight`: the check-in is on the day after the duty date. */
  layover: { station: string; required: boolean; late: boolean; afterMidnight?: boolean } | null;
}
interface PairingSpec {
  crew: string[];
  duties: DutySpec[];
}

const legSpec = fc.record({
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
const dutySpec = fc.record({
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
const pairingSpec = fc.record({
  crew: fc.shuffledSubarray(EMPLOYEES, { minLength: 1, maxLength: 3 }),
  duties: fc.array(dutySpec, { minLength: 1, maxLength: 3 }),
});
const rosterSpec = fc.array(pairingSpec, { minLength: 1, maxLength: 5 });

const pad = (n: number) => String(n).padStart(2, '0');

function buildLeg(l: LegSpec, date: string): Leg {
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

function buildDuty(d: DutySpec): DutyPeriod {
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

function build(spec: PairingSpec[]): ScheduleSubmission {
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
const hotelBookingArb: fc.Arbitrary<HotelBookingActual> = fc
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

const flightBookingArb: fc.Arbitrary<FlightBookingActual> = fc
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

function diff(
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
const hotelsArb = fc.uniqueArray(hotelBookingArb, { maxLength: 8, selector: (b) => b.booking_id });
const flightsArb = fc.uniqueArray(flightBookingArb, { maxLength: 8, selector: (b) => b.booking_id });

/** Yesterday's roster, today's, the airline's bookings and emit_unchanged: a diff's whole input. */
const twoRostersAndBookings = [rosterSpec, rosterSpec, hotelsArb, flightsArb, fc.boolean()] as const;

const inWindow = (date: string) => date >= WINDOW.start && date <= WINDOW.end;
/** A state's rows whatever their order (a state stored a line per pairing reads back each pairing's rows together). */
const canonical = (state: RosterState) => ({
  deadheads: state.deadheads.map((r) => JSON.stringify(r)).sort(),
  layovers: state.layovers.map((r) => JSON.stringify(r)).sort(),
  pairings: state.pairings.map((r) => JSON.stringify(r)).sort(),
});
const withoutRows = (items: DerivedActionItem[]) => items.map(({ source_rows: _rows, ...rest }) => rest);

describe('properties of the diff', () => {
  it('diff(x, x) is empty: previous state and bookings built from the roster itself', () => {
    fc.assert(
      fc.property(rosterSpec, (spec) => {
        const x = build(spec);
        const flat = flattenRoster(x);
        const { hotelBookings, flightBookings } = bookingsFor(flat);
        expect(diff(x, rosterState(flat), hotelBookings, flightBookings).actionItems).toEqual([]);
      }),
    );
  });

  it('items never reference rows or bookings dated outside the window', () => {
    fc.assert(
      fc.property(...twoRostersAndBookings, (day1, day2, hotels, flights, emit) => {
        const previous = rosterState(flattenRoster(build(day1)));
        const current = flattenRoster(build(day2));
        const result = diff(build(day2), previous, hotels, flights, emit);
        const bookingDate = new Map<string, string>([
          ...hotels.map((b) => [b.booking_id, localDateOf(b.checkin_time_local)] as const),
          ...flights.map((b) => [b.booking_id, b.duty_date!] as const),
        ]);
        for (const item of result.actionItems) {
          const { day1_row, day2_row } = item.source_rows;
          if (item.type === 'FLIGHT') {
            if (day1_row !== null)
              expect(inWindow(previous.deadheads.find((r) => r.row === day1_row)!.duty_date)).toBe(true);
            if (day2_row !== null)
              expect(inWindow(current.deadheads.find((r) => r.row === day2_row)!.duty_date)).toBe(true);
          } else {
            if (day1_row !== null) expect(inWindow(previous.layovers.find((r) => r.row === day1_row)!.date)).toBe(true);
            if (day2_row !== null)
              expect(inWindow(localDateOf(current.layovers.find((r) => r.row === day2_row)!.checkin_time_local))).toBe(
                true,
              );
          }
          if (item.booking_id !== null) expect(inWindow(bookingDate.get(item.booking_id)!)).toBe(true);
        }
      }),
    );
  });

  it("gives every item of a diff its own item_key (what a schedule's items are told apart by; no index checks it)", () => {
    fc.assert(
      fc.property(...twoRostersAndBookings, fc.boolean(), (day1, day2, hotels, flights, emit, twice) => {
        const current = build(day2);
        // Some rosters send a pairing_number in more than one element.
        if (twice) current.pairings.forEach((p, i) => (p.pairing_number = `P${i % 2}`));
        const keys = diff(current, rosterState(flattenRoster(build(day1))), hotels, flights, emit).actionItems.map(
          (i) => i.item_key,
        );
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });

  it("changing one DH leg's times touches only that leg's key", () => {
    const withDeadhead = rosterSpec.filter((spec) => spec.some((p) => p.duties.some((d) => d.legs.some((l) => l.dh))));
    fc.assert(
      fc.property(
        withDeadhead,
        fc.nat(),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 30, max: 180 }),
        (spec, pick, hour, minutes) => {
          const x = build(spec);
          const flat = flattenRoster(x);
          const deadheads = spec.flatMap((p, pi) =>
            p.duties.flatMap((d) => d.legs.filter((l) => l.dh).map((l) => ({ p, pi, d, l }))),
          );
          const target = deadheads[pick % deadheads.length]!;
          target.l.hour = hour;
          target.l.minutes = minutes;
          const touched = new Set(target.p.crew.map((e) => legKey(e, `P${target.pi}`, target.d.date, target.l.seq)));
          const { hotelBookings, flightBookings } = bookingsFor(flat);
          for (const item of diff(build(spec), rosterState(flat), hotelBookings, flightBookings).actionItems) {
            expect(item.type).toBe('FLIGHT');
            expect(touched.has(item.details.row_key)).toBe(true);
          }
        },
      ),
    );
  });

  it('the result, source_rows aside, does not depend on the order of pairings in the submission', () => {
    fc.assert(
      fc.property(
        rosterSpec.chain((spec) =>
          fc.tuple(
            fc.constant(spec),
            fc.shuffledSubarray([...spec.keys()], { minLength: spec.length, maxLength: spec.length }),
          ),
        ),
        rosterSpec,
        hotelsArb,
        flightsArb,
        ([spec, order], day1, hotels, flights) => {
          const roster = build(spec);
          const shuffled = { ...roster, pairings: order.map((i) => roster.pairings[i]!) };
          const previous = rosterState(flattenRoster(build(day1)));
          expect(withoutRows(diff(shuffled, previous, hotels, flights, true).actionItems)).toEqual(
            withoutRows(diff(roster, previous, hotels, flights, true).actionItems),
          );
        },
      ),
    );
  });
});

describe('the diff in parts (issue 12: Postgres takes in rows while the diff is derived)', () => {
  /** Runs the parts to the end, counting them. */
  /** The result, how many pauses, and the items handed over at the pauses, in order. */
  function drained(parts: ReturnType<typeof diffRosterInParts>): {
    result: ReturnType<typeof diffRoster>;
    count: number;
    handed: unknown[];
  } {
    let count = 0;
    const handed: unknown[] = [];
    for (let step = parts.next(); ; step = parts.next(), count++) {
      if (step.done) return { result: step.value, count, handed };
      handed.push(...step.value);
    }
  }

  /** Ids that need escaping in a row key, and ids that sort differently by code unit than by locale. */
  const names = fc.uniqueArray(
    fc.oneof(fc.constantFrom('P|1', 'P\\2', 'p3', 'P10', 'Z', 'é', '😀', ''), fc.string({ maxLength: 3 })),
    { minLength: 5, maxLength: 5 },
  );
  const renamed = (roster: ScheduleSubmission, to: string[]) => ({
    ...roster,
    pairings: roster.pairings.map((p, i) => ({ ...p, pairing_number: to[i]! })),
  });
  const renamedBookings = <B extends { pairing_number: string | null }>(bookings: B[], to: string[]) =>
    bookings.map((b) => ({
      ...b,
      pairing_number: b.pairing_number === null ? null : to[Number(b.pairing_number.slice(1))]!,
    }));

  it('derives the whole diff, items in the same order, whatever the part size, for every pairing_number or only the changed ones', () => {
    let split = 0;
    fc.assert(
      fc.property(
        ...twoRostersAndBookings,
        names,
        fc.integer({ min: 1, max: 4 }),
        fc.option(fc.subarray([0, 1, 2, 3, 4])),
        (day1, day2, hotels, flights, emit, to, size, some) => {
          const input = {
            current: flattenRoster(renamed(build(day2), to)),
            previous: rosterState(flattenRoster(renamed(build(day1), to))),
            hotelBookings: renamedBookings(hotels, to),
            flightBookings: renamedBookings(flights, to),
            window: WINDOW,
            settings: { ...SETTINGS, emit_unchanged: emit },
            processedAt: PROCESSED_AT,
            changedPairings: some === null ? undefined : new Set(some.map((i) => to[i]!)),
          };
          const { result, count, handed } = drained(diffRosterInParts(input, size));
          if (count > 1) split++;
          expect(result).toEqual(diffRoster(input));
          // The parts handed over are the result's items, the same objects in the same order (the worker writes them as they come).
          expect(handed.length).toBe(result.actionItems.length);
          handed.forEach((item, i) => expect(item).toBe(result.actionItems[i]));
        },
      ),
    );
    // The property is about rosters that do split.
    expect(split).toBeGreaterThan(20);
  });
});

describe('settlesOnRerun (issue 12: a byte-identical resubmission may skip the diff)', () => {
  it('when it holds, the same roster diffed again, against the stored state and the bookings as written, at a later time, derives nothing and keeps the state', () => {
    let held = 0;
    fc.assert(
      fc.property(
        rosterSpec,
        rosterSpec,
        hotelsArb,
        flightsArb,
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 30 }),
        (day1, spec, hotels, flights, lookback, laterDays) => {
          const roster = build(spec);
          const previous = rosterState(flattenRoster(build(day1)));
          const settings = { emit_unchanged: false, cancellation_lookback_days: lookback };
          const first = diffRoster({
            current: flattenRoster(roster),
            previous,
            hotelBookings: hotels,
            flightBookings: flights,
            window: WINDOW,
            settings,
            processedAt: PROCESSED_AT,
          });
          // The worker also requires that its writes change or adopt no existing booking (for HOTEL items settlesOnRerun itself says so).
          fc.pre(
            settlesOnRerun(first.actionItems, WINDOW) &&
              first.actionItems.every(
                (i) => i.type === 'HOTEL' || i.subtype === 'NEW_BOOKING' || i.booking_id === null,
              ),
          );
          // The bookings as the worker writes them (planDiffWrites): one per NEW item, with the item's key, stay or leg, dated by its anchors.
          const { hotels: newHotels, flights: newFlights } = writtenBookings(first.actionItems);
          const later = new Date(Date.parse(PROCESSED_AT) + laterDays * 86_400_000).toISOString();
          const stored = JSON.parse(JSON.stringify(first.nextState)) as RosterState;
          const second = diffRoster({
            current: flattenRoster(roster),
            previous: stored,
            hotelBookings: [...hotels, ...newHotels],
            flightBookings: [...flights, ...newFlights],
            window: WINDOW,
            settings,
            processedAt: later,
          });
          expect(second.actionItems).toEqual([]);
          expect(second.nextState).toEqual(first.nextState);
          held++;
        },
      ),
      { numRuns: 300 },
    );
    // The premise must hold often enough for the property to say something.
    expect(held).toBeGreaterThan(30);
  });
});

describe('the stored roster state (issue 12: rows as tuples instead of objects)', () => {
  /** A state as the worker stores it and reads it back: JSON, then rosterStateOf. */
  const throughStorage = (state: RosterState) =>
    rosterStateOf(JSON.parse(JSON.stringify(storedRosterState(state))) as Parameters<typeof rosterStateOf>[0]);
  /** The same state stored the way it was before: the object form as JSON. */
  const asBefore = (state: RosterState) => JSON.parse(JSON.stringify(state)) as RosterState;

  it('reads back exactly what the object form read back, for states of random rosters and of diffs between them', () => {
    fc.assert(
      fc.property(rosterSpec, rosterSpec, (day1, day2) => {
        const first = rosterState(flattenRoster(build(day1)));
        const next = diff(build(day2), first, [], []).nextState;
        for (const state of [first, next]) expect(throughStorage(state)).toStrictEqual(asBefore(state));
      }),
    );
  });

  it('gives the same diff as the object form on random rosters and bookings, and a state stored before still reads', () => {
    fc.assert(
      fc.property(...twoRostersAndBookings, (day1, day2, hotels, flights, emit) => {
        const previous = rosterState(flattenRoster(build(day1)));
        const before = diff(build(day2), asBefore(previous), hotels, flights, emit);
        expect(diff(build(day2), throughStorage(previous), hotels, flights, emit)).toEqual(before);
        // A state written before this form: read as it is.
        expect(rosterStateOf(asBefore(previous))).toStrictEqual(asBefore(previous));
      }),
    );
  });

  it('is stored a line per pairing_number (in parts or at once), reads back the same rows, and a state stored in an older form still reads', () => {
    fc.assert(
      fc.property(rosterSpec, rosterSpec, fc.integer({ min: 1, max: 5 }), (day1, day2, size) => {
        const flat2 = flattenRoster(build(day2));
        const result = diff(build(day2), rosterState(flattenRoster(build(day1))), [], []);
        const firstRows = new Map(flat2.pairings.map((p) => [p.pairing_number, p.first_row]));
        const parts = linesOfStateInParts(result.nextStateParts, firstRows, size);
        let step = parts.next();
        while (!step.done) step = parts.next();
        expect(step.value).toEqual(linesOfState(result.nextStateParts, firstRows));
        const text = stateLinesText(firstRows, step.value);
        expect(isStateLinesText(text)).toBe(true);
        expect(canonical(rosterStateOfStored(storedStateOfText(text)))).toEqual(canonical(result.nextState));
        // The forms stored before: tuples, and objects.
        expect(
          rosterStateOfStored(storedStateOfText(JSON.stringify(storedRosterState(result.nextState)))),
        ).toStrictEqual(asBefore(result.nextState));
        expect(rosterStateOfStored(storedStateOfText(JSON.stringify(result.nextState)))).toStrictEqual(
          asBefore(result.nextState),
        );
      }),
    );
  });

  it('is smaller than the object form', () => {
    fc.assert(
      fc.property(rosterSpec, (spec) => {
        const state = rosterState(flattenRoster(build(spec)));
        fc.pre(state.layovers.length + state.deadheads.length > 0);
        expect(JSON.stringify(storedRosterState(state)).length).toBeLessThan(JSON.stringify(state).length);
      }),
    );
  });
});

describe('diffing only the changed pairings (issue 12: a resubmission diffs what changed)', () => {
  type Booking = HotelBookingActual | FlightBookingActual;
  const SETTLED = { emit_unchanged: false, cancellation_lookback_days: 1 };

  /** Stands for the database's fingerprint of a pairing_number's bookings: any change to one of them changes it. */
  function fingerprints(bookings: readonly Booking[]): Map<string, string> {
    const by = new Map<string, Booking[]>();
    for (const b of bookings)
      if (b.pairing_number !== null) by.set(b.pairing_number, [...(by.get(b.pairing_number) ?? []), b]);
    return new Map(
      [...by].map(([p, list]) => [
        p,
        JSON.stringify([...list].sort((a, b) => a.booking_id.localeCompare(b.booking_id))),
      ]),
    );
  }

  /** A pairing of yesterday's roster today: kept, replaced by another, or dropped; plus pairings added, and the order shuffled. */
  const edit = fc.constantFrom('keep', 'keep', 'keep', 'replace', 'drop', 'crew' as const);
  /** What happens to a booking between the two diffs (the airline, a reviewer or a supplier). */
  const touch = fc.constantFrom('none', 'none', 'none', 'cancel', 'override', 'delete', 'confirm' as const);

  function named(spec: PairingSpec[], names: string[]): ScheduleSubmission {
    const roster = build(spec);
    roster.pairings.forEach((p, i) => (p.pairing_number = names[i]!));
    return roster;
  }

  function mutated<B extends Booking>(
    bookings: B[],
    touches: (typeof touch extends fc.Arbitrary<infer T> ? T : never)[],
  ): B[] {
    const out: B[] = [];
    bookings.forEach((b, i) => {
      const t = touches[i % Math.max(1, touches.length)] ?? 'none';
      if (t === 'delete') return;
      if (t === 'cancel') out.push({ ...b, status: 'CANCELLED' });
      else if (t === 'override') out.push({ ...b, manual_override: !b.manual_override });
      else if (t === 'confirm') out.push({ ...b, status: 'CONFIRMED' });
      else out.push(b);
    });
    return out;
  }

  /** What the database reads of the airline's bookings for a window: those whose duty date is inside it. */
  const dated = <B extends Booking>(bookings: readonly B[], window: { start: string; end: string }) =>
    bookings.filter((b) => b.duty_date != null && b.duty_date >= window.start && b.duty_date <= window.end);

  /** DiffBasisNow.bookingDates as the database gives them: per pairing_number, the first and last duty or check-in date. */
  function bookingDates(bookings: readonly Booking[]): Map<string, [string, string]> {
    const out = new Map<string, [string, string]>();
    for (const b of bookings) {
      if (b.pairing_number === null) continue;
      const dates = [b.duty_date!, ...('checkin_time_local' in b ? [localDateOf(b.checkin_time_local)] : [])];
      for (const d of dates) {
        const span = out.get(b.pairing_number);
        if (!span) out.set(b.pairing_number, [d, d]);
        else out.set(b.pairing_number, [d < span[0] ? d : span[0], d > span[1] ? d : span[1]]);
      }
    }
    return out;
  }

  /** Today's window: yesterday's, or one whose start and end moved by up to a day (always sharing a date with it). */
  const windowArb = fc.oneof(
    fc.constant(WINDOW),
    fc.record({
      start: fc.constantFrom('2026-12-01', '2026-12-02', '2026-12-03'),
      end: fc.constantFrom('2026-12-03', '2026-12-04', '2026-12-05'),
    }),
  );

  /**
   * The day before's roster and yesterday's, the airline's bookings, yesterday's pairings edited into today's (edits,
   * replacements, pairings added), bookings touched in between, today's rotation and how many days later it runs.
   */
  const twoDays = [
    rosterSpec,
    rosterSpec,
    hotelsArb,
    flightsArb,
    fc.array(edit, { minLength: 5, maxLength: 5 }),
    fc.array(pairingSpec, { minLength: 5, maxLength: 5 }),
    fc.array(pairingSpec, { maxLength: 2 }),
    fc.array(touch, { maxLength: 12 }),
    fc.integer({ min: 0, max: 5 }),
    fc.integer({ min: 0, max: 30 }),
  ] as const;

  it('derives what the whole diff derives, with the same next state, when it diffs only the pairings changed since the basis (in the same window or a moved one)', () => {
    let narrowed = 0;
    let narrowedMoved = 0;
    fc.assert(
      fc.property(
        ...twoDays,
        windowArb,
        (day0, day1, hotels, flights, edits, replacements, added, touches, shuffle, laterDays, window2) => {
          // Yesterday's state holds rows of the day before's roster too, kept outside the window.
          const { first, hotels1, flights1, basis } = yesterday(
            named(
              day1,
              day1.map((_, i) => `P${i}`),
            ),
            day0,
            hotels,
            flights,
          );

          // Today's roster: yesterday's pairings edited one by one, some added, rotated (every row number moves).
          const { spec2, names2 } = edited(day1, edits, replacements, added);
          const roster2 = named(...rotated(spec2, names2, shuffle));
          const hotels2 = dated(mutated(hotels1, touches), window2);
          const flights2 = dated(mutated(flights1, [...touches].reverse()), window2);
          const later = new Date(Date.parse(PROCESSED_AT) + laterDays * 86_400_000).toISOString();
          const flat2 = flattenWhole(roster2).flat;
          const cutoff = cancellationCutoffOf(later, SETTLED.cancellation_lookback_days);
          const booked2 = [...hotels2, ...flights2];
          const changed = changedPairings(basis, {
            flat: flat2,
            bookings: fingerprints(booked2),
            bookingDates: bookingDates(booked2),
            previous: first.nextState,
            window: window2,
            cutoff,
            emitUnchanged: false,
          });
          expect(changed).not.toBeNull();
          const input = {
            current: flat2,
            previous: first.nextState,
            hotelBookings: hotels2,
            flightBookings: flights2,
            window: window2,
            settings: SETTLED,
            processedAt: later,
          };
          const whole = diffRoster(input);
          expect(diffRoster({ ...input, changedPairings: changed! })).toEqual(whole);
          if (changed!.size < flat2.pairings.length) {
            narrowed++;
            if (window2 !== WINDOW) narrowedMoved++;
          }
        },
      ),
      { numRuns: 1000 },
    );
    // Unchanged pairings must be left out often enough for the property to say something, in a moved window too.
    expect(narrowed).toBeGreaterThan(60);
    expect(narrowedMoved).toBeGreaterThan(8);
  });

  /** A roster as its elements, each named by its JSON (what the worker's hash of the element's bytes stands for), counting the parses. */
  function elementsOf(roster: ScheduleSubmission): RosterElements & { parses: number } {
    const contents = roster.pairings.map((p) => JSON.stringify(p));
    const elements = {
      contents,
      lengths: contents.map((c) => c.length),
      parses: 0,
      pairing(i: number) {
        elements.parses++;
        return JSON.parse(elements.contents[i]!) as Pairing;
      },
    };
    return elements;
  }

  /** flattenRoster, with each pairing_number's content its elements' (as the worker diffs a roster whole). */
  function flattenWhole(roster: ScheduleSubmission) {
    const flat = flattenRoster(roster);
    const { elements, pairingContents } = elementsOfWhole(elementsOf(roster), pairingShapesOf(roster.pairings), flat);
    return { flat: { ...flat, pairingContents }, elements };
  }

  /** Each pairing_number's first row, in roster order. */
  const firstRowsOf = (flat: FlatRoster) => new Map(flat.pairings.map((p) => [p.pairing_number, p.first_row]));

  /**
   * Yesterday: a roster diffed whole (element contents its pairings' JSON) against the day before's state and the
   * airline's bookings, the bookings its items made, the basis it left and its state stored as lines.
   */
  function yesterday(
    roster1: ScheduleSubmission,
    day0: PairingSpec[],
    hotels: HotelBookingActual[],
    flights: FlightBookingActual[],
  ) {
    const whole1 = flattenWhole(roster1);
    const first = diffRoster({
      current: whole1.flat,
      previous: rosterState(flattenRoster(build(day0))),
      hotelBookings: dated(hotels, WINDOW),
      flightBookings: dated(flights, WINDOW),
      window: WINDOW,
      settings: SETTLED,
      processedAt: PROCESSED_AT,
    });
    const made = writtenBookings(first.actionItems);
    const hotels1 = [...hotels, ...made.hotels];
    const flights1 = [...flights, ...made.flights];
    const cutoff1 = cancellationCutoffOf(PROCESSED_AT, SETTLED.cancellation_lookback_days);
    const basis = JSON.parse(
      JSON.stringify(
        diffBasisOf(
          whole1.flat,
          first.actionItems,
          fingerprints(dated([...hotels1, ...flights1], WINDOW)),
          WINDOW,
          cutoff1,
          [],
          whole1.elements,
        ),
      ),
    ) as DiffBasis;
    const stored1 = stateLinesOf(
      stateLinesText(firstRowsOf(whole1.flat), linesOfState(first.nextStateParts, firstRowsOf(whole1.flat))),
    );
    return { whole1, first, hotels1, flights1, basis, stored1 };
  }

  /** Yesterday's pairings P0.. edited one by one (kept, replaced, their crew changed, or dropped), and pairings N0.. added. */
  function edited(day1: PairingSpec[], edits: readonly string[], replacements: PairingSpec[], added: PairingSpec[]) {
    const spec2: PairingSpec[] = [];
    const names2: string[] = [];
    day1.forEach((p, i) => {
      const e = edits[i]!;
      if (e === 'drop') return;
      spec2.push(
        e === 'replace'
          ? replacements[i]!
          : e === 'crew'
            ? { ...p, crew: [...p.crew].reverse().slice(0, Math.max(1, p.crew.length - 1)) }
            : p,
      );
      names2.push(`P${i}`);
    });
    added.forEach((p, i) => {
      spec2.push(p);
      names2.push(`N${i}`);
    });
    return { spec2, names2 };
  }

  /** A roster's pairings rotated by `shuffle` (every row number moves), with their names. */
  function rotated(spec: PairingSpec[], names: string[], shuffle: number): [PairingSpec[], string[]] {
    const k = spec.length ? shuffle % spec.length : 0;
    return [
      [...spec.slice(k), ...spec.slice(0, k)],
      [...names.slice(k), ...names.slice(0, k)],
    ];
  }

  it('derives the whole diff, stored next state and basis from only the elements and state lines of the changed pairings when the window did not move (roster-elements, state-lines)', () => {
    let skippedSome = 0;
    let parsedFewer = 0;
    fc.assert(
      fc.property(
        ...twoDays,
        fc.boolean(),
        (day0, day1, hotels, flights, edits, replacements, added, touches, shuffle, laterDays, twice) => {
          const roster1 = named(
            day1,
            day1.map((_, i) => `P${i}`),
          );
          const { first, hotels1, flights1, basis, stored1 } = yesterday(roster1, day0, hotels, flights);

          // Today's roster: yesterday's pairings edited one by one, some added, rotated; sometimes one sent twice.
          const { spec2, names2 } = edited(day1, edits, replacements, added);
          if (twice && spec2.length) {
            spec2.push(spec2[0]!);
            names2.push(names2[0]!);
          }
          const roster2 = named(...rotated(spec2, names2, shuffle));
          const hotels2 = dated(mutated(hotels1, touches), WINDOW);
          const flights2 = dated(mutated(flights1, [...touches].reverse()), WINDOW);
          const later = new Date(Date.parse(PROCESSED_AT) + laterDays * 86_400_000).toISOString();
          const cutoff = cancellationCutoffOf(later, SETTLED.cancellation_lookback_days);
          const now = {
            bookings: fingerprints([...hotels2, ...flights2]),
            window: WINDOW,
            cutoff,
            emitUnchanged: false,
          };

          // Yesterday's state as stored: a line per pairing (state-lines), holding what the diff left.
          const previous = rosterStateOfLines(stored1);
          expect(canonical(previous)).toEqual(canonical(first.nextState));

          const whole2 = flattenWhole(roster2);
          const changed = changedPairings(basis, { ...now, flat: whole2.flat, previous });
          const input = {
            hotelBookings: hotels2,
            flightBookings: flights2,
            window: WINDOW,
            settings: SETTLED,
            processedAt: later,
          };
          const whole = diffRoster({ ...input, previous, current: whole2.flat, changedPairings: changed! });
          expect(diffRoster({ ...input, previous, current: whole2.flat })).toEqual(whole);
          const stored2 = stateLinesText(
            firstRowsOf(whole2.flat),
            linesOfState(whole.nextStateParts, firstRowsOf(whole2.flat)),
          );

          const elements2 = elementsOf(roster2);
          const known = knownElements(elements2, basis);
          if (twice && spec2.length) {
            // A pairing_number sent twice: the whole roster is flattened.
            expect(known).toBeNull();
            return;
          }
          expect(known).not.toBeNull();
          const changedNow = changedPairings(basis, { ...now, flat: { pairingContents: known!.contents } });
          expect(changedNow).toEqual(changed);
          const part = flattenElements(elements2, basis, known!, changedNow!);
          // Only the lines of the pairings diffed or parsed are read, and written again; every other one is kept.
          const rewritten = new Set([...changedNow!, ...part.parsed.map((p) => p.pairing_number)]);
          const partial = diffRoster({
            ...input,
            previous: rosterStateOfLines(stored1, rewritten),
            current: part.flat,
            changedPairings: changedNow!,
          });
          expect(partial.actionItems).toEqual(whole.actionItems);
          expect(partial.auditEvents).toEqual(whole.auditEvents);
          const firstRows2 = new Map(part.elements.map((e) => [e[1], e[2]]));
          expect(stateLinesText(firstRows2, linesOfState(partial.nextStateParts, firstRows2), stored1, rewritten)).toBe(
            stored2,
          );
          expect(part.elements).toEqual(whole2.elements);
          const disturbed = [...changed!].slice(0, 1);
          const booked = fingerprints([...hotels2, ...flights2]);
          expect(diffBasisOf(part.flat, partial.actionItems, booked, WINDOW, cutoff, disturbed, part.elements)).toEqual(
            diffBasisOf(whole2.flat, whole.actionItems, booked, WINDOW, cutoff, disturbed, whole2.elements),
          );
          // Every pairing not skipped was parsed once, no more; a skipped one was not parsed.
          expect(elements2.parses).toBe(roster2.pairings.length - part.skipped.size);
          expect(part.parsed.map((p) => p.pairing_number)).toEqual(
            roster2.pairings.map((p) => p.pairing_number).filter((n) => !part.skipped.has(n)),
          );
          if (part.skipped.size > 0) skippedSome++;
          if (elements2.parses < roster2.pairings.length) parsedFewer++;
        },
      ),
      { numRuns: 1000 },
    );
    // Unchanged pairings must be skipped often enough for the property to say something.
    expect(skippedSome).toBeGreaterThan(100);
    expect(parsedFewer).toBe(skippedSome);
  });

  /** A pairing object with rows of its own inside the window (a crew member no other object has). */
  const SECOND_P0: PairingSpec = {
    crew: ['E9'],
    duties: [
      {
        num: 7,
        date: '2026-12-03',
        legs: [{ seq: 1, dh: true, from: 'LHR', to: 'CDG', hour: 9, minutes: 60, offset: '+00:00', offDate: false }],
        layover: { station: 'CDG', required: true, late: false },
      },
    ],
  };

  it('keeps the stored state line of every pairing it need not write again, in a moved window too, as the whole diff writes it (rewrittenPairings)', () => {
    let keptSome = 0;
    let keptMoved = 0;
    fc.assert(
      fc.property(
        ...twoDays,
        windowArb,
        fc.boolean(),
        (day0, day1, hotels, flights, edits, replacements, added, touches, shuffle, _laterDays, window2, twice) => {
          // Sometimes a second object of P0 is sent, last, in both rosters: its rows are numbered from P0's first row,
          // so they move when what lies between the two objects does.
          const withTwice = (spec: PairingSpec[], names: string[]) =>
            twice ? named([...spec, SECOND_P0], [...names, 'P0']) : named(spec, names);
          const roster1 = withTwice(
            day1,
            day1.map((_, i) => `P${i}`),
          );
          const { hotels1, flights1, basis, stored1 } = yesterday(roster1, day0, hotels, flights);
          const cutoff = cancellationCutoffOf(PROCESSED_AT, SETTLED.cancellation_lookback_days);
          const previous = rosterStateOfLines(stored1);
          const { spec2, names2 } = edited(day1, edits, replacements, added);
          const roster2 = withTwice(...rotated(spec2, names2, shuffle));
          const booked2 = [
            ...dated(mutated(hotels1, touches), window2),
            ...dated(mutated(flights1, [...touches].reverse()), window2),
          ];
          const whole2 = flattenWhole(roster2);
          const changed = changedPairings(basis, {
            flat: whole2.flat,
            bookings: fingerprints(booked2),
            bookingDates: bookingDates(booked2),
            previous,
            window: window2,
            cutoff,
            emitUnchanged: false,
          });
          expect(changed).not.toBeNull();
          const result = diffRoster({
            current: whole2.flat,
            previous,
            hotelBookings: booked2.filter((b): b is HotelBookingActual => 'station' in b),
            flightBookings: booked2.filter((b): b is FlightBookingActual => !('station' in b)),
            window: window2,
            settings: SETTLED,
            processedAt: PROCESSED_AT,
            changedPairings: changed!,
          });
          const firstRows2 = firstRowsOf(whole2.flat);
          const rewritten = rewrittenPairings(basis, whole2.elements, changed!);
          const everyLine = stateLinesText(firstRows2, linesOfState(result.nextStateParts, firstRows2));
          expect(
            stateLinesText(firstRows2, linesOfState(result.nextStateParts, firstRows2, rewritten), stored1, rewritten),
          ).toBe(everyLine);
          if ([...stored1.lines.keys()].some((p) => !rewritten.has(p))) {
            keptSome++;
            if (window2 !== WINDOW) keptMoved++;
          }
        },
      ),
      { numRuns: 1000 },
    );
    expect(keptSome).toBeGreaterThan(100);
    expect(keptMoved).toBeGreaterThan(20);
  });

  it('asks for the whole diff without a basis, in a window sharing no date, with emit_unchanged on, or with an earlier cancellation cut-off', () => {
    const flat = flattenRoster(
      named(
        [
          {
            crew: ['E1'],
            duties: [
              { num: 1, date: '2026-12-02', legs: [], layover: { station: 'CDG', required: true, late: false } },
            ],
          },
        ],
        ['P0'],
      ),
    );
    const basis = diffBasisOf(flat, [], new Map(), WINDOW, '2026-11-19');
    const now = {
      flat,
      bookings: new Map<string, string>(),
      previous: rosterState(flat),
      window: WINDOW,
      cutoff: '2026-11-19',
      emitUnchanged: false,
    };
    expect(changedPairings(basis, now)).toEqual(new Set());
    expect(changedPairings(null, now)).toBeNull();
    // The window moved: P0's rows (2026-12-02) inside both windows are left out, outside one of them diffed.
    expect(changedPairings(basis, { ...now, window: { ...WINDOW, end: '2026-12-05' } })).toEqual(new Set());
    expect(changedPairings(basis, { ...now, window: { start: '2026-12-03', end: '2026-12-05' } })).toEqual(
      new Set(['P0']),
    );
    expect(changedPairings(basis, { ...now, window: { start: '2026-12-05', end: '2026-12-07' } })).toBeNull();
    expect(changedPairings(basis, { ...now, emitUnchanged: true })).toBeNull();
    expect(changedPairings(basis, { ...now, cutoff: '2026-11-18' })).toBeNull();
    expect(changedPairings(basis, { ...now, cutoff: '2026-11-25' })).toEqual(new Set());
    // A booking of the pairing changed, or one of a pairing the roster does not have appeared: diffed.
    expect(changedPairings(basis, { ...now, bookings: new Map([['P0', 'x']]) })).toEqual(new Set(['P0']));
    expect(changedPairings(basis, { ...now, bookings: new Map([['Q9', 'x']]) })).toEqual(new Set(['Q9']));

    // The same bookings: left out in a moved window when all of them are dated inside both windows; diffed when
    // one checks in outside the old one (the diff left it alone then), or when their dates are not given.
    const booked = diffBasisOf(flat, [], new Map([['P0', 'fp']]), WINDOW, '2026-11-19');
    const moved = { start: '2026-12-01', end: '2026-12-05' };
    const bookedNow = {
      ...now,
      bookings: new Map([['P0', 'fp']]),
      bookingDates: new Map([['P0', ['2026-12-02', '2026-12-03'] as const]]),
    };
    expect(changedPairings(booked, { ...bookedNow, window: moved })).toEqual(new Set());
    expect(changedPairings(booked, { ...bookedNow, bookingDates: undefined, window: moved })).toEqual(new Set(['P0']));
    const lateCheckIn = { ...bookedNow, bookingDates: new Map([['P0', ['2026-12-02', '2026-12-05'] as const]]) };
    expect(changedPairings(booked, lateCheckIn)).toEqual(new Set());
    expect(changedPairings(booked, { ...lateCheckIn, window: moved })).toEqual(new Set(['P0']));
  });

  it('diffs a pairing_number only kept in the previous state once the window moves over its dates, and asks for the whole diff without that state', () => {
    // Yesterday's roster had Q1 on 2026-12-05, outside the window: its rows stay in the state.
    const yesterday = flattenRoster(
      named(
        [
          {
            crew: ['E2'],
            duties: [
              { num: 1, date: '2026-12-05', legs: [], layover: { station: 'CDG', required: true, late: false } },
            ],
          },
        ],
        ['Q1'],
      ),
    );
    const today = flattenRoster(
      named(
        [
          {
            crew: ['E1'],
            duties: [
              { num: 1, date: '2026-12-02', legs: [], layover: { station: 'CDG', required: true, late: false } },
            ],
          },
        ],
        ['P0'],
      ),
    );
    const result = diffRoster({
      current: today,
      previous: rosterState(yesterday),
      hotelBookings: [],
      flightBookings: [],
      window: WINDOW,
      settings: SETTLED,
      processedAt: PROCESSED_AT,
    });
    expect(result.nextState.layovers.map((l) => l.date)).toEqual(['2026-12-02', '2026-12-05']);
    const basis = diffBasisOf(today, result.actionItems, new Map(), WINDOW, '2026-11-19');
    const now = {
      flat: today,
      bookings: new Map<string, string>(),
      previous: result.nextState,
      window: WINDOW,
      cutoff: '2026-11-19',
      emitUnchanged: false,
    };
    expect(changedPairings(basis, now)).toEqual(new Set());
    expect(changedPairings(basis, { ...now, window: { start: '2026-12-01', end: '2026-12-04' } })).toEqual(new Set());
    expect(changedPairings(basis, { ...now, window: { start: '2026-12-02', end: '2026-12-05' } })).toEqual(
      new Set(['Q1']),
    );
    expect(
      changedPairings(basis, { ...now, previous: undefined, window: { start: '2026-12-02', end: '2026-12-05' } }),
    ).toBeNull();
    expect(changedPairings(basis, { ...now, previous: undefined })).toEqual(new Set());
  });
});

describe('diffing only the changed pairings in a moved window, by example', () => {
  it('diffs a pairing whose layover checks in after midnight, on the day the window gained', () => {
    const flat = flattenRoster(
      build([
        {
          crew: ['E1'],
          duties: [
            {
              num: 1,
              date: '2026-12-04',
              legs: [],
              layover: { station: 'CDG', required: true, late: false, afterMidnight: true },
            },
          ],
        },
      ]),
    );
    expect(flat.layovers[0]!.checkin_time_local.slice(0, 10)).toBe('2026-12-05');
    const result = diffRoster({
      current: flat,
      previous: null,
      hotelBookings: [],
      flightBookings: [],
      window: WINDOW,
      settings: SETTINGS,
      processedAt: PROCESSED_AT,
    });
    // Checking in on 2026-12-05, outside the window: no item yet.
    expect(result.actionItems).toEqual([]);
    const basis = diffBasisOf(flat, result.actionItems, new Map(), WINDOW, '2026-11-19');
    const now = {
      flat,
      bookings: new Map<string, string>(),
      previous: result.nextState,
      window: { start: '2026-12-02', end: '2026-12-05' },
      cutoff: '2026-11-19',
      emitUnchanged: false,
    };
    expect(changedPairings(basis, now)).toEqual(new Set(['P0']));
  });
});

describe('row keys', () => {
  it('give back the pairing_number they hold, whatever the ids contain (pairingOfKey)', () => {
    const id = fc.string({ unit: fc.constantFrom('a', '|', '\\', 'Z', '1') });
    fc.assert(
      fc.property(id, id, fc.constantFrom(...DATES), fc.integer({ min: 1, max: 9 }), (employee, pairing, date, n) => {
        expect(pairingOfKey(layoverKey(employee, pairing, n))).toBe(pairing);
        expect(pairingOfKey(legKey(employee, pairing, date, n))).toBe(pairing);
      }),
    );
  });
});

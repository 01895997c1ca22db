import fc from 'fast-check';
import type { ScheduleSubmission } from '@crew/contracts';
import {
  diffRoster,
  diffRosterInParts,
  flattenRoster,
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
  linesOfState,
  stateLinesText,
  readInWindow,
  type RosterState,
} from '../src';
import { bookingsFor, SETTINGS, writtenBookings } from './fixtures';
import {
  WINDOW,
  DATES,
  PROCESSED_AT,
  rosterSpec,
  build,
  diff,
  hotelsArb,
  flightsArb,
  twoRostersAndBookings,
  inWindow,
  canonical,
  withoutRows,
} from './roster-arbitraries';

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

describe('the diff in parts (Postgres takes in rows while the diff is derived)', () => {
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

describe('settlesOnRerun (a byte-identical resubmission may skip the diff)', () => {
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

describe('the bookings a diff reads (readInWindow, the window read of the db package)', () => {
  const read = <B extends { duty_date?: string | null; checkin_time_local?: string }>(
    type: 'HOTEL' | 'FLIGHT',
    bookings: B[],
  ) =>
    bookings.filter((b) =>
      readInWindow({ type, duty_date: b.duty_date ?? null, checkin_time_local: b.checkin_time_local ?? null }, WINDOW),
    );

  it('hold every booking an item acts on', () => {
    fc.assert(
      fc.property(...twoRostersAndBookings, (day1, day2, hotels, flights, emit) => {
        const result = diff(build(day2), rosterState(flattenRoster(build(day1))), hotels, flights, emit);
        const readIds = new Set([...read('HOTEL', hotels), ...read('FLIGHT', flights)].map((b) => b.booking_id));
        for (const item of result.actionItems)
          if (item.booking_id !== null) expect(readIds.has(item.booking_id)).toBe(true);
      }),
    );
  });

  it('the same roster again, against the bookings its items created as the worker writes and reads them back, books nothing twice (spec rule 5)', () => {
    let afterMidnight = 0;
    fc.assert(
      fc.property(rosterSpec, rosterSpec, hotelsArb, flightsArb, (day1, spec, hotels, flights) => {
        const roster = build(spec);
        const first = diff(
          roster,
          rosterState(flattenRoster(build(day1))),
          read('HOTEL', hotels),
          read('FLIGHT', flights),
        );
        // Written as planDiffWrites writes them: a hotel booking dated by its duty period (anchors.duty_date).
        const written = writtenBookings(first.actionItems);
        afterMidnight += written.hotels.filter((b) => !b.checkin_time_local.startsWith(b.duty_date!)).length;
        const second = diff(
          roster,
          first.nextState,
          read('HOTEL', [...hotels, ...written.hotels]),
          read('FLIGHT', [...flights, ...written.flights]),
        );
        expect(second.actionItems.filter((i) => i.subtype === 'NEW_BOOKING')).toEqual([]);
      }),
      { numRuns: 300 },
    );
    // Layovers checking in after midnight, booked with the day before, are among them.
    expect(afterMidnight).toBeGreaterThan(10);
  });
});

describe('the stored roster state (rows as tuples instead of objects)', () => {
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

/** Diffing only the changed pairings: kept state lines, when the whole diff is asked for, and a moved window. */
import fc from 'fast-check';
import {
  cancellationCutoffOf,
  changedPairings,
  diffBasisOf,
  diffRoster,
  flattenRoster,
  rosterState,
  type FlightBookingActual,
  type HotelBookingActual,
  linesOfState,
  rewrittenPairings,
  rosterStateOfLines,
  stateLinesText,
} from '../src';
import { SETTINGS } from './fixtures';
import { WINDOW, PROCESSED_AT, type PairingSpec, build } from './roster-arbitraries';
import {
  SETTLED,
  fingerprints,
  named,
  mutated,
  dated,
  bookingDates,
  windowArb,
  twoDays,
  flattenWhole,
  firstRowsOf,
  yesterday,
  edited,
  rotated,
  SECOND_P0,
} from './changed-pairings-fixtures';

describe('diffing only the changed pairings (a resubmission diffs what changed)', () => {
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

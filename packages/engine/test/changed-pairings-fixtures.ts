/**
 * Two days of rosters, bookings and what happens between them, and the roster as its elements, for the
 * properties of diffing only the changed pairings (properties-changed-pairings*.test.ts).
 */
import fc from 'fast-check';
import type { Pairing, ScheduleSubmission } from '@crew/contracts';
import {
  cancellationCutoffOf,
  diffBasisOf,
  diffRoster,
  elementsOfWhole,
  flattenRoster,
  localDateOf,
  readInWindow,
  rosterState,
  type DiffBasis,
  type FlightBookingActual,
  type HotelBookingActual,
  linesOfState,
  pairingShapesOf,
  stateLinesOf,
  stateLinesText,
  type FlatRoster,
  type RosterElements,
} from '../src';
import { writtenBookings } from './fixtures';
import {
  WINDOW,
  PROCESSED_AT,
  type PairingSpec,
  pairingSpec,
  rosterSpec,
  build,
  hotelsArb,
  flightsArb,
} from './roster-arbitraries';

export type Booking = HotelBookingActual | FlightBookingActual;
export const SETTLED = { emit_unchanged: false, cancellation_lookback_days: 1 };

/** Stands for the database's fingerprint of a pairing_number's bookings: any change to one of them changes it. */
export function fingerprints(bookings: readonly Booking[]): Map<string, string> {
  const by = new Map<string, Booking[]>();
  for (const b of bookings)
    if (b.pairing_number !== null) by.set(b.pairing_number, [...(by.get(b.pairing_number) ?? []), b]);
  return new Map(
    [...by].map(([p, list]) => [p, JSON.stringify([...list].sort((a, b) => a.booking_id.localeCompare(b.booking_id)))]),
  );
}

/** A pairing of yesterday's roster today: kept, replaced by another, or dropped; plus pairings added, and the order shuffled. */
export const edit = fc.constantFrom('keep', 'keep', 'keep', 'replace', 'drop', 'crew' as const);
/** What happens to a booking between the two diffs (the airline, a reviewer or a supplier). */
export const touch = fc.constantFrom('none', 'none', 'none', 'cancel', 'override', 'delete', 'confirm' as const);

export function named(spec: PairingSpec[], names: string[]): ScheduleSubmission {
  const roster = build(spec);
  roster.pairings.forEach((p, i) => (p.pairing_number = names[i]!));
  return roster;
}

export function mutated<B extends Booking>(
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

/** What the database reads of the airline's bookings for a window (readInWindow). */
export const dated = <B extends Booking>(bookings: readonly B[], window: { start: string; end: string }) =>
  bookings.filter((b) =>
    readInWindow(
      'checkin_time_local' in b
        ? { type: 'HOTEL', duty_date: b.duty_date ?? null, checkin_time_local: b.checkin_time_local }
        : { type: 'FLIGHT', duty_date: b.duty_date, checkin_time_local: null },
      window,
    ),
  );

/** DiffBasisNow.bookingDates as the database gives them: per pairing_number, the first and last duty or check-in date. */
export function bookingDates(bookings: readonly Booking[]): Map<string, [string, string]> {
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
export const windowArb = fc.oneof(
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
export const twoDays = [
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

/** A roster as its elements, each named by its JSON (what the worker's hash of the element's bytes stands for), counting the parses. */
export function elementsOf(roster: ScheduleSubmission): RosterElements & { parses: number } {
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
export function flattenWhole(roster: ScheduleSubmission) {
  const flat = flattenRoster(roster);
  const { elements, pairingContents } = elementsOfWhole(elementsOf(roster), pairingShapesOf(roster.pairings), flat);
  return { flat: { ...flat, pairingContents }, elements };
}

/** Each pairing_number's first row, in roster order. */
export const firstRowsOf = (flat: FlatRoster) => new Map(flat.pairings.map((p) => [p.pairing_number, p.first_row]));

/**
 * Yesterday: a roster diffed whole (element contents its pairings' JSON) against the day before's state and the
 * airline's bookings, the bookings its items made, the basis it left and its state stored as lines.
 */
export function yesterday(
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
export function edited(
  day1: PairingSpec[],
  edits: readonly string[],
  replacements: PairingSpec[],
  added: PairingSpec[],
) {
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
export function rotated(spec: PairingSpec[], names: string[], shuffle: number): [PairingSpec[], string[]] {
  const k = spec.length ? shuffle % spec.length : 0;
  return [
    [...spec.slice(k), ...spec.slice(0, k)],
    [...names.slice(k), ...names.slice(0, k)],
  ];
}

/** A pairing object with rows of its own inside the window (a crew member no other object has). */
export const SECOND_P0: PairingSpec = {
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

/** Diffing only the changed pairings derives what the whole diff derives (properties over two days of rosters). */
import fc from 'fast-check';
import {
  cancellationCutoffOf,
  changedPairings,
  diffBasisOf,
  diffRoster,
  flattenElements,
  knownElements,
  linesOfState,
  rosterStateOfLines,
  stateLinesText,
} from '../src';
import { WINDOW, PROCESSED_AT, canonical } from './roster-arbitraries';
import {
  SETTLED,
  fingerprints,
  named,
  mutated,
  dated,
  bookingDates,
  windowArb,
  twoDays,
  elementsOf,
  flattenWhole,
  firstRowsOf,
  yesterday,
  edited,
  rotated,
} from './changed-pairings-fixtures';

describe('diffing only the changed pairings (a resubmission diffs what changed)', () => {
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
    // Unchanged pairings must be skipped often enough for the property to say something: 97-150 runs of the
    // 1000 skip some, by the seed (97 seen once in CI), so at least 50.
    expect(skippedSome).toBeGreaterThanOrEqual(50);
    expect(parsedFewer).toBe(skippedSome);
  });
});

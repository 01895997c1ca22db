import fc from 'fast-check';
import { generateRoster, mutateRoster } from '@crew/roster-generator';
import {
  diffRoster,
  flattenRoster,
  nextRosterState,
  settlesOnRerun,
  type HotelBookingActual,
  type RosterState,
} from '../src';
import { bookingsFor, writtenBookings } from './fixtures';

/*
 * The resubmission shortcut on rosters from the generator (properties.test.ts has the same property on
 * tiny hand-shaped rosters around a short window): when a diff settles, diffing the same roster again, at a
 * later time, against the state it returned (stored as JSON) and the bookings as the worker writes them,
 * derives nothing and keeps the state.
 */

const START = '2027-03-01';

it('a settled diff of a generated roster, re-run later against its stored state and written bookings, derives nothing', () => {
  let held = 0;
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.integer({ min: 5, max: 40 }),
      fc.double({ min: 0, max: 0.5, noNaN: true }),
      // Share of the earlier roster's bookings kept, and how many of those are cancelled or locked.
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 0, max: 5 }),
      fc.integer({ min: -20, max: 40 }),
      fc.integer({ min: 0, max: 10 }),
      (seed, pairings, fraction, kept, odd, processedDay, laterDays) => {
        const earlier = generateRoster({ pairings, seed, startDate: START, days: 14, crewPool: pairings * 2 });
        const roster = mutateRoster(earlier, { fraction, seed: seed + 1 });
        const earlierFlat = flattenRoster(earlier);
        const b = bookingsFor(earlierFlat);
        const hotels = b.hotelBookings
          .slice(0, Math.round(kept * b.hotelBookings.length))
          .map<HotelBookingActual>((h, i) =>
            i < odd ? { ...h, status: i % 2 ? 'CANCELLED' : 'CONFIRMED', manual_override: i % 2 === 0 } : h,
          );
        const flights = b.flightBookings.slice(0, Math.round(kept * b.flightBookings.length));
        const window = { start: roster.schedule_start_date, end: roster.schedule_end_date };
        const previous = nextRosterState(
          { deadheads: [], layovers: [], pairings: [] },
          earlierFlat,
          window,
          new Set(earlierFlat.flaggedKeys),
        );
        const settings = { emit_unchanged: false, cancellation_lookback_days: odd };
        const processedAt = new Date(Date.parse(`${START}T00:00:00Z`) + processedDay * 86_400_000).toISOString();
        const first = diffRoster({
          current: flattenRoster(roster),
          previous,
          hotelBookings: hotels,
          flightBookings: flights,
          window,
          settings,
          processedAt,
        });
        fc.pre(
          settlesOnRerun(first.actionItems, window) &&
            first.actionItems.every((i) => i.type === 'HOTEL' || i.subtype === 'NEW_BOOKING' || i.booking_id === null),
        );
        const w = writtenBookings(first.actionItems);
        const later = new Date(Date.parse(processedAt) + laterDays * 86_400_000).toISOString();
        const stored = JSON.parse(JSON.stringify(first.nextState)) as RosterState;
        const second = diffRoster({
          current: flattenRoster(roster),
          previous: stored,
          hotelBookings: [...hotels, ...w.hotels],
          flightBookings: [...flights, ...w.flights],
          window,
          settings,
          processedAt: later,
        });
        expect(second.actionItems).toEqual([]);
        expect(second.nextState).toEqual(first.nextState);
        held++;
      },
    ),
    { numRuns: 60 },
  );
  expect(held).toBeGreaterThan(5);
});

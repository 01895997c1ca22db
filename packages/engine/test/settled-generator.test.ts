import fc from 'fast-check';
import { generateRoster, mutateRoster } from '@crew/roster-generator';
import {
  diffRoster,
  flattenRoster,
  nextRosterState,
  settlesOnRerun,
  type DerivedActionItem,
  type FlightBookingActual,
  type FlightItemDetails,
  type HotelBookingActual,
  type HotelItemDetails,
  type RosterState,
} from '../src';
import { bookingsFor } from './fixtures';

/*
 * Issue 12's resubmission shortcut on rosters from the generator (properties.test.ts has the same property on
 * tiny hand-shaped rosters around a short window): when a diff settles, diffing the same roster again, at a
 * later time, against the state it returned (stored as JSON) and the bookings as the worker writes them,
 * derives nothing and keeps the state.
 */

const START = '2027-03-01';

/** The bookings planDiffWrites creates for the NEW items (one each, with the item's key, stay or leg and anchors). */
function written(items: DerivedActionItem[]): { hotels: HotelBookingActual[]; flights: FlightBookingActual[] } {
  const hotels: HotelBookingActual[] = [];
  const flights: FlightBookingActual[] = [];
  items
    .filter((i) => i.subtype === 'NEW_BOOKING')
    .forEach((i, n) => {
      const base = {
        booking_id: `NEW-${n}`,
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
          .map<HotelBookingActual>((h, i) => (i < odd ? { ...h, status: i % 2 ? 'CANCELLED' : 'CONFIRMED', manual_override: i % 2 === 0 } : h));
        const flights = b.flightBookings.slice(0, Math.round(kept * b.flightBookings.length));
        const window = { start: roster.schedule_start_date, end: roster.schedule_end_date };
        const previous = nextRosterState({ deadheads: [], layovers: [], pairings: [] }, earlierFlat, window, new Set(earlierFlat.flaggedKeys));
        const settings = { emit_unchanged: false, cancellation_lookback_days: odd };
        const processedAt = new Date(Date.parse(`${START}T00:00:00Z`) + processedDay * 86_400_000).toISOString();
        const first = diffRoster({ current: flattenRoster(roster), previous, hotelBookings: hotels, flightBookings: flights, window, settings, processedAt });
        fc.pre(settlesOnRerun(first.actionItems, window) && first.actionItems.every((i) => i.type === 'HOTEL' || i.subtype === 'NEW_BOOKING' || i.booking_id === null));
        const w = written(first.actionItems);
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

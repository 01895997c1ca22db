/**
 * Flight inventory for any pair of 3-letter codes on any date. The route (from, to) seeds which carriers
 * fly it, their flight numbers, departure times and durations — a timetable that repeats daily; the date
 * seeds the fares. Nothing depends on the process, so the same search always yields the same flights.
 */
import { Rng } from '@crew/platform';
import { airportTimeZone, distanceKm } from './airports';
import type { Cabin, FlightSegment } from './schemas';
import { dateMs, isoWithOffset, localToUtc } from './time';

export interface CarrierInfo {
  code: string;
  name: string;
  /** IATA accounting code: the first three digits of the carrier's ticket numbers. */
  ticketPrefix: string;
}

export const CARRIERS: readonly CarrierInfo[] = [
  { code: 'AA', name: 'American Airlines', ticketPrefix: '001' },
  { code: 'DL', name: 'Delta Air Lines', ticketPrefix: '006' },
  { code: 'AC', name: 'Air Canada', ticketPrefix: '014' },
  { code: 'UA', name: 'United Airlines', ticketPrefix: '016' },
  { code: 'AF', name: 'Air France', ticketPrefix: '057' },
  { code: 'KL', name: 'KLM', ticketPrefix: '074' },
  { code: 'IB', name: 'Iberia', ticketPrefix: '075' },
  { code: 'BA', name: 'British Airways', ticketPrefix: '125' },
  { code: 'QR', name: 'Qatar Airways', ticketPrefix: '157' },
  { code: 'CX', name: 'Cathay Pacific', ticketPrefix: '160' },
  { code: 'EK', name: 'Emirates', ticketPrefix: '176' },
  { code: 'NH', name: 'All Nippon Airways', ticketPrefix: '205' },
  { code: 'LH', name: 'Lufthansa', ticketPrefix: '220' },
  { code: 'TK', name: 'Turkish Airlines', ticketPrefix: '235' },
  { code: 'SQ', name: 'Singapore Airlines', ticketPrefix: '618' },
  { code: 'LX', name: 'Swiss', ticketPrefix: '724' },
];

const CARRIER_BY_CODE = new Map(CARRIERS.map((c) => [c.code, c]));

export function findCarrier(code: string): CarrierInfo | undefined {
  return CARRIER_BY_CODE.get(code);
}

/** Fare of each cabin against economy. */
const CABIN_FACTOR: Record<Cabin, number> = { ECONOMY: 1, PREMIUM_ECONOMY: 1.7, BUSINESS: 3.6, FIRST: 6.5 };

/** Flights are priced in the sandbox's point-of-sale currency, whatever the route. */
export const FARE_CURRENCY = 'USD';

interface Departure {
  carrier: string;
  flightNumber: string;
  /** Minutes after local midnight at the origin. */
  depMinutes: number;
  durationMinutes: number;
  cabins: Cabin[];
}

function round5(minutes: number): number {
  return Math.round(minutes / 5) * 5;
}

/** The daily timetable of a route: 6 to 9 departures between 06:00 and about 22:30, from 4 to 6 carriers. */
function timetable(from: string, to: string): { departures: Departure[]; km: number } {
  const rng = new Rng(`route:${from}-${to}`);
  // Outside the airport table there are no coordinates: a seeded distance stands in.
  const km = distanceKm(from, to) ?? rng.between(300, 9000);
  const carriers = rng.shuffle(CARRIERS).slice(0, rng.int(4, 6));
  const count = rng.int(6, 9);
  const spacing = 990 / count;
  const blockMinutes = 30 + km / 13.5; // about 810 km/h plus taxi time
  const numbers = new Set<string>();
  const departures: Departure[] = [];
  for (let i = 0; i < count; i++) {
    const carrier = carriers[i % carriers.length]!.code;
    let flightNumber = `${carrier}${rng.int(10, 9899)}`;
    while (numbers.has(flightNumber)) flightNumber = `${carrier}${rng.int(10, 9899)}`;
    numbers.add(flightNumber);
    const cabins: Cabin[] = ['ECONOMY'];
    if (blockMinutes >= 150 || i % 2 === 0) cabins.push('PREMIUM_ECONOMY');
    cabins.push('BUSINESS');
    if (i % 3 === 0) cabins.push('FIRST');
    departures.push({
      carrier,
      flightNumber,
      depMinutes: round5(360 + i * spacing + rng.between(0, spacing * 0.6)),
      durationMinutes: Math.max(30, round5(blockMinutes + rng.between(-10, 10))),
      cabins,
    });
  }
  return { departures, km };
}

/** A flight offer's content: everything but its id and expiry, which depend on when it was searched. */
export interface OfferContent extends FlightSegment {
  price: { amount: number; currency: string };
}

/** All offers of a route on a date (local at the origin), ordered by departure then cabin. */
export function flightOffersFor(from: string, to: string, date: string): OfferContent[] {
  const { departures, km } = timetable(from, to);
  const fares = new Rng(`fares:${from}-${to}-${date}`);
  const fromZone = airportTimeZone(from);
  const toZone = airportTimeZone(to);
  const economyBase = 45 + km * 0.085;
  const offers: OfferContent[] = [];
  for (const d of departures) {
    const demand = fares.between(0.85, 1.35);
    const depUtc = localToUtc(fromZone, dateMs(date) + d.depMinutes * 60000);
    const arrUtc = depUtc + d.durationMinutes * 60000;
    for (const cabin of d.cabins) {
      offers.push({
        airline_code: d.carrier,
        flight_number: d.flightNumber,
        from_airport: from,
        to_airport: to,
        dep_time: isoWithOffset(fromZone, depUtc),
        arr_time: isoWithOffset(toZone, arrUtc),
        duration_minutes: d.durationMinutes,
        cabin,
        price: { amount: Math.round(economyBase * demand * CABIN_FACTOR[cabin]), currency: FARE_CURRENCY },
      });
    }
  }
  // Departures are generated in time order and cabins in CABINS order, so no sort is needed.
  return offers;
}

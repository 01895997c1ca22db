/**
 * Duffel Stays accommodation at every airport of the sandbox's table, beside the hand-written few of
 * ./stays-inventory (whose ids do not change): one crew hotel per airport, generated from a PRNG seeded by the
 * airport code, so the id (`acc_0000AgZitpOhS<IATA>stay01`), the name and the rates are the same in every
 * process and every run. Prices follow the country's level and currency, weekend nights cheaper.
 */
import { AIRPORTS, countryPricing, type AirportInfo } from '../airports';
import { roundRate } from '../hotels';
import { Prng } from '../random';
import type { SimAccommodation } from './stays-inventory';

const CHAINS = ['Crewline Hotels', 'Escale', 'Layover Lodges', 'Aerostay'] as const;
const TAXES = [0.05, 0.07, 0.1, 0.12, 0.15, 0.2] as const;

/** The generated accommodation id of an airport. */
export const airportAccommodationId = (code: string): string => `acc_0000AgZitpOhS${code}stay01`;

function accommodationAt(airport: AirportInfo): SimAccommodation {
  const rng = new Prng(`stays:${airport.code}`);
  const pricing = countryPricing(airport.country);
  const weekday = roundRate(pricing.nightlyUsd * pricing.perUsd * rng.between(0.85, 1.1));
  return {
    id: airportAccommodationId(airport.code),
    name: `${airport.city} ${airport.code} Crew Stay`,
    airport: airport.code,
    chain: rng.pick(CHAINS),
    currency: pricing.currency,
    weekday,
    weekend: roundRate(weekday * 0.85),
    tax: rng.pick(TAXES),
    dLat: Math.round(rng.between(-0.03, 0.03) * 1000) / 1000,
    dLon: Math.round(rng.between(-0.03, 0.03) * 1000) / 1000,
  };
}

export const AIRPORT_ACCOMMODATIONS: readonly SimAccommodation[] = Object.freeze(AIRPORTS.map((a) => Object.freeze(accommodationAt(a))));

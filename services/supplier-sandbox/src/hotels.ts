/**
 * The GDS hotel inventory: 3 to 5 hotels near every airport of the table, generated from a PRNG seeded by
 * the airport code, so ids, names and public rates are the same in every process and every run.
 */
import { Rng } from '@crew/platform';
import { AIRPORTS, countryPricing, type AirportInfo } from './airports';
import type { HotelProperty } from './schemas';

interface Chain {
  code: string;
  brand: string;
  /** Price multiplier against the country's mid-range level. */
  tier: number;
}

const CHAINS: readonly Chain[] = [
  { code: 'IC', brand: 'InterContinental', tier: 1.5 },
  { code: 'HY', brand: 'Hyatt Regency', tier: 1.35 },
  { code: 'WI', brand: 'Westin', tier: 1.3 },
  { code: 'HH', brand: 'Hilton', tier: 1.25 },
  { code: 'MC', brand: 'Marriott', tier: 1.25 },
  { code: 'SI', brand: 'Sheraton', tier: 1.2 },
  { code: 'PU', brand: 'Pullman', tier: 1.2 },
  { code: 'CP', brand: 'Crowne Plaza', tier: 1.05 },
  { code: 'RD', brand: 'Radisson Blu', tier: 1.05 },
  { code: 'NO', brand: 'Novotel', tier: 0.95 },
  { code: 'CY', brand: 'Courtyard', tier: 0.95 },
  { code: 'HI', brand: 'Holiday Inn', tier: 0.9 },
  { code: 'ME', brand: 'Mercure', tier: 0.9 },
  { code: 'HX', brand: 'Hampton Inn', tier: 0.85 },
  { code: 'BW', brand: 'Best Western', tier: 0.8 },
  { code: 'IB', brand: 'ibis', tier: 0.65 },
];

/** Where a hotel sits: the first is always at the airport; the rest mix airport and city locations. */
const LOCATIONS = [
  { suffix: 'Airport', km: [0.4, 3] as const, premium: 1 },
  { suffix: 'Airport', km: [1, 5] as const, premium: 0.95 },
  { suffix: 'City Centre', km: [12, 35] as const, premium: 1.1 },
  { suffix: 'Downtown', km: [10, 30] as const, premium: 1.08 },
  { suffix: 'Gateway', km: [5, 20] as const, premium: 1.02 },
];

/** Rounds a rate to a price a hotel would publish: whole units, three significant digits above 1000. */
export function roundRate(amount: number): number {
  if (amount < 1000) return Math.max(1, Math.round(amount));
  const step = 10 ** (Math.floor(Math.log10(amount)) - 2);
  return Math.round(amount / step) * step;
}

function airportsPerCity(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of AIRPORTS) counts.set(a.city, (counts.get(a.city) ?? 0) + 1);
  return counts;
}

function hotelsFor(airport: AirportInfo, cityAirports: number, usedNames: Set<string>): HotelProperty[] {
  const rng = new Rng(`hotels:${airport.code}`);
  const pricing = countryPricing(airport.country);
  const count = rng.int(3, 5);
  const chains = rng.shuffle(CHAINS).slice(0, count);
  // Cities with several airports name airport hotels by code, so names stay unique (London LHR / LGW / STN).
  const airportLabel = cityAirports > 1 ? `${airport.city} ${airport.code}` : airport.city;
  return chains.map((chain, i) => {
    const location = i === 0 ? LOCATIONS[0]! : rng.pick(LOCATIONS);
    const place = location.suffix === 'Airport' ? `${airportLabel} Airport` : `${airport.city} ${location.suffix}`;
    let name = `${chain.brand} ${place}`;
    if (usedNames.has(name)) name = `${chain.brand} ${airportLabel} ${location.suffix}`;
    usedNames.add(name);
    const usd = pricing.nightlyUsd * chain.tier * location.premium * rng.between(0.9, 1.15);
    return {
      property_id: `GDS-${airport.code}-${String(i + 1).padStart(3, '0')}`,
      name,
      chain: chain.code,
      chain_name: chain.brand,
      city: airport.city,
      country: airport.country,
      airport_code: airport.code,
      timezone: airport.timezone,
      distance_km: Math.round(rng.between(location.km[0], location.km[1]) * 10) / 10,
      nightly_rate: { amount: roundRate(usd * pricing.perUsd), currency: pricing.currency },
    };
  });
}

/** Builds the whole inventory; a pure function, called once at module load. */
export function buildHotelInventory(): HotelProperty[] {
  const perCity = airportsPerCity();
  const usedNames = new Set<string>();
  return AIRPORTS.flatMap((a) => hotelsFor(a, perCity.get(a.city) ?? 1, usedNames));
}

export const HOTELS: readonly HotelProperty[] = Object.freeze(buildHotelInventory().map((h) => Object.freeze(h)));
const BY_ID = new Map(HOTELS.map((h) => [h.property_id, h]));
/** Search answers in property_id order, so a keyset cursor (`after`) pages through them stably. */
const BY_ID_ORDER = [...HOTELS].sort((a, b) => (a.property_id < b.property_id ? -1 : 1));

export function findHotel(propertyId: string): HotelProperty | undefined {
  return BY_ID.get(propertyId);
}

export interface HotelFilter {
  name?: string;
  city?: string;
  airport_code?: string;
}

/** The union of the given filters (name and city partial and case-insensitive, airport exact), each hotel once. */
export function searchHotels(filter: HotelFilter, after?: string): HotelProperty[] {
  const name = filter.name?.toLowerCase();
  const city = filter.city?.toLowerCase();
  return BY_ID_ORDER.filter(
    (h) =>
      (after === undefined || h.property_id > after) &&
      ((name !== undefined && h.name.toLowerCase().includes(name)) ||
        (city !== undefined && h.city.toLowerCase().includes(city)) ||
        (filter.airport_code !== undefined && h.airport_code === filter.airport_code)),
  );
}

/** The urgency benchmark's airlines: their hotels contracted on either supplier path, and their small rosters. */
import { flattenRoster } from '@crew/engine';
import { generateRoster } from '@crew/roster-generator';
import type { StackUrls, Tenant } from '../lib/client';
import { stayRatePeriods, type SupplierPath } from '../lib/duffel-path';
import { contractHotels, gdsHotel, gdsStations, setBookerEmail, type StationHotel } from '../lib/hotels';
import { START_DATE, STAY_FROM, STAY_TO } from './options';

/** The station's Stays accommodation, contracted at its own base amounts night by night over the bench's stays. */
function stayHotel(station: string): StationHotel {
  const stay = stayRatePeriods(station, STAY_FROM, STAY_TO);
  return { propertyId: stay.propertyId, contractFrom: STAY_FROM, contractTo: STAY_TO, ratePeriods: stay.periods };
}

/**
 * Contract the airline's hotel at each station (enabled) and set a booking account: the sandbox's first GDS
 * hotel at one rate period, or (duffel) the station's Stays accommodation at its own base amounts night by night.
 */
export async function contract(
  urls: StackUrls,
  tenant: Tenant,
  sandboxUrl: string,
  wanted: string[],
  path: SupplierPath = 'sandbox',
): Promise<string[]> {
  await setBookerEmail(tenant, 'booker@bench.test');
  const { stations } = await gdsStations(sandboxUrl, wanted);
  await contractHotels(urls, tenant, stations, 'U-', path === 'duffel' ? stayHotel : gdsHotel);
  return stations;
}

/** The smallest generated roster with exactly `n` layovers (deterministic: the first seed that gives n). */
export function smallRoster(n: number, carrier: string) {
  for (let seed = 1; seed < 500; seed++) {
    const r = generateRoster({
      pairings: 2,
      days: 10,
      crewPool: 4,
      seed,
      startDate: START_DATE,
      carrier,
      deadheadFraction: 0,
    });
    if (flattenRoster(r).layovers.length === n) return r;
  }
  throw new Error(`no small roster with ${n} layovers`);
}

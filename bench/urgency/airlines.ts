/** The urgency benchmark's airlines: set up to book their work by themselves on either supplier path. */
import type { ScheduleSubmission } from '@crew/contracts';
import { flattenRoster } from '@crew/engine';
import { expectStatus, http, type StackUrls, type Tenant } from '../lib/client';
import { stayRatePeriods, type SupplierPath } from '../lib/duffel-path';
import { contractHotels, gdsHotel, gdsStations, setBookerEmail, type StationHotel } from '../lib/hotels';
import { DEADHEADS, STAY_FROM, STAY_TO } from './options';

/** The station's Stays accommodation, contracted at its own base amounts night by night over the bench's stays. */
function stayHotel(station: string): StationHotel {
  const stay = stayRatePeriods(station, STAY_FROM, STAY_TO);
  return { propertyId: stay.propertyId, contractFrom: STAY_FROM, contractTo: STAY_TO, ratePeriods: stay.periods };
}

/**
 * Contract the airline's hotel at each station (enabled) and set a booking account: the sandbox's first GDS
 * hotel at one rate period, or (duffel) the station's Stays accommodation at its own base amounts night by night.
 */
async function contract(
  urls: StackUrls,
  tenant: Tenant,
  sandboxUrl: string,
  wanted: string[],
  path: SupplierPath,
): Promise<string[]> {
  await setBookerEmail(tenant, 'booker@bench.test');
  const { stations } = await gdsStations(sandboxUrl, wanted);
  await contractHotels(urls, tenant, stations, 'U-', path === 'duffel' ? stayHotel : gdsHotel);
  return stations;
}

/**
 * What deadheads need to be booked by the worker without a person: a booking account, the operator's deadhead
 * auto-booking lever (off: every NEW_DEADHEAD is held for review with BOOK_MANUALLY) and a flight config
 * (economy, no carrier preferred or barred: the default, written out; Duffel searches its preferred cabin).
 * No fare ceiling (auto_book_max_price) is set. The traveller's date of birth is in the profiles (putProfiles).
 */
async function enableDeadheads(urls: StackUrls, tenant: Tenant): Promise<void> {
  await setBookerEmail(tenant, 'booker@bench.test');
  const lever = await http(`${urls.apiUrl}/ops/v1/airlines/${tenant.airlineId}/settings`, {
    method: 'PATCH',
    token: urls.opsToken,
    body: { deadhead_auto_booking: true },
  });
  expectStatus(lever, 200, 'settings (deadhead_auto_booking)');
  const config = await tenant.api('/crew/config/flights', {
    method: 'PUT',
    body: {
      preferred_airlines: [],
      blacklisted_airlines: [],
      preferred_cabin: 'ECONOMY',
      same_carrier_preference: false,
    },
  });
  expectStatus(config, 200, 'PUT /crew/config/flights');
}

/** An airline as set up for the bench's work. */
export interface Prepared {
  /** Rows of its roster that become booking items (layovers or deadheads), and those it books by itself. */
  rows: number;
  bookable: number;
  /** Where one of its injections can be booked: its first contracted station, or its first deadhead's origin. */
  station: string;
}

/**
 * Sets the airline up to book its roster's work by itself: hotels contracted at the roster's layover stations
 * and at `alsoAt` (its injections'), or deadheads enabled.
 */
export async function prepareAirline(
  urls: StackUrls,
  tenant: Tenant,
  sandboxUrl: string,
  roster: ScheduleSubmission,
  path: SupplierPath,
  alsoAt: string[] = [],
): Promise<Prepared> {
  const { deadheads, layovers } = flattenRoster(roster);
  if (DEADHEADS) {
    await enableDeadheads(urls, tenant);
    return { rows: deadheads.length, bookable: deadheads.length, station: deadheads[0]!.from_airport };
  }
  const stations = await contract(urls, tenant, sandboxUrl, [...layovers.map((l) => l.station), ...alsoAt], path);
  const bookable = layovers.filter((l) => stations.includes(l.station)).length;
  return { rows: layovers.length, bookable, station: stations[0]! };
}

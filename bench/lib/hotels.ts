/**
 * An airline's hotel set-up through its own API, as an airline would do it: a crew booker e-mail (bookings need
 * one), per station one FLEXIBLE hotel (flex window 1440 min) with a contract and its rate periods, enabled by a
 * change request the operator approves.
 */
import { expectStatus, http, type StackUrls, type Tenant } from './client';

export interface RatePeriod {
  effective_from: string;
  effective_to: string;
  rate: { amount: number; currency: string };
}

/** The hotel contracted at a station: a property, the contract's dates and its rate periods. */
export interface StationHotel {
  propertyId: string;
  contractFrom: string;
  contractTo: string;
  ratePeriods: RatePeriod[];
}

/** The sandbox's first GDS hotel of the station, contracted for 2027 at 150 USD a night. */
export function gdsHotel(station: string): StationHotel {
  return {
    propertyId: `GDS-${station}-001`,
    contractFrom: '2027-01-01',
    contractTo: '2027-12-31',
    ratePeriods: [{ effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 150, currency: 'USD' } }],
  };
}

/** The wanted stations (sorted, once each) the sandbox has a GDS hotel at, and those it does not know. */
export async function gdsStations(
  sandboxUrl: string,
  wanted: string[],
): Promise<{ stations: string[]; skipped: string[] }> {
  const stations: string[] = [];
  const skipped: string[] = [];
  for (const s of [...new Set(wanted)].sort()) {
    const res = await http(`${sandboxUrl}/hotels/GDS-${s}-001`);
    if (res.status === 200) stations.push(s);
    else if (res.status === 404) skipped.push(s);
    else throw new Error(`sandbox GET /hotels/GDS-${s}-001: ${res.status} ${res.text}`);
  }
  return { stations, skipped };
}

export async function setBookerEmail(tenant: Tenant, email: string): Promise<void> {
  expectStatus(
    await tenant.api('/crew/config/company', { method: 'PUT', body: { crew_booker_email: email } }),
    200,
    'company config',
  );
}

/** Contracts `hotelAt(station)` at every station and enables it; `contractPrefix` starts each contract number. */
export async function contractHotels(
  urls: StackUrls,
  tenant: Tenant,
  stations: string[],
  contractPrefix: string,
  hotelAt: (station: string) => StationHotel = gdsHotel,
): Promise<void> {
  const cfg = await tenant.api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: stations.map((s) => ({
        base_station: s,
        hotels: [{ property_id: hotelAt(s).propertyId, policy: 'FLEXIBLE', flex_window_minutes: 1440 }],
      })),
    },
  });
  expectStatus(cfg, 200, 'PUT /crew/config/hotels');
  for (const base of cfg.body.bases as { base_station: string; hotels: { hotel_config_id: number }[] }[]) {
    const hotel = hotelAt(base.base_station);
    const hotelId = base.hotels[0]!.hotel_config_id;
    const c = await tenant.api(`/crew/config/hotels/${hotelId}/contracts`, {
      method: 'POST',
      body: {
        contract_number: `${contractPrefix}${base.base_station}`,
        contract_from: hotel.contractFrom,
        contract_to: hotel.contractTo,
      },
    });
    expectStatus(c, 201, `contract ${base.base_station}`);
    const rates = await tenant.api(`/crew/config/hotels/${hotelId}/contracts/${c.body.contract_id}/rates`, {
      method: 'PUT',
      body: { rate_periods: hotel.ratePeriods },
    });
    expectStatus(rates, 200, `rates ${base.base_station}`);
    const cr = await tenant.api('/crew/config/hotels/change-requests', {
      method: 'POST',
      body: { contract_id: c.body.contract_id, intent: 'ENABLE' },
    });
    expectStatus(cr, 201, `change request ${base.base_station}`);
    const decided = await http(`${urls.apiUrl}/ops/v1/change-requests/${cr.body.request_id}/decide`, {
      method: 'POST',
      token: urls.opsToken,
      body: { decision: 'APPROVED', decided_by: 'bench@crew.travel' },
    });
    expectStatus(decided, 200, `decide ${base.base_station}`);
  }
}

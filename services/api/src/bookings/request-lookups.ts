import { ErrorCode, type ActionInjectionBody, type BookingRequestBody } from '@crew/contracts';
import { configRepo, type Db } from '@crew/db';
import { cityNamesStation, isStationCode, resolveCityStation, type StationHotel } from '@crew/engine';
import { ApiError } from '@crew/platform';
import {
  isSupplierError,
  offerInOrder,
  type AirlineSupplierSet,
  type FlightOffer,
  type SupplierName,
  type Suppliers,
} from '@crew/suppliers';

/*
 * What an airline's request (POST /crew/action-items, POST /crew/bookings/request) is looked up against before
 * its booking is made: the station of a hotel request, and the offer a commit names.
 */

type RequestBody = ActionInjectionBody | BookingRequestBody;

/** A supplier that cannot answer a lookup the request needs: 503, the client retries. */
function supplierUnavailable(err: unknown): never {
  if (isSupplierError(err) && err.kind === 'transient')
    throw new ApiError(503, ErrorCode.SERVICE_UNAVAILABLE, 'The supplier cannot be reached right now; retry shortly');
  throw err;
}

/** The airports the hotel directory lists under exactly this city name (case-insensitive). */
async function stationsOfCity(suppliers: Suppliers, city: string): Promise<string[]> {
  const page = await suppliers.hotels.searchHotels({ city, limit: 200 }).catch(supplierUnavailable);
  const name = city.toLowerCase();
  return page.hotels.filter((h) => h.city.toLowerCase() === name).map((h) => h.airport_code);
}

/** The station of a hotel request: its pinned property's, checked against `city`, or the one `city` names. */
export async function stationOf(
  deps: { db: Db; suppliers: Suppliers },
  airlineId: string,
  body: RequestBody,
  hotels: ReadonlyMap<string, StationHotel>,
): Promise<string> {
  const h = body.hotel!;
  const cityStations = h.city && !isStationCode(h.city) ? await stationsOfCity(deps.suppliers, h.city) : [];
  if (h.property_id) {
    let station: string | undefined;
    for (const s of hotels.values()) if (s.property_id === h.property_id) station = s.station;
    station ??= (await configRepo.currentHotels(deps.db, airlineId)).find(
      (c) => c.property_id === h.property_id,
    )?.base_station;
    station ??= (await deps.suppliers.hotels.getProperty(h.property_id).catch(supplierUnavailable))?.airport_code;
    if (station) {
      if (h.city && !cityNamesStation(h.city, station, cityStations)) {
        throw ApiError.validation(
          [{ field: '/hotel/city', issue: `does not match the station of property ${h.property_id} (${station})` }],
          'hotel.city and hotel.property_id disagree',
        );
      }
      return station;
    }
    if (!h.city)
      throw ApiError.validation([
        {
          field: '/hotel/property_id',
          issue: 'is neither a hotel of this airline’s configuration nor in the hotel directory; give hotel.city',
        },
      ]);
  }
  const bases = (await configRepo.currentHotels(deps.db, airlineId)).map((c) => c.base_station);
  const resolved = resolveCityStation(h.city!, cityStations, bases);
  if (!resolved.ok) throw ApiError.validation([{ field: '/hotel/city', issue: resolved.issue }]);
  return resolved.station;
}

/**
 * The offer a committed flight_option_id names, and the supplier of the airline's order that issued it (the
 * one the worker must book it at): suppliers know their offers, so a commit needs no date or route of its
 * own. Null when no supplier can say (unknown id, or one unreachable while the body gives a date).
 */
export async function committedOffer(
  set: AirlineSupplierSet,
  body: RequestBody,
): Promise<{ offer: FlightOffer; supplier: SupplierName } | null> {
  const optionId = (body.flight as { flight_option_id?: string } | undefined)?.flight_option_id;
  if (!optionId) return null;
  const dated = Boolean(body.anchors.duty_date || body.flight?.depart_date);
  const found = await offerInOrder(set, optionId).catch((err) => (dated ? null : supplierUnavailable(err)));
  if (!found && !dated)
    throw ApiError.validation([
      {
        field: '/flight/flight_option_id',
        issue: 'is not an offer of the flights supplier (search GET /crew/flight-options)',
      },
    ]);
  return found ? { offer: found.offer, supplier: found.supplier.name } : null;
}

import {
  FlightOptionsQuery,
  FlightOptionsResult,
  HotelSearchQuery,
  HotelSearchResult,
  requiredScope,
} from '@crew/contracts';
import { ApiError, decodeCursor, encodeCursor, errorResponses, route, type RouteSpec } from '@crew/platform';
import type { Suppliers } from '@crew/suppliers';
import { principal } from '../auth/guard';
import { flightOptions, supplierFailure, type FlightOptionsDeps } from './flight-options.service';

/**
 * `suppliers`: the global directory (GET /hotels); `deps`: each airline's ordered flight suppliers and flight policy.
 */
export function searchRoutes(suppliers: Suppliers, deps: FlightOptionsDeps): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/hotels',
      operationId: 'searchHotels',
      summary: 'Search the GDS inventory (name, city, airport_code; unioned, de-duplicated, sorted by property_id)',
      tags: ['Hotel directory'],
      auth: requiredScope('get', '/hotels'),
      query: HotelSearchQuery,
      responses: { 200: { description: 'Hotels', schema: HotelSearchResult }, ...errorResponses([400, 401, 403, 503]) },
      handler: async ({ query }) => {
        if (!query.name && !query.city && !query.airport_code) {
          throw ApiError.invalid('At least one of name, city, airport_code is required', [
            { field: 'query', issue: 'no filter given' },
          ]);
        }
        const after = decodeCursor<{ after: string }>(query.cursor, (v) => typeof v.after === 'string');
        const page = await suppliers.hotels
          .searchHotels({
            name: query.name,
            city: query.city,
            airport_code: query.airport_code?.toUpperCase(),
            limit: query.limit ?? 50,
            after: after?.after,
          })
          .catch(supplierFailure);
        const hotels = page.hotels.map((h) => ({
          property_id: h.property_id,
          name: h.name,
          city: h.city,
          airport_code: h.airport_code,
          chain: h.chain,
          country: h.country,
          distance_km: h.distance_km,
          nightly_rate: h.nightly_rate,
        }));
        return {
          status: 200,
          body: { hotels, next_cursor: page.next_after ? encodeCursor({ after: page.next_after }) : null },
        };
      },
    }),
    route({
      method: 'get',
      path: '/crew/flight-options',
      operationId: 'searchFlightOptions',
      summary: 'Live flight options for a route and date (or pre-filled from a deadhead action item)',
      description:
        "Options come from the first supplier of the airline's supplier order (operator setting) with options it could book; without a setting, the sandbox. Each then carries `supplier`, and no supplier sells the airline's own flights at retail (those are crew seats in its own system). " +
        "Follows the airline's flight config: no blacklisted carrier, nothing above preferred_cabin unless `cabin` asks for a cabin, in the order the engine tries options (the own carrier with same_carrier_preference, preferred carriers in their order, the rest; cheapest first, compared in one currency). Each option says whether the engine could book it by itself (`auto_bookable`, `auto_book_reason`). A `date` before the earliest date still current anywhere (UTC-12) is 422 VALIDATION_FAILED. " +
        '`from_airport`, `to_airport` and `date` (local at the origin) are required unless `action_id` pre-fills route and date from a FLIGHT action item (unknown id: 404). ' +
        '`arrive_by` drops options arriving later; `employee_id` is accepted and not applied; `limit` defaults to 10. Each `flight_option_id` is an opaque offer id valid for 20 minutes: ' +
        'pass it back unchanged to POST /crew/bookings/request. 503 when the supplier cannot be reached.',
      tags: ['Bookings'],
      auth: requiredScope('get', '/crew/flight-options'),
      query: FlightOptionsQuery,
      responses: {
        200: { description: 'Options, in the order the engine tries them', schema: FlightOptionsResult },
        ...errorResponses([400, 401, 403, 404, 422, 503]),
      },
      handler: async ({ query, res }) => ({
        status: 200,
        body: await flightOptions(deps, principal(res).airline_id, query),
      }),
    }),
  ];
}

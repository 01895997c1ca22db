import { requiredScope, SupplierHotelsQuery, SupplierHotelsResult } from '@crew/contracts';
import { ApiError, decodeCursor, encodeCursor, errorResponses, route, type RouteSpec } from '@crew/platform';
import { isSupplierError } from '@crew/suppliers';
import { ErrorCode } from '@crew/contracts';
import type { AirlineStays } from '../config/hotels.service';
import { principal } from '../auth/guard';

/**
 * An airline without a searchable supplier gets an empty 200 with this note rather than an error: the call
 * is well formed and nothing failed, so an integrator's search box shows "nothing" and the reason, and the
 * same client code works once the operator adds Duffel to the airline's order.
 */
export const NO_SUPPLIER_SEARCH_NOTE =
  "No hotel supplier in this airline's order searches its own properties (the operator adds DUFFEL to the airline's hotel order); the global directory is GET /hotels.";

/**
 * GET /crew/supplier-hotels: the properties the airline's own supplier account knows near an airport. Only
 * Duffel Stays has such an account (the sandbox's GDS is the global directory, GET /hotels), so the first
 * hotel supplier of the order that can search is the airline's Duffel, wherever it stands in the order.
 */
export function supplierHotelRoutes(staysOf: AirlineStays): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/crew/supplier-hotels',
      operationId: 'searchSupplierHotels',
      summary: "Search the properties the airline's Duffel Stays account knows near an airport",
      description:
        "Airline-scoped: the accommodation the airline's Duffel account knows within 15 km of the `near` airport, optionally narrowed by `name` (partial, case-insensitive), sorted by `property_id` and paginated by `limit` and `cursor`. " +
        'A `property_id` found here (`acc_…`) is registered in the hotel config as is and is booked through GDS channel for this airline. An airline without DUFFEL in its hotel supplier order gets 200 with an empty list and a `note` saying so. ' +
        'GET /hotels stays the global, airline-independent directory. 503 when Duffel cannot be reached.',
      tags: ['Hotel directory'],
      auth: requiredScope('get', '/crew/supplier-hotels'),
      query: SupplierHotelsQuery,
      responses: {
        200: { description: "The airline's supplier properties near the airport", schema: SupplierHotelsResult },
        ...errorResponses([400, 401, 403, 422, 503]),
      },
      handler: async ({ query, res }) => {
        const stays = await staysOf(principal(res).airline_id);
        if (!stays) return { status: 200, body: { hotels: [], next_cursor: null, note: NO_SUPPLIER_SEARCH_NOTE } };
        const after = decodeCursor<{ after: string }>(query.cursor, (v) => typeof v.after === 'string');
        const page = await stays
          .searchHotels({
            airport_code: query.near.toUpperCase(),
            name: query.name,
            limit: query.limit ?? 50,
            after: after?.after,
          })
          .catch((err: unknown) => {
            if (!isSupplierError(err)) throw err;
            if (err.kind === 'transient')
              throw new ApiError(
                503,
                ErrorCode.SERVICE_UNAVAILABLE,
                'Duffel cannot be reached right now; retry shortly',
              );
            throw ApiError.invalid(`Duffel refused the search: ${err.message}`, err.details);
          });
        const hotels = page.hotels.map((h) => ({
          property_id: h.property_id,
          name: h.name,
          airport_code: h.airport_code,
          city: h.city,
          country: h.country,
          distance_km: h.distance_km,
          supplier: 'DUFFEL' as const,
          ...(h.chain_name ? { chain: h.chain_name } : {}),
        }));
        return {
          status: 200,
          body: { hotels, next_cursor: page.next_after ? encodeCursor({ after: page.next_after }) : null },
        };
      },
    }),
  ];
}

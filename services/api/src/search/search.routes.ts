import {
  FlightOptionsQuery,
  FlightOptionsResult,
  HotelSearchQuery,
  HotelSearchResult,
  requiredScope,
  type FlightOption,
} from '@crew/contracts';
import { ApiError, decodeCursor, encodeCursor, errorResponses, route, type RouteSpec } from '@crew/platform';
import {
  isSupplierError,
  searchInOrder,
  type FlightOffer,
  type SupplierRegistry,
  type Suppliers,
} from '@crew/suppliers';
import { ErrorCode } from '@crew/contracts';
import {
  type AirlineFlightPolicy,
  autoBookVerdict,
  compareRanks,
  earliestTravelDate,
  flightOptionRank,
  rankFlightOptions,
  retailOffers,
} from '@crew/engine';
import { principal } from '../auth/guard';

/** Live supplier searches are the only supplier calls a request handler makes. */
function supplierFailure(err: unknown): never {
  if (isSupplierError(err)) {
    if (err.kind === 'transient')
      throw new ApiError(503, ErrorCode.SERVICE_UNAVAILABLE, 'The supplier cannot be reached right now; retry shortly');
    throw ApiError.invalid(`The supplier refused the search: ${err.message}`, err.details);
  }
  throw err;
}

/** Resolves `action_id` to the route and date of a deadhead action item (null when unknown to the airline). */
export type ActionRouteLookup = (
  airlineId: string,
  actionId: string,
) => Promise<{ from_airport: string; to_airport: string; date: string } | null>;

const optionKey = (o: Pick<FlightOption, 'dep_time' | 'airline_code' | 'flight_number' | 'cabin'>) =>
  `${o.dep_time}|${o.airline_code}|${o.flight_number}|${o.cabin}`;

/** The airline's flight config, own carrier, fare ceiling and the exchange rates (what the engine chooses flights by). */
export type FlightPolicyLookup = (airlineId: string) => Promise<AirlineFlightPolicy>;

/**
 * `suppliers`: the global directory (GET /hotels); `registry`: each airline's ordered flight suppliers.
 */
export function searchRoutes(
  suppliers: Suppliers,
  registry: SupplierRegistry,
  actionRoute: ActionRouteLookup,
  flightPolicy: FlightPolicyLookup,
  now: () => Date = () => new Date(),
): RouteSpec[] {
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
      handler: async ({ query, res }) => {
        let { from_airport, to_airport, date } = query;
        if (query.action_id !== undefined) {
          const prefill = await actionRoute(principal(res).airline_id, query.action_id);
          if (!prefill) throw ApiError.notFound('Action item');
          from_airport ??= prefill.from_airport;
          to_airport ??= prefill.to_airport;
          date ??= prefill.date;
        }
        if (!from_airport || !to_airport || !date) {
          const missing = (['from_airport', 'to_airport', 'date'] as const).filter(
            (f) => !{ from_airport, to_airport, date }[f],
          );
          throw ApiError.invalid(
            'from_airport, to_airport and date are required unless action_id is given',
            missing.map((f) => ({ field: `query.${f}`, issue: 'is required' })),
          );
        }
        if (from_airport === to_airport)
          throw ApiError.invalid('from_airport and to_airport must differ', [
            { field: 'query.to_airport', issue: 'equals from_airport' },
          ]);
        const earliest = earliestTravelDate(now().getTime());
        if (date < earliest)
          throw ApiError.validation(
            [
              {
                field: 'query.date',
                issue: `is in the past (the earliest date still current anywhere is ${earliest})`,
              },
            ],
            'The date is in the past',
          );
        if (query.cabin && query.cabin_class && query.cabin !== query.cabin_class)
          throw ApiError.invalid('cabin and cabin_class differ', [
            { field: 'query.cabin_class', issue: 'differs from cabin' },
          ]);
        const cabin = query.cabin ?? query.cabin_class;
        const after = decodeCursor<{ r: (number | string)[] }>(
          query.cursor,
          (v) => Array.isArray(v.r) && v.r.every((x) => typeof x === 'number' || typeof x === 'string'),
        );
        const airlineId = principal(res).airline_id;
        const [policy, set] = await Promise.all([flightPolicy(airlineId), registry.forAirline(airlineId)]);
        const { flightConfig: cfg, carrier_code: own, maxPrice, fxRates: fx } = policy;
        const arriveBy = query.arrive_by ? Date.parse(query.arrive_by) : Infinity;
        // What the airline could book of one supplier's offers: the engine's own rule (no blacklisted carrier,
        // nothing above the cabin cap, in the order it tries options), nothing arriving too late, and, from a
        // retail supplier of a configured airline, none of its own flights (crew seats in its own system).
        const usable = (found: FlightOffer[]) =>
          rankFlightOptions(
            retailOffers(found, own, set.configured && found.some((o) => o.supplier !== 'SANDBOX')).filter(
              (o) => Date.parse(o.arr_time) <= arriveBy,
            ),
            cfg,
            own,
            fx,
            cabin,
          );
        // The first supplier of the airline's order with something usable answers (the same supplier the worker would book at).
        const found = await searchInOrder(set, { from_airport, to_airport, date, cabin }, usable).catch(
          supplierFailure,
        );
        const offers = found?.offers ?? [];
        const ranked = offers.map((o) => ({ o, rank: [...flightOptionRank(o, cfg, own, fx), optionKey(o)] }));
        const options = ranked.filter((x) => !after || compareRanks(x.rank, after.r) > 0);
        const limit = query.limit ?? 10;
        const page = options.slice(0, limit);
        const view = (o: (typeof offers)[number]): FlightOption => {
          const verdict = autoBookVerdict(o, cfg, maxPrice, fx, cabin);
          return {
            flight_option_id: o.flight_option_id,
            airline_code: o.airline_code,
            flight_number: o.flight_number,
            from_airport: o.from_airport,
            to_airport: o.to_airport,
            dep_time: o.dep_time,
            arr_time: o.arr_time,
            cabin: o.cabin,
            price: o.price,
            expires_at: o.expires_at,
            auto_bookable: verdict.auto_bookable,
            auto_book_reason: verdict.reason,
            // Only for an airline with a supplier order: without one, the options stay exactly as they were.
            ...(set.configured && o.supplier ? { supplier: o.supplier } : {}),
          };
        };
        const last = page[page.length - 1];
        return {
          status: 200,
          body: {
            options: page.map((x) => view(x.o)),
            next_cursor: options.length > limit && last ? encodeCursor({ r: last.rank }) : null,
          },
        };
      },
    }),
  ];
}

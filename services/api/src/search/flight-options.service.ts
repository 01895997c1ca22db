import type { FlightOption, FlightOptionsQuery } from '@crew/contracts';
import { ErrorCode, isUuid } from '@crew/contracts';
import {
  type AirlineFlightPolicy,
  autoBookVerdict,
  earliestTravelDate,
  flightOptionsPage,
  rankFlightOptions,
  retailOffers,
  flightPolicyOf,
  flightSearchOfItem,
} from '@crew/engine';
import { airlinePolicyRepo, scheduleRepo, type Db } from '@crew/db';
import { ApiError, decodeCursor, encodeCursor } from '@crew/platform';
import { isSupplierError, searchInOrder, type FlightOffer, type SupplierRegistry } from '@crew/suppliers';

/*
 * Live flight options for a route and date, or for a deadhead action item: what GET /crew/flight-options
 * answers, and what the console's item page offers to book.
 */

/** Live supplier searches are the only supplier calls a request handler makes. */
export function supplierFailure(err: unknown): never {
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

/** The airline's flight config, own carrier, fare ceiling and the exchange rates (what the engine chooses flights by). */
export type FlightPolicyLookup = (airlineId: string) => Promise<AirlineFlightPolicy>;

export interface FlightOptionsDeps {
  /** Each airline's ordered flight suppliers. */
  registry: SupplierRegistry;
  actionRoute: ActionRouteLookup;
  flightPolicy: FlightPolicyLookup;
  /** Today's date for the "date in the past" rule. */
  now: () => Date;
}

/** The api's lookups: a FLIGHT action item's route and duty date, and the airline's flight policy. */
export function flightOptionsDeps(db: Db, registry: SupplierRegistry, now: () => Date): FlightOptionsDeps {
  return {
    registry,
    now,
    actionRoute: async (airlineId, actionId) => {
      if (!isUuid(actionId)) return null;
      const item = await scheduleRepo.findActionItem(db, airlineId, actionId);
      return item ? flightSearchOfItem(item) : null;
    },
    flightPolicy: async (airlineId) => flightPolicyOf(await airlinePolicyRepo.loadFlightFacts(db, airlineId)),
  };
}

/**
 * The options of the airline's first supplier with something it could book, in the order the engine tries
 * them. Throws ApiError 404 (unknown action item), 400/422 (the query) and 503 (supplier unreachable).
 */
export async function flightOptions(
  deps: FlightOptionsDeps,
  airlineId: string,
  query: FlightOptionsQuery,
): Promise<{ options: FlightOption[]; next_cursor: string | null }> {
  let { from_airport, to_airport, date } = query;
  if (query.action_id !== undefined) {
    const prefill = await deps.actionRoute(airlineId, query.action_id);
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
  const earliest = earliestTravelDate(deps.now().getTime());
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
  const [policy, set] = await Promise.all([deps.flightPolicy(airlineId), deps.registry.forAirline(airlineId)]);
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
  const found = await searchInOrder(set, { from_airport, to_airport, date, cabin }, usable).catch(supplierFailure);
  const offers = found?.offers ?? [];
  const limit = query.limit ?? 10;
  const { page, next } = flightOptionsPage(offers, cfg, own, fx, after?.r ?? null, limit);
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
  return { options: page.map(view), next_cursor: next ? encodeCursor({ r: next }) : null };
}

import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import { convert, describeConversion, formatMoney, FX_PIVOT, NO_FX_RATES, roundCents, type FxTable } from './fx';
import { instantOf, localDateOf } from './time';

/**
 * Flights: choosing among live options (spec 4.3 flight config): which carrier and cabin the engine may book, the
 * order it tries the options in, and the fare ceiling (auto_book_max_price).
 */

const CABIN_RANK: Record<string, number> = { ECONOMY: 0, PREMIUM_ECONOMY: 1, BUSINESS: 2, FIRST: 3 };

export interface FlightOptionFacts {
  flight_option_id: string;
  airline_code: string;
  dep_time: string;
  arr_time: string;
  cabin: string;
  price: Money;
  /** The marketing flight number; part of the key that orders equally ranked options. */
  flight_number?: string;
}

export interface LegWindow {
  /** Earliest departure and latest arrival acceptable (instants). */
  depart_after: string | null;
  arrive_by: string | null;
}

export type FlightChoice<T extends FlightOptionFacts> = { ok: true; option: T } | { ok: false; reason: string };

/**
 * Spec 4.3 flight config: why the engine may not book this carrier and cabin, or null. Never a
 * blacklisted carrier; never above the cabin cap (a request's cabin where it asks for one, else
 * preferred_cabin).
 */
export function flightOptionBar(
  o: Pick<FlightOptionFacts, 'airline_code' | 'cabin'>,
  cfg: FlightConfigSnapshot,
  cabinOverride?: string,
): string | null {
  if (cfg.blacklisted_airlines.includes(o.airline_code)) return `carrier ${o.airline_code} is blacklisted`;
  const cap = cabinOverride ?? cfg.preferred_cabin;
  if ((CABIN_RANK[o.cabin] ?? 99) > (CABIN_RANK[cap] ?? 0))
    return `cabin ${o.cabin} is above the ${cabinOverride ? 'requested' : 'preferred'} cabin ${cap}`;
  return null;
}

/** Where a carrier's options come: the airline's own carrier first with same_carrier_preference, then preferred carriers in their order, then the rest. */
export function carrierGroup(code: string, cfg: FlightConfigSnapshot, ownCarrier: string): number {
  if (cfg.same_carrier_preference && code === ownCarrier) return 0;
  const i = cfg.preferred_airlines.indexOf(code);
  return i >= 0 ? 1 + i : 1 + cfg.preferred_airlines.length;
}

/** Stands in for a fare that cannot be compared in one currency (no rate): after every comparable one. JSON-safe. */
const UNCOMPARABLE = 1e300;

/**
 * The engine's order of trying options, as a key compared element by element (`compareRanks`): carrier
 * group, then the fare in one currency (the pivot, at the rates of the departure date), then the earliest
 * departure. A fare without a rate comes after comparable ones, ordered among its own currency.
 */
export function flightOptionRank(
  o: FlightOptionFacts,
  cfg: FlightConfigSnapshot,
  ownCarrier: string,
  fx: FxTable = NO_FX_RATES,
): (number | string)[] {
  const pivot = convert(o.price, FX_PIVOT, fx, localDateOf(o.dep_time));
  return [
    carrierGroup(o.airline_code, cfg, ownCarrier),
    pivot.ok ? roundCents(pivot.money.amount) : UNCOMPARABLE,
    o.price.currency,
    o.price.amount,
    instantOf(o.dep_time),
  ];
}

export function compareRanks(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * An option's position in the engine's order: its rank, then the flight itself (departure, carrier, flight
 * number, cabin), which stays the same from one live search to the next where the offer id does not. A
 * flight-options cursor is the position of the last option shown.
 */
export function flightOptionPosition(
  o: FlightOptionFacts,
  cfg: FlightConfigSnapshot,
  ownCarrier: string,
  fx: FxTable = NO_FX_RATES,
): (number | string)[] {
  return [
    ...flightOptionRank(o, cfg, ownCarrier, fx),
    `${o.dep_time}|${o.airline_code}|${o.flight_number ?? ''}|${o.cabin}`,
  ];
}

/** The options the engine may book (allowed carrier, cabin within the cap), in the order it tries them. */
export function rankFlightOptions<T extends FlightOptionFacts>(
  options: readonly T[],
  cfg: FlightConfigSnapshot,
  ownCarrier: string,
  fx: FxTable = NO_FX_RATES,
  cabinOverride?: string,
): T[] {
  return options
    .filter((o) => flightOptionBar(o, cfg, cabinOverride) === null)
    .map((o) => ({ o, rank: [...flightOptionPosition(o, cfg, ownCarrier, fx), o.flight_option_id] }))
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .map((x) => x.o);
}

/**
 * One page of options in the engine's order (`rankFlightOptions`'s, which they are in): those after the
 * position `after` (none: from the first), at most `limit`; `next` is the position of the last one shown
 * when more follow, else null.
 */
export function flightOptionsPage<T extends FlightOptionFacts>(
  ranked: readonly T[],
  cfg: FlightConfigSnapshot,
  ownCarrier: string,
  fx: FxTable,
  after: readonly (number | string)[] | null,
  limit: number,
): { page: T[]; next: (number | string)[] | null } {
  const options = ranked
    .map((o) => ({ o, position: flightOptionPosition(o, cfg, ownCarrier, fx) }))
    .filter((x) => !after || compareRanks(x.position, after) > 0);
  const page = options.slice(0, limit);
  const last = page[page.length - 1];
  return { page: page.map((x) => x.o), next: options.length > limit && last ? last.position : null };
}

/**
 * Spec 4.3 carrier rules: never a blacklisted carrier, never above the preferred cabin; the airline's own
 * carrier first with same_carrier_preference, then preferred carriers (in their order), then the rest;
 * cheapest first within a group; an option above auto_book_max_price (compared in the ceiling's currency
 * at the departure date's rates) is passed over, and when every fitting option is above it, or has no
 * rate to compare it with, the item goes to review.
 */
export function chooseFlightOption<T extends FlightOptionFacts>(
  options: readonly T[],
  leg: LegWindow,
  cfg: FlightConfigSnapshot,
  ownCarrier: string,
  maxPrice: Money | null,
  cabinOverride?: string,
  fx: FxTable = NO_FX_RATES,
): FlightChoice<T> {
  const after = leg.depart_after ? instantOf(leg.depart_after) : -Infinity;
  const by = leg.arrive_by ? instantOf(leg.arrive_by) : Infinity;
  const fitting = rankFlightOptions(options, cfg, ownCarrier, fx, cabinOverride).filter(
    (o) => instantOf(o.dep_time) >= after && instantOf(o.arr_time) <= by,
  );
  if (fitting.length === 0)
    return { ok: false, reason: 'no flight option fits the leg within the airline flight config' };
  // Preferred groups are tried first; one over the ceiling falls through to the next option.
  let noRate: string | null = null;
  let lowest: { amount: number; reason: string } | null = null;
  for (const o of fitting) {
    const c = ceilingCheck(o.price, maxPrice, fx, localDateOf(o.dep_time));
    if (c.ok) return { ok: true, option: o };
    if (c.kind === 'NO_RATE') noRate ??= c.reason;
    else if (!lowest || c.converted.amount < lowest.amount) lowest = { amount: c.converted.amount, reason: c.reason };
  }
  return { ok: false, reason: [noRate, lowest && `the lowest fitting ${lowest.reason}`].filter(Boolean).join('; ') };
}

export type CeilingCheck =
  | { ok: true }
  | { ok: false; kind: 'ABOVE'; reason: string; converted: Money }
  | { ok: false; kind: 'NO_RATE'; reason: string };

/**
 * A fare against auto_book_max_price: no ceiling, or the fare in the ceiling's currency (at the rates of
 * `date`, the fare's date), to the cent, not above it. A fare whose currency has no rate cannot be compared.
 */
export function ceilingCheck(price: Money, ceiling: Money | null, fx: FxTable, date: string): CeilingCheck {
  if (!ceiling) return { ok: true };
  const c = convert(price, ceiling.currency, fx, date);
  if (!c.ok)
    return {
      ok: false,
      kind: 'NO_RATE',
      reason: `${c.reason} (needed to compare the fare ${formatMoney(price)} with the ceiling ${formatMoney(ceiling)})`,
    };
  if (roundCents(c.money.amount) <= ceiling.amount) return { ok: true };
  return {
    ok: false,
    kind: 'ABOVE',
    converted: c.money,
    reason: `fare ${formatMoney(price)}${describeConversion(c.money, c.rates)} is above the ceiling ${formatMoney(ceiling)} (auto_book_max_price)`,
  };
}

/**
 * The ceiling as the supplier applies it to the fare it is about to pay for the chosen flight (a supplier that
 * prices at ordering may find the fare moved, or renew the offer at another): the reason that fare is above
 * auto_book_max_price, or cannot be compared with it (ceilingCheck at the rates of the flight's departure
 * date), else null. Undefined without a ceiling: nothing to check.
 */
export function orderingCeiling(
  ceiling: Money | null,
  fx: FxTable,
  departure: string,
): ((fare: Money) => string | null) | undefined {
  if (!ceiling) return undefined;
  const date = localDateOf(departure);
  return (fare) => {
    const c = ceilingCheck(fare, ceiling, fx, date);
    return c.ok ? null : c.reason;
  };
}

/** A fare the engine may pay (ceilingCheck). Without rates only a fare in the ceiling's own currency can be. */
export function withinCeiling(price: Money, ceiling: Money | null, fx: FxTable = NO_FX_RATES, date = ''): boolean {
  return ceilingCheck(price, ceiling, fx, date).ok;
}

/**
 * Whether the engine could book this option by itself (a flight-options answer): an allowed carrier, a cabin
 * within the cap and a fare within the ceiling; else why not.
 */
export function autoBookVerdict(
  o: FlightOptionFacts,
  cfg: FlightConfigSnapshot,
  maxPrice: Money | null,
  fx: FxTable,
  cabinOverride?: string,
): { auto_bookable: boolean; reason: string | null } {
  const bar = flightOptionBar(o, cfg, cabinOverride);
  if (bar) return { auto_bookable: false, reason: bar };
  const c = ceilingCheck(o.price, maxPrice, fx, localDateOf(o.dep_time));
  return c.ok ? { auto_bookable: true, reason: null } : { auto_bookable: false, reason: c.reason };
}

import { SPEND_GROUP_BY, isDate as isSchemaDate, type Money, type SpendGroup, type SpendReport } from '@crew/contracts';
import { convert, type FxTable } from './fx';
import { roundMinor } from './minor-units';

/*
 * The airline's spend over a period, grouped by station, hotel or month, in one reporting currency. The caller
 * reads one entry per amount (a stay's price, a flight's fare, a fee paid or avoided, a disputed invoice line);
 * this sums them. Each amount is converted at the rate of its own date, so a report over a year does not
 * re-price January at December's rates.
 */

export type SpendGrouping = (typeof SPEND_GROUP_BY)[number];
export type SpendMeasure = Exclude<keyof SpendGroup, 'key'>;

export const SPEND_MEASURES: readonly SpendMeasure[] = [
  'hotels_booked',
  'flights_booked',
  'penalties_paid',
  'penalties_avoided',
  'disputed',
];

/** Flights have no hotel: grouped by hotel, they form one group of this key. */
export const FLIGHTS_GROUP_KEY = 'FLIGHTS';

export interface SpendEntry {
  measure: SpendMeasure;
  /** The stay's check-in date or the flight's departure date (YYYY-MM-DD), local as rostered. */
  date: string;
  /** The stay's station or the flight's departure airport. */
  station: string;
  /** The stay's property id; null for a flight. */
  hotel: string | null;
  amount: Money;
}

export interface SpendQuery {
  /** Inclusive dates (YYYY-MM-DD). */
  from: string;
  to: string;
  group_by: SpendGrouping;
  currency: string;
}

/** The question's faults, by field: dates in order, a known grouping. */
export function spendQueryIssues(q: {
  from?: string;
  to?: string;
  group_by?: string;
}): Array<{ field: string; issue: string }> {
  const issues: Array<{ field: string; issue: string }> = [];
  // The schema layer's date (a real day of years 0001-9999): the console asks without it, and a day V8 rolls
  // over (2027-02-30) or year 0000 would reach Postgres, which refuses both.
  const isDate = (d: string | undefined) => d !== undefined && isSchemaDate(d);
  if (!isDate(q.from)) issues.push({ field: 'from', issue: 'must be a date (YYYY-MM-DD)' });
  if (!isDate(q.to)) issues.push({ field: 'to', issue: 'must be a date (YYYY-MM-DD)' });
  if (isDate(q.from) && isDate(q.to) && q.from! > q.to!) issues.push({ field: 'to', issue: 'must not be before from' });
  if (q.group_by !== undefined && !(SPEND_GROUP_BY as readonly string[]).includes(q.group_by))
    issues.push({ field: 'group_by', issue: `must be one of ${SPEND_GROUP_BY.join(', ')}` });
  return issues;
}

function keyOf(e: SpendEntry, by: SpendGrouping): string {
  if (by === 'station') return e.station;
  if (by === 'month') return e.date.slice(0, 7);
  return e.hotel ?? FLIGHTS_GROUP_KEY;
}

/** Sums the entries dated within the period into groups (sorted by key), every amount in `q.currency`. */
export function spendReport(entries: Iterable<SpendEntry>, q: SpendQuery, fx: FxTable): SpendReport {
  const sums = new Map<string, Record<SpendMeasure, number>>();
  const unconverted = new Map<string, number>();
  for (const e of entries) {
    if (e.date < q.from || e.date > q.to) continue;
    const converted = convert(e.amount, q.currency, fx, e.date);
    if (!converted.ok) {
      unconverted.set(e.amount.currency, (unconverted.get(e.amount.currency) ?? 0) + 1);
      continue;
    }
    const key = keyOf(e, q.group_by);
    let group = sums.get(key);
    if (!group) {
      group = Object.fromEntries(SPEND_MEASURES.map((m) => [m, 0])) as Record<SpendMeasure, number>;
      sums.set(key, group);
    }
    group[e.measure] += converted.money.amount;
  }
  const groups = [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, group]) => {
      const money = (m: SpendMeasure): Money => ({ amount: roundMinor(group[m], q.currency), currency: q.currency });
      return { key, ...(Object.fromEntries(SPEND_MEASURES.map((m) => [m, money(m)])) as Record<SpendMeasure, Money>) };
    });
  return {
    from: q.from,
    to: q.to,
    group_by: q.group_by,
    currency: q.currency,
    groups,
    unconverted: [...unconverted.entries()].sort().map(([currency, n]) => ({ currency, entries: n })),
  };
}

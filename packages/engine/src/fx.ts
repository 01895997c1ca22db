import { FX_PIVOT_CURRENCY, type Money } from '@crew/contracts';

/*
 * Money in other currencies. The operator keeps one table of exchange rates against a pivot currency
 * (FX_PIVOT): `rate` is how many units of the pivot one unit of the currency buys, set "as of" a date.
 * Rows are kept, so a rate changed later does not rewrite what an earlier date meant. The rate of a
 * currency on a date is the latest one set on or before that date; the pivot is always 1.
 */

/** The currency every rate is stated against: `rate` = pivot units per one unit of `currency`. */
export const FX_PIVOT = FX_PIVOT_CURRENCY;

export interface FxRate {
  currency: string;
  /** Pivot units per one unit of `currency` (> 0). */
  rate: number;
  /** The date from which the rate holds (YYYY-MM-DD). */
  as_of: string;
}

/** Rates by currency, each list sorted by `as_of` ascending. */
export type FxTable = ReadonlyMap<string, readonly FxRate[]>;

export const NO_FX_RATES: FxTable = new Map();

/** The lookup table of a list of rates (any order; a later row for the same currency and date wins). */
export function fxTable(rates: readonly FxRate[]): FxTable {
  const byCurrency = new Map<string, Map<string, FxRate>>();
  for (const r of rates) {
    const days = byCurrency.get(r.currency) ?? new Map<string, FxRate>();
    days.set(r.as_of, r);
    byCurrency.set(r.currency, days);
  }
  const table = new Map<string, FxRate[]>();
  for (const [currency, days] of byCurrency)
    table.set(
      currency,
      [...days.values()].sort((a, b) => (a.as_of < b.as_of ? -1 : a.as_of > b.as_of ? 1 : 0)),
    );
  return table;
}

/** The rate of `currency` on `date`: the latest set on or before it (the pivot: always 1, no row). */
export function rateOn(table: FxTable, currency: string, date: string): FxRate | null {
  if (currency === FX_PIVOT) return { currency, rate: 1, as_of: date };
  const rows = table.get(currency);
  if (!rows) return null;
  let found: FxRate | null = null;
  for (const r of rows) {
    if (r.as_of > date) break;
    found = r;
  }
  return found;
}

export type Conversion =
  | { ok: true; money: Money; /** The table rows used (none for the same currency or the pivot). */ rates: FxRate[] }
  | { ok: false; /** The currency without a rate on the date. */ missing: string; reason: string };

/**
 * `money` in `to`, at the rates of `date`. Unrounded: callers compare at cent precision (`sameCents`,
 * `roundCents`). Without a rate for either side on that date: the currency that lacks one.
 */
export function convert(money: Money, to: string, table: FxTable, date: string): Conversion {
  if (money.currency === to) return { ok: true, money: { amount: money.amount, currency: to }, rates: [] };
  const from = rateOn(table, money.currency, date);
  const into = rateOn(table, to, date);
  for (const [currency, rate] of [
    [money.currency, from],
    [to, into],
  ] as const) {
    if (!rate) {
      const later = (table.get(currency)?.length ?? 0) > 0;
      return {
        ok: false,
        missing: currency,
        reason: `no exchange rate for ${currency} is set${later ? ` on or before ${date}` : ''}`,
      };
    }
  }
  const rates = [from!, into!].filter((r) => r.currency !== FX_PIVOT);
  return { ok: true, money: { amount: (money.amount * from!.rate) / into!.rate, currency: to }, rates };
}

/** An amount rounded to the cent (half away from zero, robust to binary fractions such as 1.005). */
export function roundCents(amount: number): number {
  return (Math.sign(amount) * Math.round(Math.abs(amount) * 100 + 1e-9)) / 100;
}

/** "70.00 USD". */
export function formatMoney(m: Money): string {
  return `${m.amount.toFixed(2)} ${m.currency}`;
}

/** "(= 64.40 EUR at the rate of 2026-11-20)" for a converted amount; empty when nothing was converted. */
export function describeConversion(converted: Money, rates: readonly FxRate[]): string {
  if (rates.length === 0) return '';
  const dates = [...new Set(rates.map((r) => r.as_of))];
  const at =
    dates.length === 1
      ? `the rate of ${dates[0]}`
      : `the rates of ${rates.map((r) => `${r.currency} ${r.as_of}`).join(', ')}`;
  return ` (= ${formatMoney({ amount: roundCents(converted.amount), currency: converted.currency })} at ${at})`;
}

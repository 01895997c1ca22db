/** Money in other currencies: the operator's FX table and the conversion rule. */
import fc from 'fast-check';
import {
  convert,
  describeConversion,
  formatMoney,
  FX_PIVOT,
  fxTable,
  NO_FX_RATES,
  rateOn,
  roundCents,
  type FxRate,
} from '../src/fx';

const TABLE = fxTable([
  { currency: 'EUR', rate: 1.1, as_of: '2026-11-20' },
  { currency: 'EUR', rate: 1.05, as_of: '2027-01-01' },
  { currency: 'GBP', rate: 1.25, as_of: '2026-11-18' },
  { currency: 'JPY', rate: 0.0067, as_of: '2027-06-01' },
]);

describe('rateOn: the rate of a date is the latest set on or before it', () => {
  it('picks the row in force on the date, including the day it was set', () => {
    expect(rateOn(TABLE, 'EUR', '2026-11-20')?.rate).toBe(1.1);
    expect(rateOn(TABLE, 'EUR', '2026-12-31')?.rate).toBe(1.1);
    expect(rateOn(TABLE, 'EUR', '2027-01-01')?.rate).toBe(1.05);
    expect(rateOn(TABLE, 'EUR', '2030-01-01')?.rate).toBe(1.05);
  });

  it('none before the first row, none for an unknown currency; the pivot is always 1', () => {
    expect(rateOn(TABLE, 'EUR', '2026-11-19')).toBeNull();
    expect(rateOn(TABLE, 'CHF', '2027-01-01')).toBeNull();
    expect(rateOn(NO_FX_RATES, FX_PIVOT, '2027-01-01')).toMatchObject({ rate: 1 });
  });

  it('rows may come in any order; a later row for the same currency and date replaces the earlier one', () => {
    const t = fxTable([
      { currency: 'EUR', rate: 1.2, as_of: '2027-02-01' },
      { currency: 'EUR', rate: 1.1, as_of: '2027-01-01' },
      { currency: 'EUR', rate: 1.3, as_of: '2027-02-01' },
    ]);
    expect(t.get('EUR')!.map((r) => r.as_of)).toEqual(['2027-01-01', '2027-02-01']);
    expect(rateOn(t, 'EUR', '2027-02-15')?.rate).toBe(1.3);
  });
});

describe('convert', () => {
  it('through the pivot: EUR to USD multiplies by the EUR rate, USD to EUR divides by it', () => {
    expect(convert({ amount: 100, currency: 'EUR' }, 'USD', TABLE, '2026-12-01')).toEqual({
      ok: true,
      money: { amount: 110.00000000000001, currency: 'USD' },
      rates: [{ currency: 'EUR', rate: 1.1, as_of: '2026-11-20' }],
    });
    const back = convert({ amount: 70, currency: 'USD' }, 'EUR', TABLE, '2027-03-10');
    expect(back.ok && roundCents(back.money.amount)).toBe(66.67);
  });

  it('between two non-pivot currencies uses both rates of the date', () => {
    const r = convert({ amount: 100, currency: 'GBP' }, 'EUR', TABLE, '2026-12-01');
    expect(r.ok && roundCents(r.money.amount)).toBe(113.64);
    expect(r.ok && r.rates.map((x) => x.currency)).toEqual(['GBP', 'EUR']);
  });

  it('the same currency is the identity, with or without rates', () => {
    expect(convert({ amount: 12.345, currency: 'CHF' }, 'CHF', NO_FX_RATES, '2027-01-01')).toEqual({
      ok: true,
      money: { amount: 12.345, currency: 'CHF' },
      rates: [],
    });
  });

  it('a missing rate names the currency that lacks one (and the date when rates exist only later)', () => {
    expect(convert({ amount: 70, currency: 'USD' }, 'CHF', TABLE, '2027-01-01')).toEqual({
      ok: false,
      missing: 'CHF',
      reason: 'no exchange rate for CHF is set',
    });
    expect(convert({ amount: 70, currency: 'JPY' }, 'EUR', TABLE, '2027-01-01')).toEqual({
      ok: false,
      missing: 'JPY',
      reason: 'no exchange rate for JPY is set on or before 2027-01-01',
    });
  });

  it('describes the amount and the rate date used', () => {
    const r = convert(
      { amount: 70, currency: 'USD' },
      'EUR',
      fxTable([{ currency: 'EUR', rate: 1 / 0.92, as_of: '2026-11-20' }]),
      '2027-03-10',
    );
    expect(r.ok && `fare ${formatMoney({ amount: 70, currency: 'USD' })}${describeConversion(r.money, r.rates)}`).toBe(
      'fare 70.00 USD (= 64.40 EUR at the rate of 2026-11-20)',
    );
    const two = convert({ amount: 100, currency: 'GBP' }, 'EUR', TABLE, '2026-12-01');
    expect(two.ok && describeConversion(two.money, two.rates)).toBe(
      ' (= 113.64 EUR at the rates of GBP 2026-11-18, EUR 2026-11-20)',
    );
  });
});

describe('convert: properties', () => {
  const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF'] as const;
  const day = fc
    .integer({ min: 0, max: 700 })
    .map((d) => new Date(Date.UTC(2026, 0, 1) + d * 86_400_000).toISOString().slice(0, 10));
  const rateRow = fc.record({
    currency: fc.constantFrom('EUR', 'GBP', 'JPY', 'CHF'),
    rate: fc.double({ min: 0.001, max: 1000, noNaN: true }),
    as_of: day,
  });
  const money = fc.record({
    amount: fc.double({ min: 0, max: 1e6, noNaN: true }),
    currency: fc.constantFrom(...CURRENCIES),
  });

  it('same currency: identity whatever the table and date', () => {
    fc.assert(
      fc.property(fc.array(rateRow, { maxLength: 10 }), money, day, (rows, m, date) => {
        expect(convert(m, m.currency, fxTable(rows), date)).toEqual({ ok: true, money: m, rates: [] });
      }),
    );
  });

  it('round trip: there and back at the same date gives the amount again (to a relative 1e-9)', () => {
    fc.assert(
      fc.property(
        fc.array(rateRow, { maxLength: 10 }),
        money,
        fc.constantFrom(...CURRENCIES),
        day,
        (rows, m, to, date) => {
          const table = fxTable(rows);
          const there = convert(m, to, table, date);
          if (!there.ok) return;
          const back = convert(there.money, m.currency, table, date);
          expect(back.ok).toBe(true);
          if (back.ok) expect(Math.abs(back.money.amount - m.amount)).toBeLessThanOrEqual(1e-9 * Math.max(1, m.amount));
        },
      ),
    );
  });

  it('missing rate: fails exactly when one side has no row on or before the date, naming that currency', () => {
    fc.assert(
      fc.property(
        fc.array(rateRow, { maxLength: 10 }),
        money,
        fc.constantFrom(...CURRENCIES),
        day,
        (rows, m, to, date) => {
          const has = (c: string) => c === FX_PIVOT || rows.some((r: FxRate) => r.currency === c && r.as_of <= date);
          const r = convert(m, to, fxTable(rows), date);
          if (m.currency === to || (has(m.currency) && has(to))) expect(r.ok).toBe(true);
          else {
            expect(r.ok).toBe(false);
            if (!r.ok) {
              expect(has(r.missing)).toBe(false);
              expect(r.reason).toContain(`no exchange rate for ${r.missing} is set`);
            }
          }
        },
      ),
    );
  });

  it('a rate set after the date never changes the conversion of that date (nor makes a missing one appear)', () => {
    fc.assert(
      fc.property(
        fc.array(rateRow, { maxLength: 10 }),
        rateRow,
        money,
        fc.constantFrom(...CURRENCIES),
        day,
        (rows, extra, m, to, date) => {
          fc.pre(extra.as_of > date);
          const without = convert(m, to, fxTable(rows), date);
          const withLater = convert(m, to, fxTable([...rows, extra]), date);
          // Only the wording of a missing rate may change ("on or before <date>").
          if (without.ok) expect(withLater).toEqual(without);
          else expect(withLater).toMatchObject({ ok: false, missing: without.missing });
        },
      ),
    );
  });
});

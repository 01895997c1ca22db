import { FLIGHTS_GROUP_KEY, fxTable, spendQueryIssues, spendReport, type SpendEntry } from '../src';

const usd = (amount: number) => ({ amount, currency: 'USD' });
const entry = (over: Partial<SpendEntry>): SpendEntry => ({
  measure: 'hotels_booked',
  date: '2027-01-10',
  station: 'JFK',
  hotel: 'H1',
  amount: usd(100),
  ...over,
});
const Q = { from: '2027-01-01', to: '2027-01-31', group_by: 'station' as const, currency: 'USD' };
const NO_RATES = fxTable([]);

describe('spendReport', () => {
  test('sums each measure per group; both ends of the period count, a day outside does not', () => {
    const report = spendReport(
      [
        entry({ date: '2027-01-01' }),
        entry({ date: '2027-01-31', amount: usd(50) }),
        entry({ date: '2027-02-01', amount: usd(999) }),
        entry({ measure: 'flights_booked', hotel: null, amount: usd(300) }),
        entry({ measure: 'penalties_paid', amount: usd(80) }),
        entry({ measure: 'penalties_avoided', amount: usd(120) }),
        entry({ measure: 'disputed', amount: usd(25.5) }),
        entry({ station: 'LHR', amount: usd(70) }),
      ],
      Q,
      NO_RATES,
    );
    expect(report.groups.map((g) => g.key)).toEqual(['JFK', 'LHR']);
    expect(report.groups[0]).toEqual({
      key: 'JFK',
      hotels_booked: usd(150),
      flights_booked: usd(300),
      penalties_paid: usd(80),
      penalties_avoided: usd(120),
      disputed: usd(25.5),
    });
    expect(report.groups[1]!.hotels_booked).toEqual(usd(70));
    expect(report.groups[1]!.flights_booked).toEqual(usd(0));
  });

  test('by hotel, flights form their own group; by month, the key is YYYY-MM', () => {
    const entries = [entry({}), entry({ measure: 'flights_booked', hotel: null, date: '2027-02-03' })];
    const wide = { ...Q, to: '2027-02-28' };
    expect(spendReport(entries, { ...wide, group_by: 'hotel' }, NO_RATES).groups.map((g) => g.key)).toEqual([
      FLIGHTS_GROUP_KEY,
      'H1',
    ]);
    expect(spendReport(entries, { ...wide, group_by: 'month' }, NO_RATES).groups.map((g) => g.key)).toEqual([
      '2027-01',
      '2027-02',
    ]);
  });

  test("converts each amount at its own date's rate and rounds to the reporting currency's minor unit", () => {
    // Pivot units per unit: EUR 1.10 until Jan 15, then 1.20; JPY 0.0067.
    const fx = fxTable([
      { currency: 'EUR', rate: 1.1, as_of: '2027-01-01' },
      { currency: 'EUR', rate: 1.2, as_of: '2027-01-15' },
      { currency: 'JPY', rate: 0.0067, as_of: '2027-01-01' },
    ]);
    const eur = (amount: number, date: string) => entry({ amount: { amount, currency: 'EUR' }, date });
    const report = spendReport([eur(100, '2027-01-10'), eur(100, '2027-01-20')], Q, fx);
    expect(report.groups[0]!.hotels_booked).toEqual(usd(230));
    const inYen = spendReport([eur(100.005, '2027-01-10')], { ...Q, currency: 'JPY' }, fx);
    expect(inYen.groups[0]!.hotels_booked).toEqual({ amount: 16419, currency: 'JPY' });
  });

  test('an amount without a rate on its date is left out and counted, never guessed', () => {
    const report = spendReport(
      [
        entry({}),
        entry({ amount: { amount: 10, currency: 'GBP' } }),
        entry({ amount: { amount: 5, currency: 'GBP' } }),
      ],
      Q,
      NO_RATES,
    );
    expect(report.groups[0]!.hotels_booked).toEqual(usd(100));
    expect(report.unconverted).toEqual([{ currency: 'GBP', entries: 2 }]);
  });
});

describe('spendQueryIssues', () => {
  test('names each bad field', () => {
    expect(spendQueryIssues({ from: '2027-01-01', to: '2027-01-31', group_by: 'station' })).toEqual([]);
    expect(spendQueryIssues({ from: 'x', to: '2027-01-31' }).map((i) => i.field)).toEqual(['from']);
    // Days Postgres refuses although V8's Date takes them (year 0, a day past the month's end).
    expect(spendQueryIssues({ from: '0000-01-01', to: '2027-01-31' }).map((i) => i.field)).toEqual(['from']);
    expect(spendQueryIssues({ from: '2027-01-01', to: '2027-02-30' }).map((i) => i.field)).toEqual(['to']);
    expect(spendQueryIssues({ from: '2027-02-01', to: '2027-01-31' }).map((i) => i.field)).toEqual(['to']);
    expect(spendQueryIssues({ from: '2027-01-01', to: '2027-01-31', group_by: 'crew' }).map((i) => i.field)).toEqual([
      'group_by',
    ]);
  });
});

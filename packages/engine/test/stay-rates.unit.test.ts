/** A stay's rate against the contract night by night: base amount, rate periods, the STRICT/LOOSE lever, FX. */
import type { RatePeriod } from '@crew/contracts';
import { fxTable } from '../src/fx';
import { roomNights, stayRateCheck } from '../src/stay-rates';

const money = (amount: number, currency = 'GBP') => ({ amount, currency });
// Weekday nights at 150, the weekend (Fri, Sat nights of 2027-03-05/06) at 120.
const PERIODS: RatePeriod[] = [
  { effective_from: '2027-03-01', effective_to: '2027-03-04', rate: money(150) },
  { effective_from: '2027-03-05', effective_to: '2027-03-06', rate: money(120) },
  { effective_from: '2027-03-07', effective_to: '2027-03-31', rate: money(150) },
];

describe('roomNights', () => {
  it('lists check-in up to the night before check-out', () => {
    expect(roomNights('2027-03-04', '2027-03-07')).toEqual(['2027-03-04', '2027-03-05', '2027-03-06']);
    expect(roomNights('2027-03-04', '2027-03-04')).toEqual([]);
  });
});

describe('stayRateCheck', () => {
  const nights = roomNights('2027-03-04', '2027-03-07');

  it('matches a base amount equal to the rate of each night (150 + 120 + 120), not the first night times the nights', () => {
    expect(stayRateCheck(PERIODS, money(390), nights, 'STRICT')).toEqual({
      ok: true,
      exact: true,
      flag: null,
      reason: null,
    });
    const firstNightTimesThree = stayRateCheck(PERIODS, money(450), nights, 'STRICT');
    expect(firstNightTimesThree.ok).toBe(false);
    expect(firstNightTimesThree.reason).toMatch(/^rate mismatch: .*390\.00 GBP/);
  });

  it('STRICT refuses a mismatch; LOOSE accepts it with a flag', () => {
    expect(stayRateCheck(PERIODS, money(395), nights, 'STRICT')).toMatchObject({ ok: false, exact: false });
    const loose = stayRateCheck(PERIODS, money(395), nights, 'LOOSE');
    expect(loose).toMatchObject({ ok: true, exact: false, reason: null });
    expect(loose.flag).toMatch(/395\.00 GBP for 3 nights differs from the contracted 390\.00 GBP/);
  });

  it('compares to the cent', () => {
    expect(stayRateCheck(PERIODS, money(390.004), nights, 'STRICT').ok).toBe(true);
    expect(stayRateCheck(PERIODS, money(390.01), nights, 'STRICT').ok).toBe(false);
  });

  it('converts a base amount in another currency at the first night’s rate', () => {
    // USD is the pivot: 1 GBP = 1.25 USD, so 390 GBP = 487.50 USD.
    const fx = fxTable([{ currency: 'GBP', rate: 1.25, as_of: '2027-01-01' }]);
    expect(stayRateCheck(PERIODS, money(487.5, 'USD'), nights, 'STRICT', fx).ok).toBe(true);
    expect(stayRateCheck(PERIODS, money(487.5, 'USD'), nights, 'STRICT', fx).exact).toBe(true);
    expect(stayRateCheck(PERIODS, money(480, 'USD'), nights, 'STRICT', fx).ok).toBe(false);
  });

  it('refuses in either mode what it cannot compare: a night without a period, a currency without a rate', () => {
    const short = PERIODS.slice(0, 1);
    for (const mode of ['STRICT', 'LOOSE'] as const) {
      expect(stayRateCheck(short, money(390), nights, mode)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/no rate for the nights of 2027-03-05, 2027-03-06/),
      });
      expect(stayRateCheck(PERIODS, money(487.5, 'USD'), nights, mode)).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/no exchange rate for GBP/),
      });
    }
  });
});

/** Flight options follow the airline's flight config, and the ceiling compares fares in one currency. */
import fc from 'fast-check';
import type { FlightConfigSnapshot, Money } from '@crew/contracts';
import {
  autoBookVerdict,
  ceilingCheck,
  chooseFlightOption,
  earliestTravelDate,
  flightOptionBar,
  flightOptionsPage,
  fxTable,
  orderingCeiling,
  rankFlightOptions,
  withinCeiling,
  type FlightOptionFacts,
} from '../src';

const usd = (amount: number): Money => ({ amount, currency: 'USD' });
const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
const cfg = (over: Partial<FlightConfigSnapshot> = {}): FlightConfigSnapshot => ({
  preferred_airlines: [],
  blacklisted_airlines: [],
  preferred_cabin: 'ECONOMY',
  same_carrier_preference: false,
  ...over,
});
let seq = 0;
const opt = (airline: string, price: Money, over: Partial<FlightOptionFacts> = {}): FlightOptionFacts => ({
  flight_option_id: `${airline}-${++seq}`,
  airline_code: airline,
  dep_time: '2027-03-10T08:00:00+00:00',
  arr_time: '2027-03-10T10:00:00+00:00',
  cabin: 'ECONOMY',
  price,
  ...over,
});
const OPEN = { depart_after: null, arrive_by: null };
// 1 EUR = 1/0.92 USD, i.e. 70 USD = 64.40 EUR.
const FX = fxTable([{ currency: 'EUR', rate: 1 / 0.92, as_of: '2026-11-20' }]);

describe('ceilingCheck: the fare in the ceiling currency at the fare date', () => {
  it('a USD fare under a EUR ceiling passes once EUR has a rate', () => {
    expect(ceilingCheck(usd(70), eur(1000), FX, '2027-03-10')).toEqual({ ok: true });
    expect(withinCeiling(usd(70), eur(1000), FX, '2027-03-10')).toBe(true);
  });

  it('above the converted ceiling: the reason names both currencies and the rate date', () => {
    const c = ceilingCheck(usd(70), eur(50), FX, '2027-03-10');
    expect(c).toMatchObject({
      ok: false,
      kind: 'ABOVE',
      reason:
        'fare 70.00 USD (= 64.40 EUR at the rate of 2026-11-20) is above the ceiling 50.00 EUR (auto_book_max_price)',
    });
  });

  it('no rate: cannot be compared, and says which rate is missing', () => {
    expect(ceilingCheck(usd(70), eur(1000), fxTable([]), '2027-03-10')).toEqual({
      ok: false,
      kind: 'NO_RATE',
      reason: 'no exchange rate for EUR is set (needed to compare the fare 70.00 USD with the ceiling 1000.00 EUR)',
    });
    // A rate set only after the fare date does not count.
    expect(ceilingCheck(usd(70), eur(1000), FX, '2026-11-19')).toMatchObject({ ok: false, kind: 'NO_RATE' });
  });

  it('compares to the cent: the converted fare exactly at the ceiling is within it', () => {
    expect(ceilingCheck(usd(70), eur(64.4), FX, '2027-03-10').ok).toBe(true);
    expect(ceilingCheck(usd(70.02), eur(64.4), FX, '2027-03-10').ok).toBe(false);
  });
});

describe('orderingCeiling: the ceiling a supplier applies to the fare it is about to pay', () => {
  it('judges as ceilingCheck does, at the rates of the flight departure date (local)', () => {
    const judge = orderingCeiling(eur(50), FX, '2027-03-10T23:30:00-05:00')!;
    expect(judge(usd(54))).toBeNull();
    expect(judge(usd(70))).toBe(
      'fare 70.00 USD (= 64.40 EUR at the rate of 2026-11-20) is above the ceiling 50.00 EUR (auto_book_max_price)',
    );
    // Before the rate's date (the local date, not the UTC one): the fare cannot be compared.
    expect(orderingCeiling(eur(50), FX, '2026-11-19T23:30:00-05:00')!(usd(10))).toContain('no exchange rate for EUR');
  });

  it('no ceiling: nothing to judge', () => {
    expect(orderingCeiling(null, FX, '2027-03-10T08:00:00+00:00')).toBeUndefined();
  });
});

describe('chooseFlightOption with exchange rates', () => {
  it('books a USD fare under a EUR ceiling (the issue: "70 USD is above 1000 EUR" no more)', () => {
    const o = [opt('LH', usd(70))];
    expect(chooseFlightOption(o, OPEN, cfg(), 'XY', eur(1000), undefined, FX)).toEqual({ ok: true, option: o[0] });
  });

  it('without the rate: review, with the no-rate reason', () => {
    const r = chooseFlightOption([opt('LH', usd(70))], OPEN, cfg(), 'XY', eur(1000));
    expect(r).toEqual({
      ok: false,
      reason: 'no exchange rate for EUR is set (needed to compare the fare 70.00 USD with the ceiling 1000.00 EUR)',
    });
  });

  it('every fare above the converted ceiling: the lowest is named in both currencies', () => {
    const r = chooseFlightOption([opt('LH', usd(300)), opt('AF', usd(70))], OPEN, cfg(), 'XY', eur(50), undefined, FX);
    expect(r).toEqual({
      ok: false,
      reason:
        'the lowest fitting fare 70.00 USD (= 64.40 EUR at the rate of 2026-11-20) is above the ceiling 50.00 EUR (auto_book_max_price)',
    });
  });

  it('cheapest within a group is judged in one currency', () => {
    // 100 EUR = 108.70 USD: the 105 USD fare is the cheaper one.
    const o = [opt('LH', eur(100)), opt('LH', usd(105))];
    const r = chooseFlightOption(o, OPEN, cfg(), 'XY', null, undefined, FX);
    expect(r.ok && r.option.price).toEqual(usd(105));
  });
});

describe('rankFlightOptions: the order the engine tries options (shared with GET /crew/flight-options)', () => {
  it('drops blacklisted carriers and cabins above the cap; own carrier, then preferred in order, then the rest', () => {
    const o = [
      opt('KL', usd(50)),
      opt('BA', usd(40)),
      opt('AF', usd(90)),
      opt('LH', usd(95)),
      opt('XY', usd(300)),
      opt('LH', usd(60), { cabin: 'BUSINESS' }),
    ];
    const c = cfg({ blacklisted_airlines: ['BA'], preferred_airlines: ['LH', 'AF'], same_carrier_preference: true });
    expect(rankFlightOptions(o, c, 'XY', FX).map((x) => x.airline_code)).toEqual(['XY', 'LH', 'AF', 'KL']);
    expect(rankFlightOptions(o, { ...c, same_carrier_preference: false }, 'XY', FX).map((x) => x.airline_code)).toEqual(
      ['LH', 'AF', 'KL', 'XY'],
    );
    // A requested cabin is the cap instead of preferred_cabin.
    expect(rankFlightOptions(o, c, 'XY', FX, 'BUSINESS').map((x) => `${x.airline_code}/${x.cabin}`)).toContain(
      'LH/BUSINESS',
    );
  });

  it('pages in the order it ranks: equal-rank options whose ids sort against their flights each come once', () => {
    // Same carrier, fare and departure; the offer ids sort one way, the flights the other.
    const o = [
      opt('LH', usd(50), { flight_option_id: 'a-offer', flight_number: 'LH200' }),
      opt('LH', usd(50), { flight_option_id: 'b-offer', flight_number: 'LH100' }),
    ];
    const c = cfg();
    const ranked = rankFlightOptions(o, c, 'XY', FX);
    const first = flightOptionsPage(ranked, c, 'XY', FX, null, 1);
    expect(first.next).not.toBeNull();
    // The next page comes from a new live search: new offer ids, the same flights, the ids now sorting the other way.
    const again = rankFlightOptions(
      [
        { ...o[0]!, flight_option_id: 'd-offer' },
        { ...o[1]!, flight_option_id: 'c-offer' },
      ],
      c,
      'XY',
      FX,
    );
    const second = flightOptionsPage(again, c, 'XY', FX, first.next, 1);
    expect(second.next).toBeNull();
    expect([...first.page, ...second.page].map((x) => x.flight_number)).toEqual(['LH100', 'LH200']);
    // Paged over the same search as well.
    const same = flightOptionsPage(ranked, c, 'XY', FX, first.next, 1);
    expect([...first.page, ...same.page].map((x) => x.flight_number)).toEqual(['LH100', 'LH200']);
  });

  it('property: the choice is always the first ranked option within the window and the ceiling', () => {
    const arb = fc.record({
      opts: fc.array(
        fc.record({
          airline: fc.constantFrom('XY', 'LH', 'AF', 'BA'),
          amount: fc.integer({ min: 1, max: 500 }),
          currency: fc.constantFrom('USD', 'EUR'),
          cabin: fc.constantFrom('ECONOMY', 'BUSINESS'),
        }),
        { maxLength: 10 },
      ),
      black: fc.uniqueArray(fc.constantFrom('XY', 'LH', 'AF', 'BA'), { maxLength: 2 }),
      pref: fc.uniqueArray(fc.constantFrom('XY', 'LH', 'AF', 'BA'), { maxLength: 2 }),
      same: fc.boolean(),
      max: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
    });
    fc.assert(
      fc.property(arb, (a) => {
        const options = a.opts.map((o, i) => ({
          ...opt(o.airline, { amount: o.amount, currency: o.currency }, { cabin: o.cabin }),
          flight_option_id: `o${i}`,
        }));
        const c = cfg({ blacklisted_airlines: a.black, preferred_airlines: a.pref, same_carrier_preference: a.same });
        const max = a.max === null ? null : eur(a.max);
        const ranked = rankFlightOptions(options, c, 'XY', FX);
        const first = ranked.find((o) => autoBookVerdict(o, c, max, FX).auto_bookable);
        const r = chooseFlightOption(options, OPEN, c, 'XY', max, undefined, FX);
        expect(r.ok ? r.option : undefined).toBe(first);
        for (const o of ranked) expect(flightOptionBar(o, c)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('autoBookVerdict', () => {
  it('true within the ceiling on an allowed carrier; else the reason', () => {
    expect(autoBookVerdict(opt('LH', usd(70)), cfg(), eur(1000), FX)).toEqual({ auto_bookable: true, reason: null });
    expect(autoBookVerdict(opt('LH', usd(70)), cfg(), eur(50), FX)).toEqual({
      auto_bookable: false,
      reason: expect.stringMatching(/is above the ceiling 50.00 EUR/),
    });
    expect(autoBookVerdict(opt('BA', usd(70)), cfg({ blacklisted_airlines: ['BA'] }), null, FX)).toEqual({
      auto_bookable: false,
      reason: 'carrier BA is blacklisted',
    });
    expect(autoBookVerdict(opt('LH', usd(70), { cabin: 'FIRST' }), cfg(), null, FX)).toEqual({
      auto_bookable: false,
      reason: 'cabin FIRST is above the preferred cabin ECONOMY',
    });
    expect(autoBookVerdict(opt('LH', usd(70), { cabin: 'FIRST' }), cfg(), null, FX, 'FIRST').auto_bookable).toBe(true);
    expect(autoBookVerdict(opt('LH', usd(70)), cfg(), eur(1000), fxTable([])).reason).toMatch(
      /^no exchange rate for EUR is set/,
    );
  });
});

describe('earliestTravelDate', () => {
  it('is the date at UTC-12: a date still current somewhere is never past', () => {
    expect(earliestTravelDate(Date.parse('2026-11-23T20:00:00Z'))).toBe('2026-11-23');
    expect(earliestTravelDate(Date.parse('2026-11-23T11:59:59Z'))).toBe('2026-11-22');
    expect(earliestTravelDate(Date.parse('2026-11-23T12:00:00Z'))).toBe('2026-11-23');
  });
});

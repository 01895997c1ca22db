/** The choice among live flight options (spec 4.3 flight config and flight-rules): carriers, ceiling, leg window. */
import fc from 'fast-check';
import type { FlightConfigSnapshot } from '@crew/contracts';
import { chooseFlightOption, type FlightOptionFacts, type LegWindow } from '../src/flight-options';
import { eur, pad, type Spec } from './policy-fixtures';

// ---------------------------------------------------------------- chooseFlightOption

type Opt = FlightOptionFacts;
let seq = 0;
function opt(airline: string, amount: number, over: Partial<Opt> = {}): Opt {
  seq++;
  return {
    flight_option_id: `${airline}-${amount}-${seq}`,
    airline_code: airline,
    dep_time: '2026-12-10T08:00:00Z',
    arr_time: '2026-12-10T10:00:00Z',
    cabin: 'ECONOMY',
    price: eur(amount),
    ...over,
  };
}
function cfg(over: Partial<FlightConfigSnapshot> = {}): FlightConfigSnapshot {
  return {
    preferred_airlines: [],
    blacklisted_airlines: [],
    preferred_cabin: 'ECONOMY',
    same_carrier_preference: false,
    ...over,
  };
}
const OPEN: LegWindow = { depart_after: null, arrive_by: null };
const OWN = 'XY';

function chosen(r: ReturnType<typeof chooseFlightOption<Opt>>): Opt {
  if (!r.ok) throw new Error(`expected a choice, got: ${r.reason}`);
  return r.option;
}

describe('chooseFlightOption: carrier rules (spec 4.3 flight config)', () => {
  it('a blacklisted carrier is never booked, even when cheapest', () => {
    const o = [opt('BA', 50), opt('LH', 80)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, null)).airline_code).toBe(
      'LH',
    );
  });

  it('a blacklisted carrier is never booked, even when also preferred or the own carrier', () => {
    const o = [opt('BA', 50), opt(OWN, 40), opt('LH', 300)];
    const c = cfg({ blacklisted_airlines: ['BA', OWN], preferred_airlines: ['BA'], same_carrier_preference: true });
    expect(chosen(chooseFlightOption(o, OPEN, c, OWN, null)).airline_code).toBe('LH');
  });

  it('only blacklisted carriers: no choice (review)', () => {
    const r = chooseFlightOption([opt('BA', 50)], OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, null);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/no flight option fits/) });
  });

  it('no options at all: no choice', () => {
    expect(chooseFlightOption([], OPEN, cfg(), OWN, null).ok).toBe(false);
  });

  it('same_carrier_preference on: the own carrier is tried before preferred carriers and cheaper ones', () => {
    const o = [opt('LH', 60), opt('AF', 50), opt(OWN, 200)];
    expect(
      chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: true }), OWN, null))
        .airline_code,
    ).toBe(OWN);
  });

  it('same_carrier_preference off: the own carrier gets no precedence', () => {
    const o = [opt('LH', 60), opt('AF', 50), opt(OWN, 200)];
    expect(
      chosen(
        chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: false }), OWN, null),
      ).airline_code,
    ).toBe('LH');
    expect(chosen(chooseFlightOption(o, OPEN, cfg(), OWN, null)).airline_code).toBe('AF');
  });

  it('preferred carriers are tried first, in their configured order', () => {
    const o = [opt('AF', 90), opt('LH', 120), opt('KL', 40)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH', 'AF'] }), OWN, null)).airline_code).toBe(
      'LH',
    );
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['AF', 'LH'] }), OWN, null)).airline_code).toBe(
      'AF',
    );
  });

  it('no preferred carrier offered: any non-blacklisted option, cheapest first', () => {
    const o = [opt('KL', 70), opt('IB', 40), opt('UA', 55)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'] }), OWN, null)).flight_option_id).toBe(
      o[1]!.flight_option_id,
    );
  });

  it('within one carrier group the cheapest option wins', () => {
    const o = [opt('LH', 150), opt('LH', 110), opt('LH', 130)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'] }), OWN, null)).price).toEqual(eur(110));
  });

  it('cabin: never above the preferred cabin', () => {
    const o = [opt('LH', 50, { cabin: 'BUSINESS' }), opt('LH', 90, { cabin: 'ECONOMY' })];
    expect(chosen(chooseFlightOption(o, OPEN, cfg(), OWN, null)).cabin).toBe('ECONOMY');
  });

  it('cabin: the preferred cabin and any lower one are allowed', () => {
    const o = [
      opt('LH', 300, { cabin: 'FIRST' }),
      opt('LH', 200, { cabin: 'PREMIUM_ECONOMY' }),
      opt('LH', 100, { cabin: 'ECONOMY' }),
      opt('LH', 150, { cabin: 'BUSINESS' }),
    ];
    const r = chooseFlightOption(o, OPEN, cfg({ preferred_cabin: 'PREMIUM_ECONOMY' }), OWN, null);
    expect(chosen(r).cabin).toBe('ECONOMY');
    const onlyHigh = o.filter((x) => x.cabin !== 'ECONOMY');
    expect(
      chosen(chooseFlightOption(onlyHigh, OPEN, cfg({ preferred_cabin: 'PREMIUM_ECONOMY' }), OWN, null)).cabin,
    ).toBe('PREMIUM_ECONOMY');
  });

  it('cabin: only options above the preferred cabin means no choice', () => {
    expect(chooseFlightOption([opt('LH', 100, { cabin: 'BUSINESS' })], OPEN, cfg(), OWN, null).ok).toBe(false);
  });

  it('cabin override (per-request cabin_class) raises the cap above the preferred cabin', () => {
    const o = [opt('LH', 400, { cabin: 'BUSINESS' })];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_cabin: 'ECONOMY' }), OWN, null, 'BUSINESS')).cabin).toBe(
      'BUSINESS',
    );
  });

  it('cabin override lowers the cap below the preferred cabin', () => {
    const o = [opt('LH', 100, { cabin: 'BUSINESS' }), opt('AF', 300, { cabin: 'ECONOMY' })];
    expect(
      chosen(
        chooseFlightOption(
          o,
          OPEN,
          cfg({ preferred_cabin: 'BUSINESS', preferred_airlines: ['LH'] }),
          OWN,
          null,
          'ECONOMY',
        ),
      ).airline_code,
    ).toBe('AF');
  });
});

describe('chooseFlightOption: price ceiling (spec 4.3 flight-rules auto_book_max_price)', () => {
  it('a preferred option above the ceiling is passed over for the next one under it', () => {
    const o = [opt('LH', 260), opt('AF', 180), opt('KL', 150)];
    expect(
      chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH', 'AF'] }), OWN, eur(200))).airline_code,
    ).toBe('AF');
  });

  it('an own-carrier option above the ceiling falls through to the preferred list', () => {
    const o = [opt(OWN, 500), opt('LH', 190)];
    expect(
      chosen(
        chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: true }), OWN, eur(200)),
      ).airline_code,
    ).toBe('LH');
  });

  it('a fare exactly at the ceiling is within it', () => {
    expect(chosen(chooseFlightOption([opt('LH', 200)], OPEN, cfg(), OWN, eur(200))).price).toEqual(eur(200));
  });

  it('every fitting option above the ceiling: no choice, with a reason naming auto_book_max_price and the lowest fare', () => {
    const o = [opt('LH', 260), opt('AF', 210.5), opt('BA', 100)];
    const r = chooseFlightOption(o, OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, eur(200));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(/auto_book_max_price/);
      expect(r.reason).toBe('the lowest fitting fare 210.50 EUR is above the ceiling 200.00 EUR (auto_book_max_price)');
    }
  });

  it('no ceiling configured: any fare may be booked', () => {
    expect(chosen(chooseFlightOption([opt('LH', 99999)], OPEN, cfg(), OWN, null)).price.amount).toBe(99999);
  });

  it('a fare in another currency than the ceiling is not treated as within it', () => {
    const o = [opt('LH', 10, { price: { amount: 10, currency: 'USD' } })];
    expect(chooseFlightOption(o, OPEN, cfg(), OWN, eur(200)).ok).toBe(false);
  });
});

describe('chooseFlightOption: leg window', () => {
  const o = [
    opt('LH', 50, { dep_time: '2026-12-10T05:00:00Z', arr_time: '2026-12-10T07:00:00Z' }),
    opt('LH', 90, { dep_time: '2026-12-10T09:00:00Z', arr_time: '2026-12-10T11:00:00Z' }),
    opt('LH', 70, { dep_time: '2026-12-10T13:00:00Z', arr_time: '2026-12-10T15:00:00Z' }),
  ];

  it('options departing before depart_after are skipped', () => {
    expect(
      chosen(chooseFlightOption(o, { depart_after: '2026-12-10T08:00:00Z', arrive_by: null }, cfg(), OWN, null)).price,
    ).toEqual(eur(70));
  });

  it('options arriving after arrive_by are skipped', () => {
    expect(
      chosen(
        chooseFlightOption(
          o,
          { depart_after: '2026-12-10T08:00:00Z', arrive_by: '2026-12-10T12:00:00Z' },
          cfg(),
          OWN,
          null,
        ),
      ).price,
    ).toEqual(eur(90));
  });

  it('window edges are inclusive and compared as instants across offsets', () => {
    // 10:00+01:00 == 09:00Z departure; 12:00+01:00 == 11:00Z arrival.
    const leg = { depart_after: '2026-12-10T10:00:00+01:00', arrive_by: '2026-12-10T12:00:00+01:00' };
    expect(chosen(chooseFlightOption(o, leg, cfg(), OWN, null)).price).toEqual(eur(90));
  });

  it('nothing in the window: no choice', () => {
    expect(chooseFlightOption(o, { depart_after: '2026-12-10T16:00:00Z', arrive_by: null }, cfg(), OWN, null).ok).toBe(
      false,
    );
  });
});

const CABINS = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'] as const;
const RANK: Record<string, number> = { ECONOMY: 0, PREMIUM_ECONOMY: 1, BUSINESS: 2, FIRST: 3 };
const CARRIERS = ['XY', 'LH', 'AF', 'BA', 'KL', 'IB'];

describe('chooseFlightOption: properties', () => {
  const arbOpt = fc.record({
    airline: fc.constantFrom(...CARRIERS),
    amount: fc.integer({ min: 1, max: 500 }),
    currency: fc.constantFrom('EUR', 'EUR', 'EUR', 'USD'),
    cabin: fc.constantFrom(...CABINS),
    depHour: fc.integer({ min: 0, max: 20 }),
    dur: fc.integer({ min: 1, max: 3 }),
  });
  const arbCfg = fc.record({
    preferred_airlines: fc.uniqueArray(fc.constantFrom(...CARRIERS), { maxLength: 3 }),
    blacklisted_airlines: fc.uniqueArray(fc.constantFrom(...CARRIERS), { maxLength: 3 }),
    preferred_cabin: fc.constantFrom(...CABINS),
    same_carrier_preference: fc.boolean(),
  });
  const arbCase = fc.record({
    opts: fc.array(arbOpt, { maxLength: 12 }),
    cfg: arbCfg,
    max: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
    override: fc.option(fc.constantFrom(...CABINS), { nil: undefined }),
    after: fc.option(fc.integer({ min: 0, max: 23 }), { nil: null }),
    by: fc.option(fc.integer({ min: 0, max: 23 }), { nil: null }),
  });
  const hh = (h: number) => `2026-12-10T${pad(h)}:00:00Z`;
  const toOpts = (c: Spec<typeof arbCase>): Opt[] =>
    c.opts.map((o, k) => ({
      flight_option_id: `o${k}`,
      airline_code: o.airline,
      dep_time: hh(o.depHour),
      arr_time: hh(o.depHour + o.dur),
      cabin: o.cabin,
      price: { amount: o.amount, currency: o.currency },
    }));

  it('never a blacklisted carrier, never above the cabin cap, never above the ceiling, always inside the leg window', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const options = toOpts(c);
        const leg = { depart_after: c.after === null ? null : hh(c.after), arrive_by: c.by === null ? null : hh(c.by) };
        const max = c.max === null ? null : eur(c.max);
        const r = chooseFlightOption(options, leg, c.cfg, OWN, max, c.override);
        const cap = RANK[c.override ?? c.cfg.preferred_cabin]!;
        const acceptable = (o: Opt) =>
          !c.cfg.blacklisted_airlines.includes(o.airline_code) &&
          RANK[o.cabin]! <= cap &&
          (!leg.depart_after || Date.parse(o.dep_time) >= Date.parse(leg.depart_after)) &&
          (!leg.arrive_by || Date.parse(o.arr_time) <= Date.parse(leg.arrive_by)) &&
          (!max || (o.price.currency === max.currency && o.price.amount <= max.amount));
        if (r.ok) {
          expect(options).toContain(r.option);
          expect(acceptable(r.option)).toBe(true);
        } else {
          // Completeness: review only when nothing acceptable was offered.
          expect(options.some(acceptable)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the choice is in the best carrier group on offer, and the cheapest acceptable option of that group', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const options = toOpts(c).map((o) => ({ ...o, price: eur(o.price.amount) }));
        const r = chooseFlightOption(options, OPEN, c.cfg, OWN, null, c.override);
        if (!r.ok) return;
        const cap = RANK[c.override ?? c.cfg.preferred_cabin]!;
        const ok = options.filter((o) => !c.cfg.blacklisted_airlines.includes(o.airline_code) && RANK[o.cabin]! <= cap);
        const group = (code: string) =>
          c.cfg.same_carrier_preference && code === OWN
            ? -1
            : c.cfg.preferred_airlines.includes(code)
              ? c.cfg.preferred_airlines.indexOf(code)
              : 99;
        const best = Math.min(...ok.map((o) => group(o.airline_code)));
        expect(group(r.option.airline_code)).toBe(best);
        const cheapest = Math.min(...ok.filter((o) => group(o.airline_code) === best).map((o) => o.price.amount));
        expect(r.option.price.amount).toBe(cheapest);
      }),
      { numRuns: 300 },
    );
  });
});

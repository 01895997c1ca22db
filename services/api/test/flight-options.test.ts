import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

/** GET /crew/flight-options follows the airline's flight config. */
let stack: Stack;
beforeAll(async () => {
  // The api's today: 2027-03-01 (the route is searched on 2027-03-10).
  stack = await startStack('flight_options', { now: () => new Date(`${TODAY}T00:00:00Z`) });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

interface Option {
  flight_option_id: string;
  airline_code: string;
  flight_number: string;
  cabin: string;
  dep_time: string;
  price: { amount: number; currency: string };
  auto_bookable: boolean;
  auto_book_reason: string | null;
}

const TODAY = '2027-03-01';
const ROUTE = 'from_airport=LHR&to_airport=JFK&date=2027-03-10';
const RANK: Record<string, number> = { ECONOMY: 0, PREMIUM_ECONOMY: 1, BUSINESS: 2, FIRST: 3 };
let n = 0;
async function airline(
  carrier = 'ZZ',
  flights?: Record<string, unknown>,
  maxPrice?: { amount: number; currency: string } | null,
) {
  n++;
  const t = await onboard(stack, { name: `Options Air ${n}`, carrier, scopes: 'events:read events:write' });
  if (flights) expect((await api(t, '/crew/config/flights', { method: 'PUT', body: flights })).status).toBe(200);
  if (maxPrice !== undefined)
    expect(
      (await api(t, '/crew/config/flight-rules', { method: 'PUT', body: { auto_book_max_price: maxPrice } })).status,
    ).toBe(200);
  return t;
}
async function options(t: Tenant, q = ROUTE): Promise<Option[]> {
  const res = await api(t, `/crew/flight-options?${q}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.options;
}
/** The carrier groups in the order the options come, each carrier once. */
const carrierOrder = (o: Option[]) => o.map((x) => x.airline_code).filter((c, i, a) => a.indexOf(c) === i);

let carriers: string[];
beforeAll(async () => {
  // Every carrier on the route, seen by an airline that asks for each cabin (nothing filtered).
  const t = await airline();
  const seen = new Set<string>();
  for (const cabin of Object.keys(RANK))
    for (const o of await options(t, `${ROUTE}&cabin=${cabin}`)) seen.add(o.airline_code);
  carriers = [...seen].sort();
  expect(carriers.length).toBeGreaterThanOrEqual(3);
});

describe('GET /crew/flight-options follows the flight config', () => {
  it('never offers a blacklisted carrier', async () => {
    const t = await airline('ZZ', { blacklisted_airlines: [carriers[0]] });
    const o = await options(t);
    expect(o.length).toBeGreaterThan(0);
    expect(o.map((x) => x.airline_code)).not.toContain(carriers[0]);
    for (const cabin of Object.keys(RANK))
      expect((await options(t, `${ROUTE}&cabin=${cabin}`)).map((x) => x.airline_code)).not.toContain(carriers[0]);
  });

  it('preferred carriers come first, in their configured order; then the rest, cheapest first', async () => {
    const preferred = [carriers[2]!, carriers[1]!];
    const o = await options(await airline('ZZ', { preferred_airlines: preferred }));
    expect(carrierOrder(o).slice(0, 2)).toEqual(preferred);
    const rest = o.filter((x) => !preferred.includes(x.airline_code)).map((x) => x.price.amount);
    expect(rest).toEqual([...rest].sort((a, b) => a - b));
    // Within a preferred carrier, cheapest first as well.
    const first = o.filter((x) => x.airline_code === preferred[0]).map((x) => x.price.amount);
    expect(first).toEqual([...first].sort((a, b) => a - b));
  });

  it("with same_carrier_preference the airline's own carrier comes before the preferred ones (and not without it)", async () => {
    const own = carriers[carriers.length - 1]!;
    const on = await options(await airline(own, { preferred_airlines: [carriers[0]], same_carrier_preference: true }));
    expect(carrierOrder(on).slice(0, 2)).toEqual([own, carriers[0]]);
    const off = await options(
      await airline(own, { preferred_airlines: [carriers[0]], same_carrier_preference: false }),
    );
    expect(carrierOrder(off)[0]).toBe(carriers[0]);
    expect(off.findIndex((x) => x.airline_code === own)).toBeGreaterThan(
      off.findIndex((x) => x.airline_code === carriers[0]),
    );
  });

  it('nothing above preferred_cabin unless the query asks for a cabin (cabin or cabin_class)', async () => {
    const t = await airline('ZZ', { preferred_cabin: 'PREMIUM_ECONOMY' });
    const o = await options(t);
    expect(o.length).toBeGreaterThan(0);
    for (const x of o) expect(RANK[x.cabin]).toBeLessThanOrEqual(RANK.PREMIUM_ECONOMY!);
    expect(new Set(o.map((x) => x.cabin))).toEqual(new Set(['ECONOMY', 'PREMIUM_ECONOMY']));
    for (const param of ['cabin', 'cabin_class']) {
      const business = await options(t, `${ROUTE}&${param}=BUSINESS`);
      expect(business.length).toBeGreaterThan(0);
      for (const x of business) expect(x).toMatchObject({ cabin: 'BUSINESS', auto_bookable: true });
    }
  });

  it('each option says whether the engine could auto-book it: the ceiling is compared in its own currency at the rate of the fare date', async () => {
    const all = await options(await airline('ZZ'));
    for (const x of all) expect(x).toMatchObject({ auto_bookable: true, auto_book_reason: null });
    const fares = all.map((x) => x.price.amount).sort((a, b) => a - b);
    const mid = fares[Math.floor(fares.length / 2)]!;
    expect(all.every((x) => x.price.currency === 'USD')).toBe(true);

    const usdCeiling = await options(await airline('ZZ', undefined, { amount: mid, currency: 'USD' }));
    for (const x of usdCeiling) {
      expect(x.auto_bookable).toBe(x.price.amount <= mid);
      if (!x.auto_bookable)
        expect(x.auto_book_reason).toBe(
          `fare ${x.price.amount.toFixed(2)} USD is above the ceiling ${mid.toFixed(2)} USD (auto_book_max_price)`,
        );
    }

    // A ceiling in a currency without a rate: nothing is auto-bookable, and the reason says why.
    const chf = await options(await airline('ZZ', undefined, { amount: 100000, currency: 'CHF' }));
    for (const x of chf)
      expect(x).toMatchObject({
        auto_bookable: false,
        auto_book_reason: expect.stringMatching(
          /^no exchange rate for CHF is set \(needed to compare the fare .* USD with the ceiling 100000.00 CHF\)$/,
        ),
      });

    // With a rate (1 CHF = 1.25 USD), the same ceiling as the USD one gives the same verdicts.
    expect((await ops('/fx-rates/CHF', { method: 'PUT', body: { rate: 1.25, as_of: '2026-11-01' } })).status).toBe(200);
    const converted = await options(await airline('ZZ', undefined, { amount: mid / 1.25, currency: 'CHF' }));
    for (const x of converted) {
      expect(x.auto_bookable).toBe(x.price.amount <= mid);
      if (!x.auto_bookable)
        expect(x.auto_book_reason).toMatch(
          /^fare .* USD \(= .* CHF at the rate of 2026-11-01\) is above the ceiling .* CHF \(auto_book_max_price\)$/,
        );
    }
  });

  it('pages with a cursor through the same options, in the same order, under a flight config', async () => {
    const t = await airline(carriers[1], {
      preferred_airlines: [carriers[2]],
      same_carrier_preference: true,
      preferred_cabin: 'BUSINESS',
    });
    const all = (await options(t)).map((x) => `${x.airline_code}${x.flight_number}/${x.cabin}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { options: Option[]; next_cursor: string | null } } = await api(
        t,
        `/crew/flight-options?${ROUTE}&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.options.map((x) => `${x.airline_code}${x.flight_number}/${x.cabin}`));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });
});

describe('GET /crew/flight-options: dates', () => {
  it('a date in the past is 422 VALIDATION_FAILED naming date, in the envelope', async () => {
    const t = await airline();
    // At 2027-03-01T00:00Z it is still 2027-02-28 at UTC-12 (allowed below); 2027-02-27 is past everywhere.
    for (const date of ['2020-01-01', '2027-02-27']) {
      const res = await api(t, `/crew/flight-options?from_airport=LHR&to_airport=JFK&date=${date}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: {
          code: 'VALIDATION_FAILED',
          message: expect.any(String),
          details: [{ field: 'query.date', issue: expect.stringContaining('in the past') }],
        },
        status: 422,
      });
    }
  });

  it('today (UTC), and yesterday while it is still yesterday at UTC-12, are searched', async () => {
    const t = await airline();
    for (const date of [TODAY, '2027-02-28'])
      expect((await api(t, `/crew/flight-options?from_airport=LHR&to_airport=JFK&date=${date}`)).status).toBe(200);
  });
});

import { CABINS, CARRIERS } from '../src/index';
import { booker, flyer, start, type TestSandbox } from './support';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());
beforeEach(() => sb.sandbox.reset());

const search = (q: string) => sb.call('GET', `/flights/search?${q}`);
const content = (offers: any[]) => offers.map(({ flight_option_id: _id, expires_at: _exp, ...rest }) => rest);
const order = (reference: string, flight_option_id: string) =>
  sb.call('POST', '/flight-orders', { reference, flight_option_id, traveller: flyer, booker_email: booker });

describe('flight search', () => {
  it('gives the same options for the same search (content equal, ids differ)', async () => {
    const first = await search('from=LHR&to=JFK&date=2025-07-01');
    sb.tick(60_000);
    const second = await search('from=LHR&to=JFK&date=2025-07-01');
    expect(first.status).toBe(200);
    expect(first.body.offers.length).toBeGreaterThan(0);
    expect(content(second.body.offers)).toEqual(content(first.body.offers));
    expect(second.body.offers[0].flight_option_id).not.toBe(first.body.offers[0].flight_option_id);

    // Another sandbox (another offer secret, another process in real life) still sells the same flights.
    const other = await start();
    try {
      const third = await other.call('GET', '/flights/search?from=LHR&to=JFK&date=2025-07-01');
      expect(content(third.body.offers)).toEqual(content(first.body.offers));
    } finally {
      await other.close();
    }
  });

  it('offers several departures a day from several carriers in four cabins with different fares', async () => {
    const expiry = new Date(sb.sandbox.now() + 20 * 60_000).toISOString();
    const { body } = await search('from=FRA&to=SIN&date=2025-09-15');
    const offers: any[] = body.offers;
    const flights = new Set(offers.map((o) => o.flight_number));
    expect(flights.size).toBeGreaterThanOrEqual(6);
    expect(new Set(offers.map((o) => o.airline_code)).size).toBeGreaterThanOrEqual(4);
    expect(new Set(offers.map((o) => o.cabin))).toEqual(new Set(CABINS));
    for (const o of offers) {
      expect(o.flight_number.startsWith(o.airline_code)).toBe(true);
      expect(o.price.currency).toBe('USD');
      expect(Date.parse(o.arr_time)).toBeGreaterThan(Date.parse(o.dep_time));
      expect(o.expires_at).toBe(expiry);
    }
    const first = offers.filter((o) => o.flight_number === offers[0].flight_number);
    const fares = first.map((o) => o.price.amount);
    expect(new Set(fares).size).toBe(fares.length);
    expect(fares).toEqual([...fares].sort((a, b) => a - b));
  });

  it('uses at least 6 carriers across routes', async () => {
    const carriers = new Set<string>();
    for (const route of [
      'from=JFK&to=LAX',
      'from=LHR&to=DXB',
      'from=NRT&to=SYD',
      'from=CDG&to=GRU',
      'from=ORD&to=FRA',
    ]) {
      for (const o of (await search(`${route}&date=2025-07-01`)).body.offers) carriers.add(o.airline_code);
    }
    expect(carriers.size).toBeGreaterThanOrEqual(6);
    for (const c of carriers) expect(CARRIERS.map((k) => k.code)).toContain(c);
  });

  it('departs on the searched local date with the origin offset, DST included', async () => {
    const summer = (await search('from=LHR&to=CDG&date=2025-07-01')).body.offers;
    const winter = (await search('from=LHR&to=CDG&date=2025-01-15')).body.offers;
    for (const o of summer) {
      expect(o.dep_time).toMatch(/^2025-07-01T\d\d:\d\d:00\+01:00$/);
      expect(o.arr_time).toMatch(/\+02:00$/);
    }
    for (const o of winter) expect(o.dep_time).toMatch(/^2025-01-15T\d\d:\d\d:00\+00:00$/);
    const east = (await search('from=SYD&to=AKL&date=2025-07-01')).body.offers;
    for (const o of east) expect(o.dep_time).toMatch(/^2025-07-01T.*\+10:00$/);
  });

  it('serves any two distinct 3-letter codes, even outside the airport table', async () => {
    const { status, body } = await search('from=QQQ&to=ZZX&date=2030-02-28');
    expect(status).toBe(200);
    expect(body.offers.length).toBeGreaterThan(0);
    expect(body.offers[0].dep_time).toMatch(/^2030-02-28T.*\+00:00$/);
  });

  it('filters by cabin', async () => {
    const { body } = await search('from=DXB&to=LHR&date=2025-07-01&cabin=FIRST');
    expect(body.offers.length).toBeGreaterThan(0);
    for (const o of body.offers) expect(o.cabin).toBe('FIRST');
  });

  it('refuses a search with the same airports, a bad code or a bad date', async () => {
    expect((await search('from=LHR&to=LHR&date=2025-07-01')).status).toBe(400);
    expect((await search('from=LH&to=JFK&date=2025-07-01')).status).toBe(400);
    expect((await search('from=LHR&to=JFK&date=2025-13-01')).status).toBe(400);
    expect((await search('from=LHR&to=JFK&date=2025-07-01&cabin=COACH')).status).toBe(400);
  });
});

describe('offer validity', () => {
  it('books an offer up to 20 minutes old and refuses it after', async () => {
    const offers = (await search('from=JFK&to=LHR&date=2025-07-01')).body.offers;
    sb.tick(20 * 60_000 - 1);
    const ok = await order('ord-fresh', offers[0].flight_option_id);
    expect(ok.status).toBe(201);
    sb.tick(1);
    const late = await order('ord-late', offers[1].flight_option_id);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('OFFER_EXPIRED');
    expect((await sb.call('GET', '/_control/reservations')).body.reservations).toHaveLength(1);
  });

  it('ages offers through POST /_control/clock too', async () => {
    const before = sb.sandbox.now();
    const offers = (await search('from=JFK&to=LHR&date=2025-07-01')).body.offers;
    const clock = await sb.call('POST', '/_control/clock', { advance_ms: 21 * 60_000 });
    expect(clock.status).toBe(200);
    expect(clock.body.now).toBe(new Date(before + 21 * 60_000).toISOString());
    expect((await order('ord-aged', offers[0].flight_option_id)).body.error.code).toBe('OFFER_EXPIRED');
    // reset also rewinds the clock offset
    await sb.call('POST', '/_control/reset');
    const fresh = (await search('from=JFK&to=LHR&date=2025-07-01')).body.offers;
    expect(fresh[0].expires_at).toBe(new Date(before + 20 * 60_000).toISOString());
  });

  it('refuses a forged or truncated offer id with 422', async () => {
    const id: string = (await search('from=JFK&to=LHR&date=2025-07-01')).body.offers[0].flight_option_id;
    const [payload, sig] = id.split('.');
    const forged = Buffer.from(Buffer.from(payload!, 'base64url').toString().replace('JFK', 'EWR')).toString(
      'base64url',
    );
    for (const bad of [`${forged}.${sig}`, payload!, 'not-an-offer']) {
      const res = await order(`ord-${bad.length}`, bad);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('INVALID_OFFER');
    }
  });
});

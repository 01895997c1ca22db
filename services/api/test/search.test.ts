import { AIRPORTS } from '@crew/supplier-sandbox';
import { bookingAccount, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let t: Tenant;
beforeAll(async () => {
  // Today for the api: the searched dates stay in the future.
  stack = await startStack('search', { now: () => new Date('2027-02-01T00:00:00Z') });
  t = await onboard(stack);
  // Every cabin may be offered (flight-options.unit.test.ts covers how the flight config filters and orders them).
  expect(
    (
      await http(`${stack.apiUrl}/api/v1/crew/config/flights`, {
        method: 'PUT',
        token: t.accessToken,
        body: { preferred_cabin: 'FIRST' },
      })
    ).status,
  ).toBe(200);
});
afterAll(() => stack.close());

const get = (path: string, token = t.accessToken) => http(`${stack.apiUrl}/api/v1${path}`, { token });

describe('GET /hotels', () => {
  it('returns at least 3 hotels for every one of the sandbox airports (at least 100)', async () => {
    expect(AIRPORTS.length).toBeGreaterThanOrEqual(100);
    for (const airport of AIRPORTS) {
      const res = await get(`/hotels?airport_code=${airport.code}`);
      expect(res.status).toBe(200);
      expect(res.body.hotels.length).toBeGreaterThanOrEqual(3);
      for (const h of res.body.hotels) expect(h.airport_code).toBe(airport.code);
    }
  });

  it('requires a filter (400) and at least 2 characters for name and city (400)', async () => {
    for (const q of ['', '?name=x', '?city=L', '?limit=5']) {
      const res = await get(`/hotels${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
  });

  it('unions filters, de-duplicates on property_id and sorts by it; name and city match partially, case-insensitively', async () => {
    const byAirport = (await get('/hotels?airport_code=lhr')).body.hotels;
    const lhrCity = byAirport[0].city as string;
    const union = (
      await get(`/hotels?airport_code=LHR&city=${encodeURIComponent(lhrCity.slice(0, 3).toLowerCase())}&limit=200`)
    ).body.hotels;
    const ids = union.map((h: { property_id: string }) => h.property_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const h of byAirport) expect(ids).toContain(h.property_id);
  });

  it('pages with limit and an opaque cursor, visiting every hotel once', async () => {
    const all = (await get('/hotels?name=ho&limit=200')).body.hotels.map((h: { property_id: string }) => h.property_id);
    expect(all.length).toBeGreaterThan(5);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { hotels: { property_id: string }[]; next_cursor: string | null } } = await get(
        `/hotels?name=ho&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...res.body.hotels.map((h) => h.property_id));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect((await get('/hotels?name=ho&cursor=garbage')).status).toBe(400);
  });
});

describe('GET /crew/flight-options', () => {
  it('returns live options for a route and date, 10 by default, with opaque ids', async () => {
    const res = await get('/crew/flight-options?from_airport=LHR&to_airport=JFK&date=2027-03-01');
    expect(res.status).toBe(200);
    expect(res.body.options.length).toBe(10);
    for (const o of res.body.options) {
      expect(o).toMatchObject({
        flight_option_id: expect.any(String),
        airline_code: expect.stringMatching(/^[A-Z0-9]{2}$/),
        from_airport: 'LHR',
        to_airport: 'JFK',
        price: { amount: expect.any(Number), currency: expect.any(String) },
      });
      expect(o.dep_time.slice(0, 10)).toBe('2027-03-01');
    }
  });

  it('drops options arriving after arrive_by', async () => {
    const all = (await get('/crew/flight-options?from_airport=CDG&to_airport=FRA&date=2027-03-01&limit=200')).body
      .options;
    const cut = all[Math.floor(all.length / 2)].arr_time;
    const some = (
      await get(
        `/crew/flight-options?from_airport=CDG&to_airport=FRA&date=2027-03-01&limit=200&arrive_by=${encodeURIComponent(cut)}`,
      )
    ).body.options;
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(all.length);
    for (const o of some) expect(Date.parse(o.arr_time)).toBeLessThanOrEqual(Date.parse(cut));
  });

  it('pages with a cursor through the same options a single page shows', async () => {
    const q = 'from_airport=AMS&to_airport=MAD&date=2027-04-02';
    const all = (await get(`/crew/flight-options?${q}&limit=200`)).body.options.map(
      (o: { flight_number: string; cabin: string }) => `${o.flight_number}/${o.cabin}`,
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { options: { flight_number: string; cabin: string }[]; next_cursor: string | null } } =
        await get(`/crew/flight-options?${q}&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.options.map((o) => `${o.flight_number}/${o.cabin}`));
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('requires route and date unless action_id is given (400); an unknown action_id is 404', async () => {
    for (const q of [
      '',
      '?from_airport=LHR&to_airport=JFK',
      '?from_airport=LHR&date=2027-03-01',
      '?from_airport=LHR&to_airport=LHR&date=2027-03-01',
      '?from_airport=LH&to_airport=JFK&date=2027-03-01',
    ]) {
      const res = await get(`/crew/flight-options${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    const res = await get('/crew/flight-options?action_id=does-not-exist');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it("pre-fills an injected deadhead's route and date from its flight block (action_id)", async () => {
    await bookingAccount(stack, t, 'crew.search@example.test');
    const injected = await http(`${stack.apiUrl}/api/v1/crew/action-items`, {
      method: 'POST',
      token: t.accessToken,
      body: {
        type: 'FLIGHT',
        classification: 'IROP_NEW_DEADHEAD',
        source: 'IROP',
        irop_ref: 'IROP-SEARCH-1',
        anchors: { traveller_email: 'crew.search@example.test', employee_id: 'E9', pairing_number: 'P9' },
        flight: { from_airport: 'CDG', to_airport: 'JFK', depart_date: '2027-03-04' },
      },
    });
    expect(injected.status).toBe(202);
    const res = await get(`/crew/flight-options?action_id=${injected.body.action_id}`);
    expect(res.status).toBe(200);
    expect(res.body.options.length).toBeGreaterThan(0);
    for (const o of res.body.options) {
      expect(o).toMatchObject({ from_airport: 'CDG', to_airport: 'JFK' });
      expect(o.dep_time.slice(0, 10)).toBe('2027-03-04');
    }
  });

  it('an action_id of 36 hex digits and dashes that is not a uuid is 404 as any unknown id, never a 500', async () => {
    for (const id of ['-'.repeat(36), `${'a'.repeat(32)}----`, `-${'b'.repeat(8)}-bbbb-bbbb-bbbb-${'b'.repeat(11)}`]) {
      const res = await get(`/crew/flight-options?action_id=${encodeURIComponent(id)}`);
      expect({ id, status: res.status, code: res.body.error?.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('answers 503 while the supplier fails, in the envelope', async () => {
    const fault = await http(`${stack.sandboxUrl}/_control/faults`, {
      method: 'POST',
      body: { operation: 'flight.search', outcome: 'error', count: 5 },
    });
    expect(fault.status).toBe(201);
    const res = await get('/crew/flight-options?from_airport=LHR&to_airport=JFK&date=2027-03-01');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    await http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' });
  });
});

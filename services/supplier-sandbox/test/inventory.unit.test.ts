import { AIRPORTS, buildHotelInventory, COUNTRY_PRICING, HOTELS } from '../src/index';
import { start, type TestSandbox } from './support';

const HUBS =
  'JFK LAX ORD ATL DFW DEN SFO SEA MIA BOS IAD EWR LHR LGW CDG FRA AMS MAD BCN FCO MUC ZRH VIE CPH ARN OSL HEL DUB LIS BRU DXB DOH IST SIN HKG NRT HND ICN PEK PVG SYD MEL YYZ YVR MEX GRU'.split(
    ' ',
  );

let sb: TestSandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());

describe('airport table', () => {
  it('has at least 100 distinct real airports including the major hubs', () => {
    const codes = AIRPORTS.map((a) => a.code);
    expect(codes.length).toBeGreaterThanOrEqual(100);
    expect(new Set(codes).size).toBe(codes.length);
    for (const hub of HUBS) expect(codes).toContain(hub);
    for (const a of AIRPORTS) {
      expect(a.code).toMatch(/^[A-Z]{3}$/);
      expect(COUNTRY_PRICING[a.country]).toBeDefined();
      // A valid IANA zone: Intl throws on an unknown one.
      expect(() => new Intl.DateTimeFormat('en-US', { timeZone: a.timezone })).not.toThrow();
    }
  });
});

describe('GDS hotel inventory', () => {
  it('answers at least 3 hotels for every airport, with stable ids and local currency', async () => {
    const seenNames = new Set<string>();
    for (const airport of AIRPORTS) {
      const { status, body } = await sb.call('GET', `/hotels?airport_code=${airport.code}`);
      expect(status).toBe(200);
      expect(body.hotels.length).toBeGreaterThanOrEqual(3);
      body.hotels.forEach((h: any, i: number) => {
        expect(h.property_id).toBe(`GDS-${airport.code}-${String(i + 1).padStart(3, '0')}`);
        expect(h.airport_code).toBe(airport.code);
        expect(h.city).toBe(airport.city);
        expect(h.chain).toMatch(/^[A-Z]{2}$/);
        expect(h.nightly_rate.currency).toBe(COUNTRY_PRICING[airport.country]!.currency);
        expect(h.nightly_rate.amount).toBeGreaterThan(0);
        expect(seenNames.has(h.name)).toBe(false);
        seenNames.add(h.name);
      });
    }
  });

  it('is the same on every generation (no randomness) and pinned for known ids', () => {
    expect(buildHotelInventory()).toEqual(HOTELS);
    const lhr = HOTELS.find((h) => h.property_id === 'GDS-LHR-001');
    expect(lhr).toMatchObject({
      name: 'Hilton London LHR Airport',
      chain: 'HH',
      nightly_rate: { amount: 180, currency: 'GBP' },
    });
  });

  it('searches name and city partially and case-insensitively, unions filters, sorts by property_id', async () => {
    const byName = await sb.call('GET', '/hotels?name=hilton%20LONDON');
    expect(byName.status).toBe(200);
    expect(byName.body.hotels.length).toBeGreaterThan(0);
    for (const h of byName.body.hotels) expect(h.name.toLowerCase()).toContain('hilton london');

    const union = await sb.call('GET', '/hotels?city=paris&airport_code=LHR&limit=200');
    const ids: string[] = union.body.hotels.map((h: any) => h.property_id);
    expect(ids.some((id) => id.startsWith('GDS-CDG-'))).toBe(true);
    expect(ids.some((id) => id.startsWith('GDS-ORY-'))).toBe(true);
    expect(ids.some((id) => id.startsWith('GDS-LHR-'))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);

    const overlap = await sb.call('GET', '/hotels?city=london&airport_code=LHR&limit=200');
    const overlapIds: string[] = overlap.body.hotels.map((h: any) => h.property_id);
    expect(new Set(overlapIds).size).toBe(overlapIds.length);
  });

  it('pages with limit and after', async () => {
    const all = (await sb.call('GET', '/hotels?city=london&limit=200')).body.hotels.map((h: any) => h.property_id);
    const first = await sb.call('GET', '/hotels?city=london&limit=3');
    expect(first.body.hotels.map((h: any) => h.property_id)).toEqual(all.slice(0, 3));
    expect(first.body.next_after).toBe(all[2]);
    const second = await sb.call('GET', `/hotels?city=london&limit=200&after=${first.body.next_after}`);
    expect(second.body.hotels.map((h: any) => h.property_id)).toEqual(all.slice(3));
    expect(second.body.next_after).toBeNull();
  });

  it('refuses a search without filters or with a 1-character name', async () => {
    expect((await sb.call('GET', '/hotels')).body.error.code).toBe('INVALID_REQUEST');
    const short = await sb.call('GET', '/hotels?name=a');
    expect(short.status).toBe(400);
    expect(short.body.error.details[0].field).toBe('query.name');
    expect((await sb.call('GET', '/hotels?airport_code=lhr')).status).toBe(400);
  });

  it('gets one property, 404 for an unknown one', async () => {
    const hit = await sb.call('GET', '/hotels/GDS-JFK-002');
    expect(hit.status).toBe(200);
    expect(hit.body.property_id).toBe('GDS-JFK-002');
    const miss = await sb.call('GET', '/hotels/GDS-XXX-001');
    expect(miss.status).toBe(404);
    expect(miss.body).toMatchObject({ error: { code: 'NOT_FOUND' }, status: 404 });
  });

  it('lists the airports it serves', async () => {
    const { body } = await sb.call('GET', '/airports');
    expect(body.airports).toHaveLength(AIRPORTS.length);
    expect(body.airports[0]).toEqual({ code: 'JFK', city: 'New York', country: 'US', timezone: 'America/New_York' });
  });
});

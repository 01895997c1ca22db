/** DuffelHotelSupplier.searchHotels: the account's accommodation near an airport, through the real client against the sandbox. */
import { AIRPORTS, startSandbox, type RunningSandbox } from '@crew/supplier-sandbox';
import { createDuffelClient, DuffelHotelSupplier } from '../src/index';

const TOKEN = 'duffel_test_StaysSearch0123456789abcdef';
const LHR = 'acc_0000AgZitpOhSLHRcrew01';

let sb: RunningSandbox;
let stays: DuffelHotelSupplier;

beforeAll(async () => {
  sb = await startSandbox({});
  stays = new DuffelHotelSupplier(createDuffelClient({ token: TOKEN, basePath: `${sb.baseUrl}/duffel` }), {
    liveMode: false,
    timeoutMs: 2000,
  });
});
afterAll(() => sb.close());

describe('searchHotels', () => {
  it('lists the accommodation near the airport, with its distance from it', async () => {
    const page = await stays.searchHotels({ airport_code: 'lhr' });
    const ids = page.hotels.map((h) => h.property_id);
    expect(ids).toContain(LHR);
    const lhr = page.hotels.find((h) => h.property_id === LHR)!;
    expect(lhr).toMatchObject({
      name: 'Heathrow Crew Court',
      airport_code: 'LHR',
      chain_name: 'Crewline Hotels',
      country: 'GB',
    });
    expect(lhr.distance_km).toBeGreaterThan(0);
    expect(lhr.distance_km).toBeLessThan(5);
    // Nothing from another city: CDG's and JFK's properties are not near Heathrow.
    expect(ids.every((id) => !id.includes('CDG') && !id.includes('JFK'))).toBe(true);
  });

  it('narrows by a part of the name, case-insensitively', async () => {
    expect((await stays.searchHotels({ airport_code: 'LHR' })).hotels).toHaveLength(2);
    expect(
      (await stays.searchHotels({ airport_code: 'LHR', name: 'crew court' })).hotels.map((h) => h.property_id),
    ).toEqual([LHR]);
    expect((await stays.searchHotels({ airport_code: 'LHR', name: 'Ritz' })).hotels).toEqual([]);
  });

  it('knows at least one accommodation near every airport of the sandbox', async () => {
    for (const a of AIRPORTS) {
      const page = await stays.searchHotels({ airport_code: a.code });
      expect({ code: a.code, found: page.hotels.length > 0 }).toEqual({ code: a.code, found: true });
    }
  });

  it('finds nothing without an airport, or for an airport Duffel cannot place', async () => {
    expect(await stays.searchHotels({ name: 'Crew' })).toEqual({ hotels: [], next_after: null });
    expect(await stays.searchHotels({ airport_code: 'ZZZ' })).toEqual({ hotels: [], next_after: null });
  });

  it('pages by property_id', async () => {
    // Heathrow has two properties in the sandbox.
    const all = await stays.searchHotels({ airport_code: 'LHR' });
    expect(all.hotels.length).toBeGreaterThanOrEqual(2);
    const first = await stays.searchHotels({ airport_code: 'LHR', limit: 1 });
    expect(first.hotels).toHaveLength(1);
    expect(first.next_after).toBe(first.hotels[0]!.property_id);
    const rest = await stays.searchHotels({ airport_code: 'LHR', limit: 50, after: first.next_after! });
    expect([...first.hotels, ...rest.hotels].map((h) => h.property_id)).toEqual(all.hotels.map((h) => h.property_id));
  });
});

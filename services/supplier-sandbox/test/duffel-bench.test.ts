import { AIRPORTS } from '../src/airports';
import { accommodationsAt, findAccommodation, STAYS_ACCOMMODATIONS } from '../src/duffel/stays-inventory';
import { start } from './support';

const TOKEN = 'duffel_test_sandbox_bench';
const duffel = (baseUrl: string, path: string, body?: unknown) =>
  fetch(`${baseUrl}/duffel${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'duffel-version': 'v2',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify({ data: body }),
  });

describe('Duffel Stays accommodation at every airport', () => {
  it('has at least one accommodation per sandbox airport, with stable unique ids, beside the hand-written ones', () => {
    for (const a of AIRPORTS) expect([a.code, accommodationsAt(a.code).length > 0]).toEqual([a.code, true]);
    const ids = STAYS_ACCOMMODATIONS.map((a) => a.id);
    expect(new Set(ids).size).toBe(ids.length);
    // The hand-written ids are kept and come first at their airport.
    expect(accommodationsAt('LHR')[0]!.id).toBe('acc_0000AgZitpOhSLHRcrew01');
    expect(findAccommodation('acc_0000AgZitpOhSJFKcrew01')?.airport).toBe('JFK');
    const nrt = findAccommodation(accommodationsAt('NRT')[0]!.id)!;
    expect(nrt).toMatchObject({ id: 'acc_0000AgZitpOhSNRTcrew01', airport: 'NRT', currency: 'JPY' });
    expect(nrt.weekend).toBeLessThan(nrt.weekday);
  });
});

describe('Duffel dialect latency and call counters', () => {
  it('takes the sandbox latency on /duffel calls and counts them per token and operation', async () => {
    const sb = await start({ latencyMs: 250 });
    try {
      const t = Date.now();
      const res = await duffel(sb.baseUrl, `/stays/accommodation/${accommodationsAt('ATL')[0]!.id}`);
      expect(res.status).toBe(200);
      expect(Date.now() - t).toBeGreaterThanOrEqual(245);
      expect((await sb.call('GET', '/hotels/GDS-ATL-001')).status).toBe(200);
      expect((await sb.call('GET', `/_control/duffel/calls?token=${TOKEN}`)).body).toEqual({
        calls: { 'stays.accommodation.get': 1 },
      });
      expect((await sb.call('GET', '/_control/duffel/calls?token=duffel_test_other')).body).toEqual({ calls: {} });
      expect((await sb.call('GET', '/_control/calls')).body).toEqual({ calls: { getHotel: 1 } });
    } finally {
      await sb.close();
    }
  });

  it('adds no latency to /duffel when none is set', async () => {
    const sb = await start();
    try {
      const t = Date.now();
      expect((await duffel(sb.baseUrl, `/stays/accommodation/${accommodationsAt('ATL')[0]!.id}`)).status).toBe(200);
      expect(Date.now() - t).toBeLessThan(200);
    } finally {
      await sb.close();
    }
  });
});

import { SERVING_DB } from '@crew/db';
import { http, onboard, type Stack, type TcpRelay, waitFor } from '@crew/test-support';
import { type RelayedApi, startRelayedApi } from './relayed-api';

jest.setTimeout(60_000);

// A failover or partition that drops packets: Postgres neither answers nor closes. A second api reaches it
// through a TCP relay that the test silences (connections stay open, nothing is forwarded), with the pool
// settings the api and auth run with.
let stack: Stack;
let pgRelay: TcpRelay;
let apiUrl: string;
let relayed: RelayedApi;

beforeAll(async () => {
  relayed = await startRelayedApi('pg_silent', { max: 5 });
  ({ stack, pgRelay, apiUrl } = relayed);
});

afterAll(() => relayed?.close());

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await work;
  return { value, ms: Date.now() - start };
}

it('Postgres silent (packets dropped): api calls answer 503 within seconds, /readyz 503 within 3 s; back to 200 once it answers', async () => {
  const t = await onboard(stack, { carrier: 'PS' });
  const probe = () => http(`${apiUrl}/api/v1/crew/config/company`, { token: t.accessToken });
  // Every pooled connection has been used: the silence strikes open connections, not only new ones.
  await Promise.all(Array.from({ length: 5 }, () => probe().then((r) => expect(r.status).toBe(200))));
  expect((await http(`${apiUrl}/readyz`)).status).toBe(200);

  pgRelay.blackHole();
  const [ready, calls] = await Promise.all([
    timed(http(`${apiUrl}/readyz`)),
    // More calls than the pool has connections: some wait for a connection, some make a new one.
    Promise.all(Array.from({ length: 8 }, () => timed(probe()))),
  ]);
  expect(ready.value.status).toBe(503);
  expect(ready.value.body).toMatchObject({ status: 'not_ready', checks: { postgres: false } });
  expect(ready.ms).toBeLessThan(3000);
  for (const call of calls) {
    expect(call.value.status).toBe(503);
    expect(call.value.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(call.value.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(call.ms).toBeLessThan(SERVING_DB.queryTimeoutMs + 3000);
  }
  // Still silent: a new call is bounded too (by the connect timeout: the timed-out connections are gone).
  const later = await timed(probe());
  expect(later.value.status).toBe(503);
  expect(later.ms).toBeLessThan(SERVING_DB.queryTimeoutMs + 3000);

  await pgRelay.restore();
  const back = await timed(
    waitFor(async () => (await http(`${apiUrl}/readyz`)).status === 200, 10_000, 'the api to be ready again'),
  );
  expect(back.ms).toBeLessThan(5000);
  expect((await probe()).status).toBe(200);
});

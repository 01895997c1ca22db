/** A supplier asking us to slow down (429, 503 with Retry-After) is a distinct, non-retried error with the pause it asked for. */
import { createServer, type Server } from 'node:http';
import { startSandbox, type RunningSandbox } from '@crew/supplier-sandbox';
import { createSandboxSuppliers, SupplierHttp } from '../src/index';
import { parseRetryAfter } from '../src/http';
import { failure } from './failure';

describe('supplier pacing in the client', () => {
  let server: Server;
  let base = '';
  let calls = 0;
  /** Each request answers the next scripted [status, Retry-After]. */
  let script: [number, string | null][] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      calls++;
      const [status, retryAfter] = script.shift() ?? [200, null];
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      });
      res.end(JSON.stringify(status === 200 ? { ok: true } : { error: { code: 'SLOW_DOWN', message: 'slow down' } }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    calls = 0;
  });
  const http = () => new SupplierHttp({ baseUrl: base, retries: 2, retryBackoffMs: 1 });

  it('429 with Retry-After seconds: rateLimited with that pause, and a GET is not retried inside the client', async () => {
    script = [[429, '3']];
    const err = await failure(http().call({ operation: 'flight.search', method: 'GET', path: '/x' }));
    expect(err).toMatchObject({ status: 429, transient: true, rateLimited: true, retryAfterMs: 3000 });
    expect(calls).toBe(1);
  });

  it('429 without Retry-After pauses 1 s; 503 with Retry-After paces; 503 without it is an outage', async () => {
    script = [[429, null]];
    expect(await failure(http().call({ operation: 'hotel.book', method: 'POST', path: '/x', body: {} }))).toMatchObject(
      { rateLimited: true, retryAfterMs: 1000 },
    );
    script = [[503, '2']];
    expect(await failure(http().call({ operation: 'hotel.book', method: 'POST', path: '/x', body: {} }))).toMatchObject(
      { rateLimited: true, retryAfterMs: 2000 },
    );
    script = [[503, null]];
    const outage = await failure(http().call({ operation: 'hotel.book', method: 'POST', path: '/x', body: {} }));
    expect(outage).toMatchObject({ status: 503, transient: true, rateLimited: false });
    expect(outage.retryAfterMs).toBeUndefined();
  });

  it('Retry-After as an HTTP date, capped at 10 minutes; unreadable values are ignored', () => {
    const now = Date.parse('2027-01-01T00:00:00Z');
    expect(parseRetryAfter('Fri, 01 Jan 2027 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('86400', now)).toBe(600_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe('the sandbox rate_limited fault', () => {
  let sb: RunningSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('answers 429 RATE_LIMITED with Retry-After and books nothing; the next call books', async () => {
    sb.sandbox.faults.arm({ operation: 'hotel.book', outcome: 'rate_limited', retry_after_s: 7 });
    const suppliers = createSandboxSuppliers({ baseUrl: sb.baseUrl });
    const stay = {
      reference: 'bk-pace',
      property_id: 'GDS-AMS-001',
      check_in_date: '2025-06-10',
      check_out_date: '2025-06-12',
      traveller: { email: 'a@b.c', name: 'A B' },
      booker_email: 'x@y.z',
    };
    const err = await failure(suppliers.hotels.bookHotel(stay));
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', rateLimited: true, retryAfterMs: 7000 });
    expect(await suppliers.hotels.findReservation('bk-pace')).toBeNull();
    expect((await suppliers.hotels.bookHotel(stay)).status).toBe('CONFIRMED');
  });
});

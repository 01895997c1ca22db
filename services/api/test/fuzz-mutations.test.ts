import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { RouteSpec } from '@crew/platform';
import { API_BASE, apiRoutes, OPS_BASE } from '../src';
import { apiDepsOf, bookingAccount, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import {
  TRAVELLER,
  known,
  RAW,
  serialize,
  hostile,
  type Schema,
  fromSchema,
  type Draw,
  encodeSegment,
  segment,
} from './fuzz-draws';

/*
 * Bad input is never a 5xx. Every mutating route the api declares (POST/PUT/PATCH/DELETE under
 * /api/v1 and /ops/v1, read from the route declarations, so a new route is fuzzed too) gets requests drawn
 * from its own TypeBox schemas — path params, query and body — with hostile values mixed in at any node:
 * NUL and unpaired surrogates, huge and non-finite numbers, deep nesting, wrong types, arbitrary JSON,
 * malformed percent-encoding. Valid tokens throughout. FUZZ_SEED=<n> replays a run; FUZZ_REQUESTS sets the total.
 */

const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 5200);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CONCURRENCY = 6;

let stack: Stack;
let t: Tenant;
let routes: { spec: RouteSpec; path: string; ops: boolean }[];

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

beforeAll(async () => {
  // With the worker: a PATCH or DELETE waits for its booking task to settle.
  stack = await startStack('fuzz', { worker: true, env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  t = await onboard(stack, {
    name: 'Fuzz Air',
    carrier: 'FZ',
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  await bookingAccount(stack, t, TRAVELLER);
  const cfg = await api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: [
        {
          base_station: 'LHR',
          hotels: [
            {
              property_id: 'GDS-LHR-001',
              policy: 'STANDARD',
              standard_check_in_time: '15:00',
              standard_check_out_time: '11:00',
              buffer_minutes: 30,
            },
          ],
        },
      ],
    },
  });
  const hotelConfigId = cfg.body.bases[0].hotels[0].hotel_config_id;
  const contract = await api(`/crew/config/hotels/${hotelConfigId}/contracts`, {
    method: 'POST',
    body: { contract_number: 'K-1', contract_from: '2027-01-01', contract_to: '2027-12-31' },
  });
  const request = await api('/crew/config/hotels/change-requests', {
    method: 'POST',
    body: { contract_id: contract.body.contract_id, intent: 'ENABLE' },
  });
  const booking = await api('/crew/bookings/request', {
    method: 'POST',
    body: {
      type: 'HOTEL',
      classification: 'NEW_LAYOVER',
      anchors: { traveller_email: TRAVELLER },
      hotel: { property_id: 'GDS-LHR-001', check_in_date: '2027-03-10', check_out_date: '2027-03-11' },
    },
  });
  expect([cfg.status, contract.status, request.status, booking.status]).toEqual([200, 201, 201, 202]);
  Object.assign(known, {
    airline_id: [t.airlineId],
    hotel_config_id: [hotelConfigId],
    contract_id: [contract.body.contract_id],
    request_id: [request.body.request_id],
    booking_id: [booking.body.booking_id],
    traveller_email: [TRAVELLER],
    property_id: ['GDS-LHR-001', 'GDS-JFK-001'],
    base_station: ['LHR', 'JFK'],
    station: ['LHR', 'JFK'],
    city: ['LHR', 'New York'],
  });
  const declared = apiRoutes(apiDepsOf(stack));
  routes = [
    ...declared.crew.map((spec) => ({ spec, path: API_BASE + spec.path, ops: false })),
    ...declared.ops.map((spec) => ({ spec, path: OPS_BASE + spec.path, ops: true })),
  ].filter((r) => r.spec.method !== 'get');
});
afterAll(() => stack.close());

function drawFor(r: { spec: RouteSpec; path: string; ops: boolean }): fc.Arbitrary<Draw> {
  const names = [...r.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const paramSchemas: Record<string, Schema> = (r.spec.params as Schema | undefined)?.properties ?? {};
  const params = fc.tuple(
    ...names.map((n) =>
      fc.oneof(
        {
          arbitrary: (known[n]?.length
            ? fc.constantFrom(...known[n])
            : fromSchema(paramSchemas[n] ?? { type: 'string' }, false, n)
          ).map(encodeSegment),
          weight: 4,
        },
        { arbitrary: fromSchema(paramSchemas[n] ?? { type: 'string' }, false, n).map(encodeSegment), weight: 1 },
        { arbitrary: segment, weight: 2 },
      ),
    ),
  );
  const querySchema = r.spec.query as Schema | undefined;
  const query = querySchema
    ? fc.oneof(fromSchema(querySchema, false), fromSchema(querySchema, true)).map((q) => {
        if (!q || typeof q !== 'object' || Array.isArray(q)) return '';
        const pairs = Object.entries(q as Record<string, unknown>).map(
          ([k, v]) =>
            `${encodeSegment(k)}=${typeof v === 'string' && v.startsWith(RAW) ? v.slice(RAW.length) : typeof v === 'object' ? encodeSegment(JSON.stringify(v)) : encodeSegment(v)}`,
        );
        return pairs.length ? `?${pairs.join('&')}` : '';
      })
    : fc.constantFrom('', '', '', '?reason=%00', '?x=%', '?limit=1e400');
  const bodySchema = r.spec.body as Schema | undefined;
  const body: fc.Arbitrary<unknown> = bodySchema
    ? fc.oneof(
        { arbitrary: fromSchema(bodySchema, false), weight: 3 },
        { arbitrary: fromSchema(bodySchema, true), weight: 6 },
        { arbitrary: hostile, weight: 1 },
      )
    : fc.oneof({ arbitrary: fc.constant(undefined), weight: 4 }, { arbitrary: hostile, weight: 1 });
  const framing = fc.oneof(
    { arbitrary: fc.constant('json'), weight: 20 },
    { arbitrary: fc.constantFrom('gzip', 'br', 'text/plain', 'no-type', 'charset-utf16', 'truncated'), weight: 1 },
  );
  const idempotencyKey = r.spec.headers
    ? fc.option(
        fc.oneof(
          fc.uuid(),
          fc.string({ unit: 'binary-ascii', maxLength: 300 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x')),
        ),
        { nil: undefined },
      )
    : fc.constant(undefined);
  return fc.tuple(params, query, body, framing, idempotencyKey).map(([ps, q, b, how, key]) => {
    let i = 0;
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, () => ps[i++]!) + q;
    const headers: Record<string, string> = { authorization: `Bearer ${r.ops ? stack.opsToken : t.accessToken}` };
    if (key !== undefined) headers['idempotency-key'] = key;
    const method = r.spec.method.toUpperCase();
    const route = `${method} ${r.path}`;
    if (b === undefined) return { route, method, path, headers, body: undefined, shown: '(no body)' };
    const text = serialize(b);
    headers['content-type'] = 'application/json';
    let sent: string | Buffer = text;
    if (how === 'gzip' || how === 'br') {
      headers['content-encoding'] = how;
      sent = gzipSync(text);
    } else if (how === 'text/plain') headers['content-type'] = 'text/plain';
    else if (how === 'no-type') delete headers['content-type'];
    else if (how === 'charset-utf16') headers['content-type'] = 'application/json; charset=utf-16';
    else if (how === 'truncated') sent = text.slice(0, Math.max(1, text.length >> 1));
    return {
      route,
      method,
      path,
      headers,
      body: sent,
      shown: `${how} ${text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text}`,
    };
  });
}

async function send(d: Draw): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(`${stack.apiUrl}${d.path}`, { method: d.method, headers: d.headers, body: d.body });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    // The server dropping the connection is as bad as a 500.
    return { status: 599, text: `request failed: ${String(err)}` };
  }
}

it(`no mutating route answers ≥ 500 to ${TOTAL} fuzzed requests (seed ${SEED})`, async () => {
  expect(routes.length).toBeGreaterThan(15);
  const perRoute = Math.ceil(TOTAL / routes.length);
  const draws = routes.flatMap((r, i) => fc.sample(drawFor(r), { numRuns: perRoute, seed: SEED + i }));
  /** The first counter-example of each status and route, and how many there were. */
  const failures = new Map<string, { count: number; first: string }>();
  const byStatus = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < draws.length) {
        const d = draws[next++]!;
        const res = await send(d);
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        if (res.status < 500) continue;
        const key = `${res.status} ${d.route}`;
        const seen = failures.get(key) ?? {
          count: 0,
          first: `${d.method} ${d.path}\n    sent: ${d.shown}\n    got: ${res.text.slice(0, 300)}`,
        };
        failures.set(key, { ...seen, count: seen.count + 1 });
      }
    }),
  );
  expect(draws.length).toBeGreaterThanOrEqual(TOTAL);
  // The draws reach handlers, not only the validator: some are accepted.
  const ok = [...byStatus].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
  expect(ok).toBeGreaterThan(draws.length / 50);
  if (failures.size) {
    const total = [...failures.values()].reduce((n, f) => n + f.count, 0);
    const examples = [...failures].map(([key, f]) => `${key} (${f.count}×), e.g. ${f.first}`);
    throw new Error(
      `${total} of ${draws.length} requests answered ≥ 500 (FUZZ_SEED=${SEED}); statuses ${JSON.stringify(Object.fromEntries(byStatus))}.\n${examples.join('\n')}`,
    );
  }
  // Thousands of requests: ~20 s on an idle 2-core machine, up to a minute with the rest of the suite beside it.
}, 180_000);

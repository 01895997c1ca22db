import { createServer } from 'node:http';
import { createApiApp, RosterIntake } from '../src';
import { createLogger, listen } from '@crew/platform';
import { apiDepsOf, http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

/* The airline rate limit (docs/decisions.md): RATE_LIMIT_PER_MINUTE per airline, shared by every api replica through Redis. */

const LIMIT = 5;
let stack: Stack;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  stack = await startStack('ratelimit', { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
  a = await onboard(stack, { name: 'Busy Air', carrier: 'BY' });
  b = await onboard(stack, { name: 'Quiet Air', carrier: 'QT' });
});
afterAll(() => stack.close());

const company = (base: string, tenant: Tenant) =>
  http(`${base}/api/v1/crew/config/company`, { token: tenant.accessToken });

test(`the ${LIMIT + 1}th request of an airline within a minute → 429 RATE_LIMITED with Retry-After; another airline is unaffected; a second replica shares the count`, async () => {
  for (let i = 0; i < LIMIT; i++) {
    const ok = await company(stack.apiUrl, a);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit')).toBe(
      `limit=${LIMIT}, remaining=${LIMIT - 1 - i}, reset=${ok.headers.get('ratelimit')?.split('reset=')[1]}`,
    );
    expect(ok.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=60`);
  }
  const refused = await company(stack.apiUrl, a);
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({
    error: { code: 'RATE_LIMITED', message: expect.stringContaining(`${LIMIT} requests a minute`), details: [] },
    status: 429,
  });
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);

  expect((await company(stack.apiUrl, b)).status).toBe(200);

  // Another api process against the same Redis: the airline's budget is already spent there too.
  const intake = new RosterIntake();
  const replica = createServer(
    createApiApp(apiDepsOf(stack, { logger: createLogger('replica', 'silent'), rosterIntake: intake })),
  );
  const port = await listen(replica, 0, '127.0.0.1');
  try {
    expect((await company(`http://127.0.0.1:${port}`, a)).status).toBe(429);
    expect((await company(`http://127.0.0.1:${port}`, b)).status).toBe(200);
  } finally {
    replica.closeAllConnections();
    await new Promise((r) => replica.close(r));
    await intake.close();
  }
});

test('operational endpoints and the operator API are not counted', async () => {
  for (let i = 0; i < LIMIT + 2; i++) expect((await http(`${stack.apiUrl}/healthz`)).status).toBe(200);
  for (let i = 0; i < LIMIT + 2; i++)
    expect(
      (await http(`${stack.apiUrl}/ops/v1/airlines/${a.airlineId}/settings`, { token: stack.opsToken })).status,
    ).toBe(200);
});

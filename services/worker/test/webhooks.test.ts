/**
 * Signed webhooks, against a real HTTP receiver in this process and the real worker (in-process,
 * and as a child process that is SIGKILLed).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '@crew/api-client';
import { webhookRepo } from '@crew/db';
import { guardedLookup } from '@crew/webhooks';
import {
  bookingAccount,
  contractStations,
  exited,
  hasStarted,
  http,
  onboard,
  onePairingRoster,
  spawnWorker,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; created_at: string; data: any; links: any };
}

/** A webhook receiver on 127.0.0.1: records every request; `answer` decides each reply (default 204). */
class Receiver {
  readonly received: Received[] = [];
  answer: (r: Received, n: number) => { status: number; headers?: Record<string, string>; delayMs?: number } = () => ({
    status: 204,
  });
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let event: Received['event'];
        try {
          event = JSON.parse(body);
        } catch {
          event = { id: '', type: '', created_at: '', data: null, links: null };
        }
        const r = { path: req.url ?? '', headers: req.headers, body, event };
        this.received.push(r);
        const a = this.answer(r, this.received.filter((x) => x.path === r.path).length);
        setTimeout(() => {
          res.writeHead(a.status, a.headers);
          res.end('ok');
        }, a.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  on(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const SCOPES = 'events:read events:write schedules:read schedules:write';
let stack: Stack;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack('webhooks', {
    worker: true,
    now: () => new Date('2027-03-01T00:00:00Z'),
    env: {
      WEBHOOK_BACKOFF_BASE_MS: '100',
      WEBHOOK_BACKOFF_MAX_MS: '400',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
  });
  receiver = await new Receiver().start();
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

let seq = 0;
async function airline(opts: { contract?: boolean } = {}) {
  seq++;
  const code = `W${String.fromCharCode(65 + (seq % 26))}`;
  const t = await onboard(stack, {
    name: `Hook Air ${seq}`,
    carrier: code,
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const email = `hook${seq}@air.test`;
  await bookingAccount(stack, t, email);
  if (opts.contract !== false) await contractStations(stack, t, ['JFK']);
  return { t, email };
}

async function endpoint(t: Tenant, path: string, eventTypes: string[] = ['booking.confirmed']) {
  const res = await api(t, '/crew/webhooks', {
    method: 'POST',
    body: { url: `${receiver.url}${path}`, event_types: eventTypes },
  });
  expect(res.status).toBe(201);
  return res.body as { endpoint_id: string; secret: string };
}

const deliveries = async (t: Tenant, endpointId: string) =>
  (await api(t, `/crew/webhooks/${endpointId}/deliveries`)).body.deliveries as any[];

const hotelRequest = (email: string, extra: Record<string, unknown> = {}) => ({
  type: 'HOTEL',
  classification: 'NEW_LAYOVER',
  anchors: { traveller_email: email, employee_id: 'E1', pairing_number: `IR${seq}` },
  hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
  ...extra,
});

function verify(secret: string, r: Received) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

describe('endpoints', () => {
  it('create shows the secret once; get/list/patch/delete; scopes; private, non-https and credentialed URLs are refused', async () => {
    const { t } = await airline({ contract: false });
    const created = await endpoint(t, '/crud', ['booking.confirmed', 'schedule.failed']);
    expect(created.secret).toMatch(/^whsec_/);
    const got = await api(t, `/crew/webhooks/${created.endpoint_id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body).toMatchObject({ enabled: true, event_types: ['booking.confirmed', 'schedule.failed'] });
    expect((await api(t, '/crew/webhooks')).body.webhooks.map((w: any) => w.endpoint_id)).toEqual([
      created.endpoint_id,
    ]);
    const patched = await api(t, `/crew/webhooks/${created.endpoint_id}`, {
      method: 'PATCH',
      body: { event_types: ['booking.failed'] },
    });
    expect(patched.body.event_types).toEqual(['booking.failed']);
    for (const url of [
      'https://10.0.0.5/hook',
      'https://169.254.169.254/latest',
      'https://[fd00::1]:8443/x',
      'https://[::ffff:10.1.2.3]/x',
      'http://example.com/hook',
      'https://u:p@example.com/x',
      'ftp://example.com/x',
    ]) {
      const bad = await api(t, '/crew/webhooks', { method: 'POST', body: { url, event_types: ['booking.confirmed'] } });
      expect([url, bad.status]).toEqual([url, 422]);
    }
    const other = await onboard(stack, { name: 'Other', carrier: 'OZ', scopes: 'events:read events:write' });
    expect((await api(other, `/crew/webhooks/${created.endpoint_id}`)).status).toBe(404);
    const readOnly = await onboard(stack, { name: 'RO', carrier: 'RO', scopes: 'events:read' });
    expect(
      (
        await api(readOnly, '/crew/webhooks', {
          method: 'POST',
          body: { url: `${receiver.url}/x`, event_types: ['booking.confirmed'] },
        })
      ).status,
    ).toBe(403);
    expect((await api(readOnly, '/crew/webhooks')).status).toBe(200);
    expect((await api(t, `/crew/webhooks/${created.endpoint_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(t, `/crew/webhooks/${created.endpoint_id}`)).status).toBe(404);
  });

  it('the connect-time guard refuses a name that resolves to a private address (production, no operator allowance)', async () => {
    const lookup = guardedLookup({ allowPrivate: false, production: true });
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('EWEBHOOKTARGET');
    const allowed = guardedLookup({ allowPrivate: true, production: true });
    expect(await new Promise((resolve) => allowed('localhost', {}, (e) => resolve(e)))).toBeNull();
  });
});

describe('delivery', () => {
  it('a booking.confirmed event, signed the Standard Webhooks way, verifies with the standardwebhooks library', async () => {
    const { t, email } = await airline();
    const ep = await endpoint(t, '/signed');
    const res = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email) });
    expect(res.status).toBe(202);
    const [r] = await waitFor(
      async () => receiver.on('/signed').length > 0 && receiver.on('/signed'),
      20_000,
      'the event',
    );
    expect(r!.event).toMatchObject({
      type: 'booking.confirmed',
      data: { booking_id: res.body.booking_id, status: 'CONFIRMED', type: 'HOTEL' },
      links: { booking: `/api/v1/crew/bookings/${res.body.booking_id}` },
    });
    expect(r!.event.data.airline_id).toBeUndefined();
    expect(r!.headers['webhook-id']).toBe(r!.event.id);
    expect(verify(ep.secret, r!)).toMatchObject({ id: r!.event.id });
    // The typed client's helper (what the README shows integrators).
    expect(verifyWebhook(ep.secret, r!.body, r!.headers).id).toBe(r!.event.id);
    expect(() => verifyWebhook('whsec_' + Buffer.alloc(24).toString('base64'), r!.body, r!.headers)).toThrow();
    // Tampered body: refused by the library.
    expect(() => verify(ep.secret, { ...r!, body: r!.body.replace('CONFIRMED', 'CANCELLED') })).toThrow();
    const list = await waitFor(
      async () => (await deliveries(t, ep.endpoint_id)).find((d) => d.status === 'SUCCEEDED'),
      5000,
      'SUCCEEDED',
    );
    expect(list).toMatchObject({
      event_id: r!.event.id,
      event_type: 'booking.confirmed',
      attempts: 1,
      last_response_code: 204,
    });
  });

  it('a receiver failing 3 times then answering 200 gets the event once as a success; the 4 attempts are listed', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/flaky');
    receiver.answer = (r, n) => (r.path === '/flaky' && n <= 3 ? { status: 500 } : { status: 200 });
    const test = await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    expect(test.status).toBe(202);
    const d = await waitFor(
      async () => (await deliveries(t, ep.endpoint_id)).find((x) => x.status === 'SUCCEEDED'),
      20_000,
      'success',
    );
    expect(d).toMatchObject({
      event_id: test.body.event_id,
      attempts: 4,
      last_response_code: 200,
      next_attempt_at: null,
    });
    expect(d.attempt_log.map((a: any) => a.response_code)).toEqual([500, 500, 500, 200]);
    // The drain that delivered it has ended (the endpoint's lease is released): none is left to send it again.
    await waitFor(
      async () =>
        (
          await stack.database.db
            .selectFrom('webhook_endpoints')
            .select('lease_until')
            .where('endpoint_id', '=', ep.endpoint_id)
            .executeTakeFirstOrThrow()
        ).lease_until === null,
      10_000,
      'the drain to end',
    );
    const got = receiver.on('/flaky');
    expect(got).toHaveLength(4);
    expect(new Set(got.map((g) => g.event.id))).toEqual(new Set([test.body.event_id]));
    expect(got.filter((g, i) => i === 3)).toHaveLength(1);
    // Redeliver by id: the same event id again, and a fresh attempt.
    const again = await api(t, `/crew/webhooks/${ep.endpoint_id}/deliveries/${d.delivery_id}/redeliver`, {
      method: 'POST',
    });
    expect(again.status).toBe(202);
    await waitFor(async () => receiver.on('/flaky').length === 5, 10_000, 'the redelivery');
    expect(receiver.on('/flaky')[4]!.event.id).toBe(test.body.event_id);
    receiver.answer = () => ({ status: 204 });
  });

  it('events reach an endpoint in event order, even when the first one needs retries', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/ordered');
    receiver.answer = (r, n) => (r.path === '/ordered' && n <= 2 ? { status: 503 } : { status: 204 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' })).body.event_id);
    await waitFor(
      async () => (await deliveries(t, ep.endpoint_id)).filter((x) => x.status === 'SUCCEEDED').length === 6,
      20_000,
      'six deliveries',
    );
    const successes = receiver
      .on('/ordered')
      .slice(2)
      .map((r) => r.event.id);
    expect(successes).toEqual(ids);
    receiver.answer = () => ({ status: 204 });
  });

  it('a redirect is a failure and is never followed', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/redirect');
    receiver.answer = (r) =>
      r.path === '/redirect'
        ? { status: 302, headers: { location: `${receiver.url}/redirect-target` } }
        : { status: 204 };
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const d = await waitFor(
      async () => (await deliveries(t, ep.endpoint_id)).find((x) => x.attempts >= 2),
      10_000,
      'two attempts',
    );
    expect(d).toMatchObject({
      status: 'PENDING',
      last_response_code: 302,
      last_error: expect.stringContaining('redirect'),
    });
    expect(receiver.on('/redirect-target')).toHaveLength(0);
    // Deliveries run on the worker's drain thread; its log lines reach the process's logger.
    const failed = stack.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'webhook delivery failed' && l.endpoint_id === ep.endpoint_id);
    expect(failed).toMatchObject({ level: 'info', component: 'webhooks', response_code: 302 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}`, { method: 'DELETE' });
    receiver.answer = () => ({ status: 204 });
  });

  it('after a rotation both secrets sign during the grace period; without grace only the new one', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/rotated');
    const rotated = await api(t, `/crew/webhooks/${ep.endpoint_id}/rotate-secret`, {
      method: 'POST',
      body: { grace_period_seconds: 3600 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect(rotated.body.previous_secret_expires_at).toEqual(expect.any(String));
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const [r] = await waitFor(
      async () => receiver.on('/rotated').length > 0 && receiver.on('/rotated'),
      10_000,
      'the event',
    );
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(ep.secret, r!)).toBeTruthy();
    expect(verify(rotated.body.secret, r!)).toBeTruthy();
    const again = await api(t, `/crew/webhooks/${ep.endpoint_id}/rotate-secret`, {
      method: 'POST',
      body: { grace_period_seconds: 0 },
    });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const second = (
      await waitFor(
        async () => receiver.on('/rotated').length > 1 && receiver.on('/rotated'),
        10_000,
        'the second event',
      )
    )[1]!;
    expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(again.body.secret, second)).toBeTruthy();
    expect(() => verify(rotated.body.secret, second)).toThrow();
  });

  it('a processed roster sends one action_item.pending_review with the ids, then schedule.processing_completed with the summary', async () => {
    const { t, email } = await airline({ contract: false });
    await endpoint(t, '/schedules', ['schedule.processing_completed', 'schedule.failed', 'action_item.pending_review']);
    const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
    expect(res.status).toBe(202);
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
    const got = await waitFor(
      async () => receiver.on('/schedules').length >= 2 && receiver.on('/schedules'),
      20_000,
      'two events',
    );
    const review = got.find((r) => r.event.type === 'action_item.pending_review')!;
    const items = (await api(t, `/crew/schedules/${res.body.schedule_id}/action-items?disposition=PENDING_REVIEW`)).body
      .action_items as any[];
    expect(review.event.data).toMatchObject({
      schedule_id: res.body.schedule_id,
      count: items.length,
      truncated: false,
    });
    expect([...review.event.data.action_ids].sort()).toEqual(items.map((i) => i.action_id).sort());
    const completed = got.find((r) => r.event.type === 'schedule.processing_completed')!;
    expect(completed.event.data).toMatchObject({
      schedule_id: res.body.schedule_id,
      processing_status: 'COMPLETED',
      summary: { action_items_pending_review: items.length },
    });
    expect(got.filter((r) => r.event.type === 'action_item.pending_review')).toHaveLength(1);
  });

  it('irop.completed once every booking of the irop_ref is terminal; a P1 event is marked urgent', async () => {
    const { t, email } = await airline();
    const ep = await endpoint(t, '/irop', ['irop.completed', 'booking.confirmed']);
    const a = await api(t, '/crew/action-items', {
      method: 'POST',
      body: hotelRequest(email, {
        source: 'IROP',
        irop_ref: 'STORM-1',
        classification: 'IROP_HOTEL_EXTEND',
        priority: 'P1',
      }),
    });
    expect(a.status).toBe(202);
    const done = await waitFor(
      async () => receiver.on('/irop').find((r) => r.event.type === 'irop.completed'),
      20_000,
      'irop.completed',
    );
    expect(done.event.data).toEqual({
      irop_ref: 'STORM-1',
      bookings: [{ booking_id: a.body.booking_id, type: 'HOTEL', status: 'CONFIRMED' }],
    });
    const confirmed = receiver.on('/irop').find((r) => r.event.type === 'booking.confirmed')!;
    expect(receiver.on('/irop').indexOf(confirmed)).toBeLessThan(receiver.on('/irop').indexOf(done));
    expect((await deliveries(t, ep.endpoint_id)).every((d) => d.status === 'SUCCEEDED')).toBe(true);
    const events = await stack.database.db
      .selectFrom('webhook_events')
      .select(['type', 'urgent'])
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(events.map((e) => [e.type, e.urgent]).sort()).toEqual([
      ['booking.confirmed', true],
      ['irop.completed', true],
    ]);
  });

  it("a P1 booking's event overtakes the endpoint's bulk backlog", async () => {
    const { t, email } = await airline();
    await endpoint(t, '/backlog', ['booking.confirmed']);
    receiver.answer = (r) => (r.path === '/backlog' ? { status: 204, delayMs: 100 } : { status: 204 });
    const bulk = Array.from({ length: 40 }, (_, i) => ({
      airline_id: t.airlineId,
      type: 'booking.confirmed',
      data: { backlog: i },
      links: {},
    }));
    expect(await webhookRepo.emitEvents(stack.database.db, bulk)).toBe(40);
    await waitFor(async () => receiver.on('/backlog').length >= 3, 10_000, 'the backlog to start');
    const p1 = await api(t, '/crew/action-items', {
      method: 'POST',
      body: hotelRequest(email, {
        source: 'IROP',
        irop_ref: 'P1-NOW',
        classification: 'IROP_HOTEL_EXTEND',
        priority: 'P1',
      }),
    });
    expect(p1.status).toBe(202);
    await waitFor(
      async () => receiver.on('/backlog').some((r) => r.event.data?.booking_id === p1.body.booking_id),
      15_000,
      'the P1 event',
    );
    const before = receiver.on('/backlog').findIndex((r) => r.event.data?.booking_id === p1.body.booking_id);
    expect(before).toBeLessThan(30);
    // The bulk events themselves stay in order.
    await waitFor(async () => receiver.on('/backlog').length >= 41, 20_000, 'the backlog to drain');
    expect(
      receiver
        .on('/backlog')
        .filter((r) => r.event.data?.backlog !== undefined)
        .map((r) => r.event.data.backlog),
    ).toEqual(bulk.map((_, i) => i));
    receiver.answer = () => ({ status: 204 });
  });
});

describe('a permanently failing endpoint', () => {
  it("is disabled after WEBHOOK_DISABLE_AFTER_DAYS of failures; the airline's other endpoints get endpoint.disabled", async () => {
    const { t } = await airline({ contract: false });
    const dead = await endpoint(t, '/dead', ['booking.failed']);
    await endpoint(t, '/alive', ['booking.confirmed']);
    receiver.answer = (r) => (r.path === '/dead' ? { status: 500 } : { status: 204 });
    // Failing for 6 days already (default limit 5): the next failed attempt disables it.
    await stack.database.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: new Date(Date.now() - 6 * 86_400_000) })
      .where('endpoint_id', '=', dead.endpoint_id)
      .execute();
    await api(t, `/crew/webhooks/${dead.endpoint_id}/test`, { method: 'POST' });
    const notice = await waitFor(
      async () => receiver.on('/alive').find((r) => r.event.type === 'endpoint.disabled'),
      10_000,
      'endpoint.disabled',
    );
    expect(notice.event.data).toMatchObject({
      endpoint_id: dead.endpoint_id,
      url: `${receiver.url}/dead`,
      reason: expect.stringContaining('5 days'),
    });
    const got = (await api(t, `/crew/webhooks/${dead.endpoint_id}`)).body;
    expect(got).toMatchObject({ enabled: false, disabled_reason: expect.any(String) });
    expect((await api(t, `/crew/webhooks/${dead.endpoint_id}/test`, { method: 'POST' })).status).toBe(409);
    // Re-enabled, it gets its pending delivery.
    receiver.answer = () => ({ status: 204 });
    const again = await api(t, `/crew/webhooks/${dead.endpoint_id}`, { method: 'PATCH', body: { enabled: true } });
    expect(again.body).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    await waitFor(
      async () => (await deliveries(t, dead.endpoint_id)).every((d) => d.status === 'SUCCEEDED'),
      10_000,
      'the delivery after re-enabling',
    );
  });
});

describe('api-side changes', () => {
  it('a request held for review at once (no contract) sends booking.needs_review from the api transaction', async () => {
    const { t, email } = await airline({ contract: false });
    await endpoint(t, '/review', ['booking.needs_review']);
    const res = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email) });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('NEEDS_REVIEW');
    const r = await waitFor(async () => receiver.on('/review')[0], 10_000, 'booking.needs_review');
    expect(r.event).toMatchObject({
      type: 'booking.needs_review',
      data: { booking_id: res.body.booking_id, status: 'NEEDS_REVIEW', review_reason: expect.any(String) },
    });
  });
});

describe('a SIGKILLed worker', () => {
  it('loses no event; a duplicate carries the same event id', async () => {
    const bare = await startStack('webhooks-crash', {
      env: { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_POLL_MS: '100', WEBHOOK_BACKOFF_BASE_MS: '100' },
    });
    const env = {
      WEBHOOK_SECRET_KEY: bare.config.webhookSecretKey,
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_BACKOFF_BASE_MS: '100',
    };
    try {
      const t = await onboard(bare, { name: 'Crash Air', carrier: 'CX', scopes: 'events:read events:write' });
      const a = (path: string, init: Parameters<typeof http>[1] = {}) =>
        http(`${bare.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
      const ep = (
        await a('/crew/webhooks', {
          method: 'POST',
          body: { url: `${receiver.url}/crash`, event_types: ['booking.confirmed'] },
        })
      ).body;
      // Slow answers keep a delivery in flight when the worker dies.
      receiver.answer = (r) => (r.path === '/crash' ? { status: 200, delayMs: 150 } : { status: 204 });
      const ids: string[] = [];
      for (let i = 0; i < 20; i++)
        ids.push((await a(`/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' })).body.event_id);
      const first = spawnWorker(bare, env);
      await hasStarted(first);
      await waitFor(async () => receiver.on('/crash').length >= 5, 30_000, 'some deliveries');
      first.kill('SIGKILL');
      await exited(first);
      const second = spawnWorker(bare, env);
      try {
        await hasStarted(second);
        await waitFor(
          async () => ids.every((id) => receiver.on('/crash').some((r) => r.event.id === id)),
          60_000,
          'every event',
        );
        const ds = (await a(`/crew/webhooks/${ep.endpoint_id}/deliveries?limit=200`)).body.deliveries as any[];
        await waitFor(
          async () =>
            ((await a(`/crew/webhooks/${ep.endpoint_id}/deliveries?limit=200`)).body.deliveries as any[]).every(
              (d) => d.status === 'SUCCEEDED',
            ),
          10_000,
          'all SUCCEEDED',
        );
        expect(ds).toHaveLength(20);
        const got = receiver.on('/crash').map((r) => r.event.id);
        // Duplicates (a delivery in flight when the worker died) are the same event id, recognisable.
        expect(new Set(got)).toEqual(new Set(ids));
        expect(got.length - ids.length).toBeLessThanOrEqual(1);
        // In order, apart from a repeat of the delivery in flight.
        expect(got.filter((id, i) => got.indexOf(id) === i)).toEqual(ids);
      } finally {
        second.kill('SIGTERM');
        await exited(second);
      }
    } finally {
      receiver.answer = () => ({ status: 204 });
      await bare.close();
    }
  }, 120_000);
});

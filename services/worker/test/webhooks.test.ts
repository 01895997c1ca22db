/**
 * Webhook endpoints (create, read, change, delete; the URLs refused) and an event the api sends from its own
 * transaction (the stack: webhooks-stack.ts). Delivery is in webhook-delivery.test.ts, failing endpoints and a
 * SIGKILLed worker in webhook-failures.test.ts.
 */
import { Agent as HttpAgent } from 'node:http';
import { sql } from '@crew/db';
import { guardedLookup } from '@crew/webhooks';
import { onboard, waitFor } from '@crew/test-support';
import { post } from '../src/webhooks/attempt';
import { airline, api, deliveries, endpoint, hotelRequest, receiver, stack, useWebhooksStack } from './webhooks-stack';

useWebhooksStack('webhooks');

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

  it('an airline has at most 10 endpoints: 12 created at once give ten 201 and two 409 CONFLICT; a deletion makes room', async () => {
    const { t } = await airline({ contract: false });
    const create = (i: number) =>
      api(t, '/crew/webhooks', {
        method: 'POST',
        body: { url: `${receiver.url}/cap-${i}`, event_types: ['booking.confirmed'] },
      });
    const all = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i)));
    expect(all.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), 409, 409]);
    const refused = all.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ status: 409, error: { code: 'CONFLICT', details: [] } });
    expect(refused.body.error.message).toContain('10');
    expect((await api(t, '/crew/webhooks')).body.webhooks).toHaveLength(10);
    const one = all.find((r) => r.status === 201)!.body.endpoint_id as string;
    expect((await api(t, `/crew/webhooks/${one}`, { method: 'DELETE' })).status).toBe(204);
    expect((await create(12)).status).toBe(201);
    expect((await create(13)).status).toBe(409);
    // Another airline's endpoints are its own count.
    const other = await airline({ contract: false });
    await endpoint(other.t, '/cap-other');
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

/** An IPv4 or IPv6 address anywhere in a string. */
const ADDRESS = /\b\d{1,3}(\.\d{1,3}){3}\b|\b[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}\b/i;

describe('what the airline sees of a target it may not reach', () => {
  it('a name refused at connect time: a generic error, no host name or address', async () => {
    // The URL check lets http://localhost pass (outside production); the agent's lookup refuses loopback as
    // production does: the connect-time refusal a name resolving to a private address meets.
    const agent = new HttpAgent({ lookup: guardedLookup({ allowPrivate: false, production: true }) as never });
    const result = await post(
      'http://localhost:9/x',
      {},
      '{}',
      2000,
      { allowPrivate: false, production: false },
      agent,
    );
    agent.destroy();
    expect(result).toMatchObject({ ok: false, response_code: null });
    expect(result.error).toBe('target refused: its host name does not resolve to a public address');
    expect(result.error).not.toMatch(ADDRESS);
    expect(result.error).not.toContain('localhost');
  });

  it('a name that does not resolve: the same error in the deliveries; the resolver’s answer is in the worker’s log only', async () => {
    const { t } = await airline({ contract: false });
    const host = 'crew-hooks-probe.invalid';
    const created = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: `https://${host}/x`, event_types: ['booking.confirmed'] },
    });
    expect(created.status).toBe(201);
    const id = created.body.endpoint_id as string;
    expect((await api(t, `/crew/webhooks/${id}/test`, { method: 'POST' })).status).toBe(202);
    const d = await waitFor(async () => (await deliveries(t, id)).find((x) => x.attempts >= 1), 10_000, 'an attempt');
    const seen: string[] = [d.last_error, ...d.attempt_log.map((a: { error: string }) => a.error)];
    for (const error of seen) {
      expect(error).toBe('target refused: its host name does not resolve to a public address');
      expect(error).not.toMatch(ADDRESS);
    }
    // The drain thread's log lines reach the process's logger after the attempt is recorded.
    const failed = await waitFor(
      async () =>
        stack.logLines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === 'webhook delivery failed' && l.endpoint_id === id),
      5000,
      'the log line',
    );
    expect(failed).toMatchObject({ error: d.last_error, detail: expect.stringContaining(host) });
    // Attempts recorded in Node's wording (before errors were phrased) read as the phrase too.
    await api(t, `/crew/webhooks/${id}`, { method: 'PATCH', body: { enabled: false } });
    const refused = 'webhook target refused: db.internal resolves to 10.4.0.7 (the host is in a private range)';
    const unresolved = { at: d.created_at, response_code: null, error: 'getaddrinfo ENOTFOUND pg.svc', duration_ms: 3 };
    await sql`update webhook_deliveries set last_error = ${refused}, attempt_log = ${JSON.stringify([unresolved])}::jsonb
      where delivery_id = ${d.delivery_id}`.execute(stack.database.db);
    const [old] = await deliveries(t, id);
    expect([old.last_error, old.attempt_log[0].error]).toEqual([
      'target refused: its host name does not resolve to a public address',
      'target refused: its host name does not resolve to a public address',
    ]);
    await api(t, `/crew/webhooks/${id}`, { method: 'DELETE' });
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

/**
 * An endpoint's state across failures, at the production backoff (30 s doubling up to 6 h; the stack:
 * webhooks-stack.ts): a signing secret the worker cannot open, an endpoint re-enabled or pointed elsewhere, and the
 * failing run that disables an endpoint.
 */
import { randomBytes } from 'node:crypto';
import { sql } from '@crew/db';
import { waitFor } from '@crew/test-support';
import { newWebhookSecret, sealSecret } from '@crew/webhooks';
import { airline, api, deliveries, endpoint, receiver, stack, useWebhooksStack, verify } from './webhooks-stack';

useWebhooksStack('webhook_endpoint_state', {
  WEBHOOK_BACKOFF_BASE_MS: '30000',
  WEBHOOK_BACKOFF_MAX_MS: String(6 * 3600_000),
});

afterEach(() => {
  receiver.answer = () => ({ status: 204 });
});

const endpointRow = (endpointId: string) =>
  stack.database.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();

/** The worker's `job failed` log lines of the webhooks queue so far. */
const webhookJobFailures = () =>
  stack.logLines.filter((l) => l.includes('"job failed"') && JSON.parse(l).queue === 'webhooks').length;

/** The endpoint's one delivery once it has had `attempts` attempts. */
async function afterAttempts(t: Parameters<typeof deliveries>[0], endpointId: string, attempts: number) {
  return waitFor(
    async () => (await deliveries(t, endpointId)).find((d) => d.attempts >= attempts),
    10_000,
    `a delivery with ${attempts} attempt(s)`,
  );
}

describe('a signing secret the worker cannot open', () => {
  it('is a failed attempt the airline sees, backed off like any other (no job loop); a rotation delivers at once', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/unreadable');
    // Sealed under another key (an `npm start` that minted a new WEBHOOK_SECRET_KEY, a lost key).
    await stack.database.db
      .updateTable('webhook_endpoints')
      .set({ secret_enc: sealSecret(randomBytes(32), newWebhookSecret()) })
      .where('endpoint_id', '=', ep.endpoint_id)
      .execute();
    const failuresBefore = webhookJobFailures();
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const failed = await afterAttempts(t, ep.endpoint_id, 1);
    expect(failed).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      last_response_code: null,
      last_error: expect.stringContaining('secret unavailable'),
    });
    expect(Date.parse(failed.next_attempt_at) - Date.now()).toBeGreaterThan(20_000);
    expect((await api(t, `/crew/webhooks/${ep.endpoint_id}`)).body.failing_since).toEqual(expect.any(String));
    // A negative: a drain failing before its attempt was re-queued by each poll (100 ms here) and failed its job.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await deliveries(t, ep.endpoint_id))[0].attempts).toBe(1);
    expect(webhookJobFailures()).toBe(failuresBefore);
    expect(receiver.on('/unreadable')).toHaveLength(0);

    // The runbook's fix: rotate (default grace). The unreadable previous secret is dropped, and the pending
    // delivery is sent now, signed with the new secret alone.
    const rotated = await api(t, `/crew/webhooks/${ep.endpoint_id}/rotate-secret`, { method: 'POST', body: {} });
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous_secret_expires_at).toBeNull();
    const [r] = await waitFor(
      async () => receiver.on('/unreadable').length > 0 && receiver.on('/unreadable'),
      10_000,
      'the delivery after the rotation',
    );
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(rotated.body.secret, r!)).toBeTruthy();
    await waitFor(
      async () => (await deliveries(t, ep.endpoint_id))[0].status === 'SUCCEEDED',
      10_000,
      'SUCCEEDED recorded',
    );
    expect((await api(t, `/crew/webhooks/${ep.endpoint_id}`)).body.failing_since).toBeNull();
  });

  it('a previous secret the worker cannot open is left out of the signatures; the current one still signs', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/previous-unreadable');
    await stack.database.db
      .updateTable('webhook_endpoints')
      .set({
        previous_secret_enc: sealSecret(randomBytes(32), newWebhookSecret()),
        previous_secret_expires_at: new Date(Date.now() + 3600_000),
      })
      .where('endpoint_id', '=', ep.endpoint_id)
      .execute();
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const [r] = await waitFor(
      async () => receiver.on('/previous-unreadable').length > 0 && receiver.on('/previous-unreadable'),
      10_000,
      'the delivery',
    );
    expect(String(r!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verify(ep.secret, r!)).toBeTruthy();
  });
});

describe('an endpoint fixed by the airline resumes its pending deliveries at once, whatever their backoff', () => {
  it('re-enabled (PATCH enabled: true)', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/reenabled');
    receiver.answer = (r) => (r.path === '/reenabled' ? { status: 503 } : { status: 204 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const failed = await afterAttempts(t, ep.endpoint_id, 1);
    expect(Date.parse(failed.next_attempt_at) - Date.now()).toBeGreaterThan(20_000);
    expect(
      (await api(t, `/crew/webhooks/${ep.endpoint_id}`, { method: 'PATCH', body: { enabled: false } })).status,
    ).toBe(200);
    receiver.answer = () => ({ status: 204 });
    const again = await api(t, `/crew/webhooks/${ep.endpoint_id}`, { method: 'PATCH', body: { enabled: true } });
    expect(again.body).toMatchObject({ enabled: true, failing_since: null });
    await waitFor(
      async () => (await deliveries(t, ep.endpoint_id))[0].status === 'SUCCEEDED',
      10_000,
      'the delivery after re-enabling',
    );
  });

  it('pointed at a new URL (PATCH url)', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/old-url');
    receiver.answer = (r) => (r.path === '/old-url' ? { status: 404 } : { status: 204 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    await afterAttempts(t, ep.endpoint_id, 1);
    const moved = await api(t, `/crew/webhooks/${ep.endpoint_id}`, {
      method: 'PATCH',
      body: { url: `${receiver.url}/new-url` },
    });
    expect(moved.status).toBe(200);
    await waitFor(async () => receiver.on('/new-url').length > 0, 10_000, 'the delivery at the new URL');
  });

  it('a PATCH that changes neither (description) keeps the backoff', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/described');
    receiver.answer = (r) => (r.path === '/described' ? { status: 500 } : { status: 204 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const failed = await afterAttempts(t, ep.endpoint_id, 1);
    await api(t, `/crew/webhooks/${ep.endpoint_id}`, { method: 'PATCH', body: { description: 'ours' } });
    expect((await deliveries(t, ep.endpoint_id))[0].next_attempt_at).toBe(failed.next_attempt_at);
  });
});

describe('the failing run that disables an endpoint', () => {
  /** Makes the endpoint's pending delivery due now at its last attempt: its next failure gives it up. */
  const toLastAttempt = (endpointId: string) =>
    stack.database.db
      .updateTable('webhook_deliveries')
      .set({ attempts: stack.config.webhookMaxAttempts - 1, next_attempt_at: new Date() })
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'PENDING')
      .execute();

  it('ends when its delivery is given up with nothing else waiting: one failure ten days later does not disable', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/quiet');
    receiver.answer = (r) => (r.path === '/quiet' ? { status: 502 } : { status: 204 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    await afterAttempts(t, ep.endpoint_id, 1);
    await toLastAttempt(ep.endpoint_id);
    await waitFor(
      async () => (await deliveries(t, ep.endpoint_id))[0].status === 'FAILED',
      10_000,
      'the delivery given up',
    );
    // Ten days pass without an event: the failing run, if still open, is ten days old.
    await stack.database.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: sql<Date>`failing_since - interval '10 days'` })
      .where('endpoint_id', '=', ep.endpoint_id)
      .where('failing_since', 'is not', null)
      .execute();
    expect((await api(t, `/crew/webhooks/${ep.endpoint_id}`)).body).toMatchObject({
      enabled: true,
      failing_since: null,
    });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    // The drain has ended (its lease released): the failure and the disable check after it are both done.
    const row = await waitFor(
      async () =>
        (await deliveries(t, ep.endpoint_id)).some((d) => d.status === 'PENDING' && d.attempts === 1) &&
        (await endpointRow(ep.endpoint_id)).lease_until === null &&
        endpointRow(ep.endpoint_id),
      10_000,
      'one failed attempt of the new event, its drain ended',
    );
    expect(row.enabled).toBe(true);
    expect(row.disabled_reason).toBeNull();
    expect(Date.now() - row.failing_since!.getTime()).toBeLessThan(60_000);
  });

  it('goes on through a given-up delivery while another one waits behind it', async () => {
    const { t } = await airline({ contract: false });
    const ep = await endpoint(t, '/busy');
    receiver.answer = (r) => (r.path === '/busy' ? { status: 500 } : { status: 204 });
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    await afterAttempts(t, ep.endpoint_id, 1);
    await api(t, `/crew/webhooks/${ep.endpoint_id}/test`, { method: 'POST' });
    const since = new Date(Date.now() - 4 * 86_400_000);
    await stack.database.db
      .updateTable('webhook_endpoints')
      .set({ failing_since: since })
      .where('endpoint_id', '=', ep.endpoint_id)
      .execute();
    // The first delivery at its last attempt; the second waits behind it and is tried once it is given up.
    await stack.database.db
      .updateTable('webhook_deliveries')
      .set({ attempts: stack.config.webhookMaxAttempts - 1, next_attempt_at: new Date() })
      .where('endpoint_id', '=', ep.endpoint_id)
      .where('attempts', '=', 1)
      .execute();
    await waitFor(
      async () => {
        const ds = await deliveries(t, ep.endpoint_id);
        return ds.some((d) => d.status === 'FAILED') && ds.some((d) => d.status === 'PENDING' && d.attempts === 1);
      },
      10_000,
      'the first given up, the second failed once',
    );
    const row = await endpointRow(ep.endpoint_id);
    expect(row.failing_since).toEqual(since);
    expect(row.enabled).toBe(true);
  });
});

/**
 * Webhooks when things fail (the stack: webhooks-stack.ts): an endpoint failing for days is disabled, and a
 * worker SIGKILLed mid-delivery (a child process) loses no event.
 */
import { exited, hasStarted, http, onboard, spawnWorker, startStack, waitFor } from '@crew/test-support';
import { airline, api, deliveries, endpoint, receiver, stack, useWebhooksStack } from './webhooks-stack';

useWebhooksStack('webhook_failures');

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

describe('a SIGKILLed worker', () => {
  it('loses no event; a duplicate carries the same event id', async () => {
    const bare = await startStack('webhooks-crash', {
      env: { WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_POLL_MS: '100', WEBHOOK_BACKOFF_BASE_MS: '100' },
    });
    const env = {
      WEBHOOK_SECRET_KEY: bare.config.webhookSecretKey,
      WEBHOOK_TIMEOUT_MS: '1000',
      // The killed worker's endpoint is taken over 3 s after its last lease renewal (production: 15 s).
      WEBHOOK_LEASE_MARGIN_MS: '2000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_BACKOFF_BASE_MS: '100',
    };
    // The worker's start (a few seconds of loading) overlaps the setting up; it delivers nothing before the events.
    const first = spawnWorker(bare, env);
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
      await hasStarted(first);
      await waitFor(async () => receiver.on('/crash').length >= 5, 30_000, 'some deliveries');
      // The second worker loads while the first dies and its endpoint lease runs out: it consumes only after.
      const second = spawnWorker(bare, env);
      first.kill('SIGKILL');
      await exited(first);
      // Nothing left to keep in flight: the second worker's deliveries are answered at once.
      receiver.answer = () => ({ status: 204 });
      try {
        expect(second.output.join('')).not.toContain('worker consuming');
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
      first.kill('SIGKILL');
      await exited(first);
      receiver.answer = () => ({ status: 204 });
      await bare.close();
    }
  }, 120_000);
});

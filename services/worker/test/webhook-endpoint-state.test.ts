/**
 * An endpoint's state across failures, at the production backoff (30 s doubling up to 6 h; the stack:
 * webhooks-stack.ts): an endpoint re-enabled or pointed elsewhere.
 */
import { waitFor } from '@crew/test-support';
import { airline, api, deliveries, endpoint, receiver, useWebhooksStack } from './webhooks-stack';

useWebhooksStack('webhook_endpoint_state', {
  WEBHOOK_BACKOFF_BASE_MS: '30000',
  WEBHOOK_BACKOFF_MAX_MS: String(6 * 3600_000),
});

afterEach(() => {
  receiver.answer = () => ({ status: 204 });
});

/** The endpoint's one delivery once it has had `attempts` attempts. */
async function afterAttempts(t: Parameters<typeof deliveries>[0], endpointId: string, attempts: number) {
  return waitFor(
    async () => (await deliveries(t, endpointId)).find((d) => d.attempts >= attempts),
    10_000,
    `a delivery with ${attempts} attempt(s)`,
  );
}

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

/**
 * Webhook endpoints (create, read, change, delete; the URLs refused) and an event the api sends from its own
 * transaction (the stack: webhooks-stack.ts). Delivery is in webhook-delivery.test.ts, failing endpoints and a
 * SIGKILLed worker in webhook-failures.test.ts.
 */
import { guardedLookup } from '@crew/webhooks';
import { onboard, waitFor } from '@crew/test-support';
import { airline, api, endpoint, hotelRequest, receiver, stack, useWebhooksStack } from './webhooks-stack';

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

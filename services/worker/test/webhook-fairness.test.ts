/**
 * One airline's backlog cannot hold the webhook drain slots: a drain sends a bounded slice of an endpoint's
 * deliveries and goes back to the queue, so another airline's P1 event (an urgent drain job) gets a slot within
 * seconds, and the backlog's own order is kept across the slices. The worker here drains one endpoint at a time
 * (WEBHOOK_CONCURRENCY=1).
 */
import { webhookRepo } from '@crew/db';
import { waitFor } from '@crew/test-support';
import { airline, api, endpoint, hotelRequest, receiver, stack, useWebhooksStack } from './webhooks-stack';

useWebhooksStack('webhook_fairness', { WEBHOOK_CONCURRENCY: '1' });

describe('drain slots', () => {
  it("a slow receiver's 500-event backlog of one airline does not hold back another airline's P1 event", async () => {
    const a = await airline({ contract: false });
    await endpoint(a.t, '/slow', ['booking.confirmed']);
    receiver.answer = (r) => (r.path === '/slow' ? { status: 204, delayMs: 40 } : { status: 204 });
    const bulk = Array.from({ length: 500 }, (_, i) => ({
      airline_id: a.t.airlineId,
      type: 'booking.confirmed',
      data: { backlog: i },
      links: {},
    }));
    expect(await webhookRepo.emitEvents(stack.database.db, bulk)).toBe(500);
    await waitFor(async () => receiver.on('/slow').length >= 5, 10_000, 'the backlog to start');

    const b = await airline();
    await endpoint(b.t, '/urgent', ['booking.confirmed']);
    const started = Date.now();
    const p1 = await api(b.t, '/crew/action-items', {
      method: 'POST',
      body: hotelRequest(b.email, {
        source: 'IROP',
        irop_ref: 'STORM-FAIR',
        classification: 'IROP_HOTEL_EXTEND',
        priority: 'P1',
      }),
    });
    expect(p1.status).toBe(202);
    // The backlog alone takes 20 s and more (500 × 40 ms); a slice is at most 5 s.
    await waitFor(
      async () => receiver.on('/urgent').some((r) => r.event.data?.booking_id === p1.body.booking_id),
      10_000,
      () => `the P1 event (backlog delivered so far: ${receiver.on('/slow').length} of 500)`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(receiver.on('/slow').length).toBeLessThan(500);

    // The backlog goes on, in order, across its slices.
    await waitFor(async () => receiver.on('/slow').length >= 500, 50_000, 'the backlog to drain');
    expect(receiver.on('/slow').map((r) => r.event.data.backlog)).toEqual(bulk.map((_, i) => i));
    receiver.answer = () => ({ status: 204 });
  }, 90_000);
});

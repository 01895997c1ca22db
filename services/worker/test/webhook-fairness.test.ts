/**
 * One airline's backlog cannot hold the webhook drain slots: a drain sends a bounded slice of an endpoint's
 * deliveries and goes back to the queue, so another airline's P1 event (an urgent drain job) gets a slot at the end
 * of the running slice, and the backlog's own order is kept across the slices. The worker here drains one endpoint
 * at a time (WEBHOOK_CONCURRENCY=1), in slices of SLICE_MS (WEBHOOK_DRAIN_SLICE_MS, 5 s by default, shortened so
 * that a backlog of a few seconds spans many slices).
 */
import { webhookRepo } from '@crew/db';
import { waitFor } from '@crew/test-support';
import { airline, api, endpoint, hotelRequest, receiver, stack, useWebhooksStack } from './webhooks-stack';

const SLICE_MS = 250;
/** The backlog: BACKLOG events to a receiver answering each in DELAY_MS, 2.4 s and more, ten slices and more. */
const BACKLOG = 120;
const DELAY_MS = 20;

useWebhooksStack('webhook_fairness', { WEBHOOK_CONCURRENCY: '1', WEBHOOK_DRAIN_SLICE_MS: String(SLICE_MS) });

describe('drain slots', () => {
  it("a slow receiver's backlog of one airline, many slices long, does not hold back another airline's P1 event", async () => {
    // Both airlines and their endpoints first, so that the backlog runs against the P1 event alone.
    const [a, b] = await Promise.all([airline({ contract: false }), airline()]);
    await Promise.all([endpoint(a.t, '/slow', ['booking.confirmed']), endpoint(b.t, '/urgent', ['booking.confirmed'])]);
    receiver.answer = (r) => (r.path === '/slow' ? { status: 204, delayMs: DELAY_MS } : { status: 204 });
    const bulk = Array.from({ length: BACKLOG }, (_, i) => ({
      airline_id: a.t.airlineId,
      type: 'booking.confirmed',
      data: { backlog: i },
      links: {},
    }));
    expect(await webhookRepo.emitEvents(stack.database.db, bulk)).toBe(BACKLOG);
    await waitFor(async () => receiver.on('/slow').length >= 5, 10_000, 'the backlog to start');

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
    await waitFor(
      async () => receiver.on('/urgent').some((r) => r.event.data?.booking_id === p1.body.booking_id),
      10_000,
      () => `the P1 event (backlog delivered so far: ${receiver.on('/slow').length} of ${BACKLOG})`,
    );
    // Well before the backlog's end: within half of the least time the backlog alone takes.
    expect(Date.now() - started).toBeLessThan((BACKLOG * DELAY_MS) / 2);
    expect(receiver.on('/slow').length).toBeLessThan(BACKLOG);

    // The backlog goes on, in order, across its slices.
    await waitFor(async () => receiver.on('/slow').length >= BACKLOG, 30_000, 'the backlog to drain');
    expect(receiver.on('/slow').map((r) => r.event.data.backlog)).toEqual(bulk.map((_, i) => i));
    receiver.answer = () => ({ status: 204 });
  }, 60_000);
});

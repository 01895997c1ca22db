/**
 * Signed webhook delivery against a real HTTP receiver in this process and the real worker (the stack:
 * webhooks-stack.ts): signatures, retries, order, redirects, secret rotation, the events of a roster and an
 * IROP, and urgent events ahead of the bulk backlog.
 */
import { verifyWebhook } from '@crew/api-client';
import { webhookRepo } from '@crew/db';
import { onePairingRoster, waitFor, waitForSchedule } from '@crew/test-support';
import {
  airline,
  api,
  deliveries,
  endpoint,
  hotelRequest,
  receiver,
  stack,
  useWebhooksStack,
  verify,
} from './webhooks-stack';

useWebhooksStack('webhook_delivery');

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

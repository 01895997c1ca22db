/**
 * Acting on an action item from the review queue (POST /crew/action-items/{action_id}/actions): each action
 * ends in the right booking state on the item's own booking, two people acting at once get one 202 and one
 * 409, another airline's item is 404, a key replays.
 */
import { http, onePairingRoster } from '@crew/test-support';
import {
  stack,
  useBookingsStack,
  api,
  fault,
  airline,
  reservations,
  roster,
  settled,
  hotelItem,
  flightItem,
} from './bookings-stack';

useBookingsStack('review-actions');

const act = (t: Parameters<typeof api>[0], actionId: string, body: Record<string, unknown>, headers = {}) =>
  api(t, `/crew/action-items/${actionId}/actions`, { method: 'POST', body, headers });

/** A roster whose deadhead waits for a person's choice (deadhead auto-booking off): BOOK_MANUALLY. */
async function manualDeadhead(opts: Parameters<typeof airline>[0] = {}) {
  const a = await airline(opts);
  const r = await roster(a.t, onePairingRoster({ email: a.email }));
  return { ...a, r, item: flightItem(r.items) };
}

async function firstOption(t: Parameters<typeof api>[0], item: { flight_options_url: string }) {
  const options = await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken });
  expect(options.status).toBe(200);
  return options.body.options[0].flight_option_id as string;
}

describe('a BOOK_MANUALLY deadhead', () => {
  it('reads OPEN with its actions and deadline; choosing an option books it on the same booking: CONFIRMED, RESOLVED, counted', async () => {
    const { t, r, item } = await manualDeadhead();
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      review_status: 'OPEN',
      available_actions: ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
      action_taken: null,
      assignee: null,
    });
    // P4 (nine days out): no review target; due 240 minutes before the departure.
    expect(item.due_by).toBe(new Date(Date.parse('2027-03-10T09:00:00Z') - 240 * 60_000).toISOString());
    expect(hotelItem(r.items)).toMatchObject({ review_status: null, due_by: null, available_actions: [] });

    const missing = await act(t, item.action_id, { action: 'BOOK_FLIGHT_OPTION' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([{ field: '/flight_option_id', issue: 'is required' }]);

    const optionId = await firstOption(t, item);
    const res = await act(t, item.action_id, { action: 'BOOK_FLIGHT_OPTION', flight_option_id: optionId });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      action_id: item.action_id,
      booking_id: item.booking_id,
      review_status: 'RESOLVED',
      action_taken: 'BOOK_FLIGHT_OPTION',
      action_taken_by: t.email,
      action_taken_at: expect.any(String),
      recommended_action: null,
      flight_options_url: null,
      available_actions: [],
      due_by: null,
    });
    const booking = await settled(t, item.booking_id);
    expect(booking).toMatchObject({ booking_id: item.booking_id, status: 'CONFIRMED', manual_override: true });
    // The anchor stays the airline's rostered flight; the booked one is in the flight block.
    expect(booking.flight_number).toBe('BA117');
    expect(booking.flight).toMatchObject({ flight_option_id: optionId });

    const items = (await api(t, `/crew/schedules/${r.id}/action-items?type=FLIGHT`)).body.action_items;
    expect(items).toEqual([
      expect.objectContaining({
        disposition: 'AUTO_BOOKED',
        recommended_action: null,
        review_status: 'RESOLVED',
        action_taken: 'BOOK_FLIGHT_OPTION',
      }),
    ]);
    const summary = (await api(t, `/crew/schedules/${r.id}`)).body.summary;
    expect(summary).toMatchObject({ action_items_auto_booked: 2, action_items_resolved_by_person: 1 });
    // Nothing is left to do: a second action is a conflict.
    expect((await act(t, item.action_id, { action: 'DISMISS' })).status).toBe(409);
    const live = (await api(t, `/crew/bookings?pairing_number=P100&type=FLIGHT`)).body.bookings;
    expect(live).toHaveLength(1);
  });

  it('RECORD_PNR records the seat the airline booked itself: CONFIRMED at once, PNR upper-cased', async () => {
    const { t, item } = await manualDeadhead();
    const res = await act(t, item.action_id, { action: 'RECORD_PNR', pnr: 'abc123', ticket_id: '1251234567890' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      review_status: 'RESOLVED',
      disposition: 'AUTO_BOOKED',
      action_taken: 'RECORD_PNR',
    });
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(booking.flight).toMatchObject({ pnr: 'ABC123', ticket_id: '1251234567890', supplier: 'OWN_AIRLINE' });
  });

  it('action_item.resolved carries the item as the action left it: the 202 body’s disposition (AUTO_BOOKED after RECORD_PNR)', async () => {
    const { t, item } = await manualDeadhead();
    const hook = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['action_item.resolved'] },
    });
    expect(hook.status).toBe(201);
    const res = await act(t, item.action_id, { action: 'RECORD_PNR', pnr: 'XYZ789', ticket_id: '1251234567891' });
    expect(res.status).toBe(202);
    expect(res.body.disposition).toBe('AUTO_BOOKED');
    const [event] = await stack.database.db
      .selectFrom('webhook_events')
      .select(['type', 'data'])
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(event!.type).toBe('action_item.resolved');
    // Every field the event shares with the item reads as in the 202.
    const data = event!.data;
    expect(data).toEqual(Object.fromEntries(Object.keys(data).map((k) => [k, res.body[k]])));
  });

  it('DISMISS keeps the disposition and recommendation, makes no booking, and says who and why (action_item.resolved)', async () => {
    const { t, item } = await manualDeadhead();
    const hook = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['action_item.resolved'] },
    });
    expect(hook.status).toBe(201);
    const res = await act(t, item.action_id, {
      action: 'DISMISS',
      reason: 'crew travels on the company shuttle',
      acting_user: 'desk.lead@air.test',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      review_status: 'DISMISSED',
      action_taken: 'DISMISS',
      action_taken_by: 'desk.lead@air.test',
      action_reason: 'crew travels on the company shuttle',
      available_actions: [],
    });
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking.status).toBe('NEEDS_REVIEW');
    expect(booking.flight?.supplier_ref).toBeUndefined();
    const events = await stack.database.db
      .selectFrom('webhook_events')
      .select(['type', 'data'])
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(events).toEqual([
      {
        type: 'action_item.resolved',
        data: expect.objectContaining({
          action_id: item.action_id,
          review_status: 'DISMISSED',
          action_taken_by: 'desk.lead@air.test',
          action_reason: 'crew travels on the company shuttle',
        }),
      },
    ]);
    const open = (await api(t, '/crew/action-items?review_status=DISMISSED')).body.action_items;
    expect(open.map((i: { action_id: string }) => i.action_id)).toEqual([item.action_id]);
  });

  it('two people acting at once: one 202, one 409, one booking', async () => {
    const { t, email, item } = await manualDeadhead();
    const optionId = await firstOption(t, item);
    const both = await Promise.all([
      act(t, item.action_id, { action: 'BOOK_FLIGHT_OPTION', flight_option_id: optionId, acting_user: 'a@air.test' }),
      act(t, item.action_id, { action: 'BOOK_FLIGHT_OPTION', flight_option_id: optionId, acting_user: 'b@air.test' }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    const loser = both.find((r) => r.status === 409)!;
    expect(loser.body.error.code).toBe('CONFLICT');
    await settled(t, item.booking_id);
    const bookings = (await api(t, `/crew/bookings?pairing_number=P100&type=FLIGHT`)).body.bookings;
    expect(bookings).toEqual([expect.objectContaining({ booking_id: item.booking_id, status: 'CONFIRMED' })]);
    expect((await reservations(email)).filter((x) => x.kind === 'flight')).toHaveLength(1);
  });

  it('another airline’s item is 404; an Idempotency-Key replays the first answer', async () => {
    const { t, item } = await manualDeadhead();
    const other = await airline();
    expect((await act(other.t, item.action_id, { action: 'DISMISS' })).status).toBe(404);
    const mine = (await api(other.t, '/crew/action-items')).body.action_items;
    expect(mine.map((i: { action_id: string }) => i.action_id)).not.toContain(item.action_id);

    const key = { 'Idempotency-Key': `assign-${item.action_id}` };
    const first = await act(t, item.action_id, { action: 'ASSIGN', assignee: 'Grace@Air.test' }, key);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ review_status: 'OPEN', assignee: 'Grace@Air.test', action_taken: null });
    const replay = await act(t, item.action_id, { action: 'ASSIGN', assignee: 'Grace@Air.test' }, key);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const reused = await act(t, item.action_id, { action: 'ASSIGN', assignee: 'someone@air.test' }, key);
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // Assigned, it still waits: the assignee filter finds it.
    const queue = (await api(t, '/crew/action-items?assignee=grace@air.test')).body.action_items;
    expect(queue.map((i: { action_id: string }) => i.action_id)).toEqual([item.action_id]);
  });

  it('an error after the action committed: a retry with the same Idempotency-Key replays its 202, not 409', async () => {
    const { t, item } = await manualDeadhead();
    const key = { 'Idempotency-Key': `dismiss-${item.action_id}` };
    const body = { action: 'DISMISS', reason: 'shuttle' };
    // The relay's kick is the last step past the commit.
    jest.spyOn(stack.relay, 'kick').mockImplementationOnce(() => {
      throw new Error('after the commit');
    });
    expect((await act(t, item.action_id, body, key)).status).toBe(500);
    const retry = await act(t, item.action_id, body, key);
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(retry.body).toMatchObject({
      action_id: item.action_id,
      review_status: 'DISMISSED',
      action_taken: 'DISMISS',
    });
  });
});

describe('hotel items', () => {
  it('a price held for review: ACCEPT_PRICE keeps the room at the supplier’s price, CONFIRMED', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 25 });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      review_status: 'OPEN',
      available_actions: ['ACCEPT_PRICE', 'DISMISS', 'ASSIGN'],
    });
    const res = await act(t, item.action_id, { action: 'ACCEPT_PRICE' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      review_status: 'RESOLVED',
      action_taken: 'ACCEPT_PRICE',
      disposition: 'AUTO_BOOKED',
    });
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.hotel.rate_flag).toContain('differs from the contracted rate');
  });

  it('no hotel configuration: BOOK_HOTEL books the chosen property on the same booking (422 without a property_id)', async () => {
    const { t, email } = await airline({ contract: false });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ review_status: 'OPEN', available_actions: ['BOOK_HOTEL', 'DISMISS', 'ASSIGN'] });
    const missing = await act(t, item.action_id, { action: 'BOOK_HOTEL' });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([
      { field: '/property_id', issue: 'is required: no hotel is contracted at the booking’s station' },
    ]);
    const res = await act(t, item.action_id, { action: 'BOOK_HOTEL', property_id: 'GDS-JFK-001' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      booking_id: item.booking_id,
      review_status: 'RESOLVED',
      action_taken: 'BOOK_HOTEL',
    });
    const booking = await settled(t, item.booking_id);
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(booking.hotel).toMatchObject({ property_id: 'GDS-JFK-001', check_in_date: '2027-03-10' });
    expect((await reservations(email)).filter((x) => x.kind === 'hotel')).toHaveLength(1);
  });

  it('the supplier refused the room: BOOK_HOTEL without a property_id books the contracted hotel at its rate, CONFIRMED on the same booking', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'reject' });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', review_status: 'OPEN' });
    expect(item.available_actions).toEqual(['BOOK_HOTEL', 'DISMISS', 'ASSIGN']);
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body.status).toBe('NEEDS_REVIEW');
    const res = await act(t, item.action_id, { action: 'BOOK_HOTEL' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      booking_id: item.booking_id,
      review_status: 'RESOLVED',
      action_taken: 'BOOK_HOTEL',
    });
    const booking = await settled(t, item.booking_id);
    expect(booking).toMatchObject({ booking_id: item.booking_id, status: 'CONFIRMED', manual_override: true });
    expect(booking.hotel).toMatchObject({ property_id: 'GDS-JFK-001', contracted_rate: expect.anything() });
    const after = (await api(t, `/crew/action-items/${item.action_id}`)).body;
    expect(after).toMatchObject({ disposition: 'AUTO_BOOKED', review_status: 'RESOLVED', available_actions: [] });
    expect((await reservations(email)).filter((x) => x.kind === 'hotel')).toHaveLength(1);
    expect((await api(t, `/crew/bookings?pairing_number=P100&type=HOTEL`)).body.bookings).toHaveLength(1);
  });

  it('a FAILED booking: BOOK_HOTEL without a property_id books the contracted hotel instead of retrying, CONFIRMED', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    const res = await act(t, item.action_id, { action: 'BOOK_HOTEL' });
    expect(res.status).toBe(202);
    const booking = await settled(t, item.booking_id);
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    expect(booking.hotel).toMatchObject({ property_id: 'GDS-JFK-001' });
  });

  it('a dropped layover held for review: CANCEL_BOOKING cancels its booking at the supplier, with the reason', async () => {
    const { t, email } = await airline();
    const first = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect((await settled(t, first.booking_id)).status).toBe('CONFIRMED');
    // The next roster of the window no longer has the pairing; cancellation execution is off: a person decides.
    const next = await roster(t, onePairingRoster({ email: 'other@air.test', pairing: 'P200', employee: 'E2' }));
    const dropped = next.items.find((i: { classification: string }) => i.classification === 'LAYOVER_CANCELLED')!;
    expect(dropped).toMatchObject({
      booking_id: first.booking_id,
      review_status: 'OPEN',
      available_actions: ['CANCEL_BOOKING', 'DISMISS', 'ASSIGN'],
    });
    const res = await act(t, dropped.action_id, { action: 'CANCEL_BOOKING', reason: 'pairing dropped' });
    expect(res.status).toBe(202);
    const booking = await settled(t, first.booking_id);
    expect(booking).toMatchObject({ status: 'CANCELLED', manual_override: true });
    const history = (await api(t, `/crew/bookings/${first.booking_id}/status`)).body.history;
    expect(history).toContainEqual(
      expect.objectContaining({ status: 'PENDING', reason: 'pairing dropped', actor: t.email }),
    );
  });

  it('a FAILED booking: RETRY re-runs it on the same booking (retry_count 1); CANCEL_BOOKING on a confirmed one is not offered', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    expect(item.available_actions).toEqual(['BOOK_HOTEL', 'RETRY', 'DISMISS', 'ASSIGN']);
    const res = await act(t, item.action_id, { action: 'RETRY' });
    expect(res.status).toBe(202);
    const booking = await settled(t, item.booking_id);
    expect(booking).toMatchObject({ status: 'CONFIRMED', retry_count: 1 });
    expect((await act(t, item.action_id, { action: 'CANCEL_BOOKING' })).status).toBe(409);
  });
});

describe('flight_options_url on a FLIGHT item awaiting a manual choice (spec 2.3)', () => {
  it('a deadhead whose automatic booking failed links to its flight options, and the link lists them', async () => {
    const { t, email } = await airline({ settings: { deadhead_auto_booking: true } });
    await fault({ operation: 'flight.search', outcome: 'error', count: 3 });
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({
      disposition: 'FAILED',
      review_status: 'OPEN',
      flight_options_url: `/api/v1/crew/flight-options?action_id=${item.action_id}`,
    });
    expect(item.available_actions).toContain('BOOK_FLIGHT_OPTION');
    const option = await firstOption(t, item);
    expect((await act(t, item.action_id, { action: 'BOOK_FLIGHT_OPTION', flight_option_id: option })).status).toBe(202);
    expect(await settled(t, item.booking_id)).toMatchObject({ status: 'CONFIRMED' });
    // The choice is made: no link any more, on the item as the queue shows it.
    expect((await api(t, `/crew/action-items/${item.action_id}`)).body).toMatchObject({
      review_status: 'RESOLVED',
      flight_options_url: null,
    });
  });
});

import {
  allActionItems,
  bookingAccount,
  http,
  onboard,
  onePairingRoster,
  standardWebhookSignature,
  startOwnAirlineReceiver,
  type OwnAirlineReceiver,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

/** Deadheads through each airline's supplier order: Duffel, the airline's own system, fallbacks, pacing. */
let stack: Stack;
let receiver: OwnAirlineReceiver;
const SECRET = `whsec_${Buffer.alloc(24, 3).toString('base64')}`;
beforeAll(async () => {
  stack = await startStack('deadhead_suppliers', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
  receiver = await startOwnAirlineReceiver({ secret: SECRET, carrier: 'BA' });
});
afterAll(async () => {
  await receiver.close();
  await stack.close();
});

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const duffelOrders = async (token: string) =>
  (await http(`${stack.sandboxUrl}/_control/duffel/orders?token=${token}`)).body.orders as unknown[];
const duffelFault = async (body: Record<string, unknown>) =>
  expect((await http(`${stack.sandboxUrl}/_control/duffel/faults`, { method: 'POST', body })).status).toBe(201);

let n = 0;
/** An airline with deadhead auto-booking, a traveller Duffel can book, and the given supplier setting. */
async function airline(suppliers: Record<string, unknown>, carrier?: string) {
  n++;
  const t = await onboard(stack, {
    name: `Supplier Air ${n}`,
    carrier: carrier ?? `Q${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, deadhead_auto_booking: true },
  });
  const email = `crew${n}@suppliers.test`;
  await bookingAccount(stack, t, email);
  const profile = await api(t, '/crew/travellers/E1', {
    method: 'PUT',
    body: { title: 'ms', gender: 'f', phone_number: '+442071234567' },
  });
  expect(profile.status).toBeLessThan(300);
  const set = await ops(`/airlines/${t.airlineId}/suppliers`, { method: 'PUT', body: suppliers });
  expect(set.status).toBe(200);
  return { t, email };
}

async function deadhead(t: Tenant, email: string, waitForCompletion = true) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  if (waitForCompletion) await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  else
    await waitFor(
      async () =>
        (await allActionItems(stack, t.accessToken, res.body.schedule_id)).some(
          (i) => i.type === 'FLIGHT' && i.booking_id,
        ),
      15_000,
      'the flight item',
    );
  const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === 'FLIGHT')!;
  return { item, booking: (await api(t, `/crew/bookings/${item.booking_id}`)).body };
}

/** An airline (carrier BA) whose own flights are ticketed by its own system, the test's receiver. */
const ownAirlineCarrier = () =>
  airline(
    {
      flights: ['OWN_AIRLINE'],
      hotels: ['SANDBOX'],
      own_airline: { url: receiver.url, carrier: 'BA', signing_secret: SECRET },
    },
    'BA',
  );

/** Waits for the booking to be CANCELLED. */
const cancelled = (t: Tenant, bookingId: string) =>
  waitFor(
    async () => (await api(t, `/crew/bookings/${bookingId}`)).body.status === 'CANCELLED',
    15_000,
    'the cancellation',
  );

/** The booking once its seat request waits for the airline's callback. */
const requestedBooking = (t: Tenant, bookingId: string) =>
  waitFor(
    async () => {
      const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
      return b.flight?.supplier_status === 'REQUESTED' && b;
    },
    15_000,
    'the seat request',
  );

const settled = (t: Tenant, bookingId: string) =>
  waitFor(
    async () => {
      const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
      return b.status !== 'PENDING' && b.status !== 'FAILED' && b;
    },
    15_000,
    'the booking to settle',
  );

/** Posts `body` to the airline's callback endpoint as its own system sends it: signed with SECRET, as message `id`. */
function signedCallback(t: Tenant, body: Record<string, unknown>, id: string) {
  const raw = JSON.stringify(body);
  const ts = String(Math.floor(Date.now() / 1000));
  return http(`${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`, {
    method: 'POST',
    raw,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': ts,
      'webhook-signature': standardWebhookSignature(SECRET, id, ts, raw),
    },
  });
}

/**
 * An own-airline deadhead (the airline's `settings` changed first, when given) whose seat request the airline
 * answered 202 and has not called back yet; the seat's callback goes to this stack's api.
 */
async function outstandingSeat(settings?: Record<string, unknown>) {
  const { t, email } = await ownAirlineCarrier();
  if (settings)
    expect((await ops(`/airlines/${t.airlineId}/settings`, { method: 'PATCH', body: settings })).status).toBe(200);
  receiver.answerNext({ kind: 'pending' });
  const { item } = await deadhead(t, email, false);
  const bookingId = item.booking_id!;
  const requested = await requestedBooking(t, bookingId);
  const reference = requested.flight.request_reference as string;
  const seat = receiver.seats.get(reference)!;
  seat.callback_url = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
  const cancels = () =>
    receiver.calls.filter((c) => c.body?.booking_id === bookingId && c.body.type === 'crew_seat.cancel');
  return { t, email, bookingId, reference, seat, cancels };
}

describe('a deadhead through Duffel', () => {
  it('is ordered at Duffel and records the supplier and that it is not live', async () => {
    const token = 'duffel_test_deadhead_one';
    const { t, email } = await airline({
      flights: ['DUFFEL', 'SANDBOX'],
      hotels: ['SANDBOX'],
      duffel: { access_token: token },
    });
    const { booking } = await deadhead(t, email);
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      flight: { supplier: 'DUFFEL', live_mode: false, supplier_ref: expect.stringMatching(/^ord_/) },
    });
    expect(await duffelOrders(token)).toHaveLength(1);
  });

  it('after an order that timed out, the retry finds it: no second ticket', async () => {
    const token = 'duffel_test_deadhead_timeout';
    const { t, email } = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });
    await duffelFault({ token, operation: 'orders.create', outcome: 'timeout' });
    const { booking } = await deadhead(t, email);
    expect(booking.status).toBe('FAILED');
    await api(t, `/crew/bookings/${booking.booking_id}/retry`, { method: 'POST' });
    expect(await settled(t, booking.booking_id)).toMatchObject({ status: 'CONFIRMED', flight: { supplier: 'DUFFEL' } });
    expect(await duffelOrders(token)).toHaveLength(1);
  });

  it("Duffel's order.created event finds the timed-out order where the order list cannot", async () => {
    const token = 'duffel_test_deadhead_announced';
    const { t, email } = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });
    await duffelFault({ token, operation: 'orders.create', outcome: 'timeout' });
    const { booking } = await deadhead(t, email);
    expect(booking.status).toBe('FAILED');
    const [order] = (await duffelOrders(token)) as Array<{ id: string }>;
    // Duffel announces the order; its list is down, so only the announcement can find the ticket.
    const announced = await http(`${stack.sandboxUrl}/_control/duffel/order-events`, {
      method: 'POST',
      body: { token, order_id: order!.id, rebase: stack.apiUrl },
    });
    expect(announced.body.deliveries).toEqual([expect.objectContaining({ status: 200 })]);
    await duffelFault({ token, operation: 'orders.list', outcome: 'error', count: 10 });
    await api(t, `/crew/bookings/${booking.booking_id}/retry`, { method: 'POST' });
    expect(await settled(t, booking.booking_id)).toMatchObject({
      status: 'CONFIRMED',
      flight: { supplier: 'DUFFEL', supplier_ref: order!.id },
    });
    expect(await duffelOrders(token)).toHaveLength(1);
  });

  it('a supplier that refuses passes the leg to the next one in the order', async () => {
    const token = 'duffel_test_deadhead_refused';
    const { t, email } = await airline({
      flights: ['DUFFEL', 'SANDBOX'],
      hotels: ['SANDBOX'],
      duffel: { access_token: token },
    });
    stack.sandbox.duffel.refuseToken(token);
    const { booking } = await deadhead(t, email);
    expect(booking.review_reason).toBeNull();
    expect(booking).toMatchObject({ status: 'CONFIRMED', flight: { supplier: 'SANDBOX' } });
  });

  it("Duffel's 429 pauses that airline's lane only; another airline books meanwhile", async () => {
    const slow = 'duffel_test_deadhead_paced';
    const a = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: slow } });
    const b = await airline({
      flights: ['DUFFEL'],
      hotels: ['SANDBOX'],
      duffel: { access_token: 'duffel_test_deadhead_unpaced' },
    });
    await duffelFault({ token: slow, operation: 'offer_requests.create', outcome: 'rate_limited', retry_after_s: 6 });
    const started = Date.now();
    const paced = await deadhead(a.t, a.email, false);
    const other = await deadhead(b.t, b.email);
    expect(other.booking.status).toBe('CONFIRMED');
    // The other airline was booked while this one's lane still waited out Duffel's Retry-After (an HTTP date:
    // whole seconds, so the pause is 5-6 s of the 6 asked).
    expect((await api(a.t, `/crew/bookings/${paced.item.booking_id!}`)).body.status).toBe('PENDING');
    const done = await settled(a.t, paced.item.booking_id!);
    expect(done.status).toBe('CONFIRMED');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
  });
});

describe('a fare that moved between the choice and the order', () => {
  it('STRICT (the default) orders nothing and holds the leg for a person; LOOSE orders at the new fare and flags it', async () => {
    const strictToken = 'duffel_test_price_strict';
    const strict = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: strictToken } });
    // The fare moves after the search, so Duffel refuses the order that pays the searched total.
    await duffelFault({ token: strictToken, operation: 'orders.create', outcome: 'price_moved', price_delta: 40 });
    const held = await deadhead(strict.t, strict.email);
    expect(held.booking).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: expect.stringContaining('PRICE_CHANGED'),
    });
    expect(await duffelOrders(strictToken)).toHaveLength(0);

    const looseToken = 'duffel_test_price_loose';
    const loose = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: looseToken } });
    expect(
      (await ops(`/airlines/${loose.t.airlineId}/settings`, { method: 'PATCH', body: { rate_match_mode: 'LOOSE' } }))
        .status,
    ).toBe(200);
    await duffelFault({ token: looseToken, operation: 'orders.create', outcome: 'price_moved', price_delta: 40 });
    const booked = await deadhead(loose.t, loose.email);
    expect(booked.booking).toMatchObject({
      status: 'CONFIRMED',
      flight: { supplier: 'DUFFEL', price_flag: expect.stringContaining('fare moved') },
    });
    expect(await duffelOrders(looseToken)).toHaveLength(1);
  });

  it('LOOSE never orders a moved fare above auto_book_max_price: nothing is bought, the leg goes to review', async () => {
    const token = 'duffel_test_price_loose_ceiling';
    const { t, email } = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });
    expect(
      (await ops(`/airlines/${t.airlineId}/settings`, { method: 'PATCH', body: { rate_match_mode: 'LOOSE' } })).status,
    ).toBe(200);
    const rules = await api(t, '/crew/config/flight-rules', {
      method: 'PUT',
      // The simulated fares are in GBP: the cheapest fits this ceiling, none fits it after the move.
      body: { auto_book_max_price: { amount: 500, currency: 'GBP' } },
    });
    expect(rules.status).toBe(200);
    await duffelFault({ token, operation: 'orders.create', outcome: 'price_moved', price_delta: 500 });
    const { booking } = await deadhead(t, email);
    expect(booking).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: expect.stringContaining('above the ceiling 500.00 GBP'),
    });
    expect(booking.review_reason).toContain('nothing was bought');
    expect(await duffelOrders(token)).toHaveLength(0);
  });
});

describe("the airline's fare-conditions rule", () => {
  it('is ANY by default; REFUNDABLE books a refundable Duffel fare; a bad value is 422 and changes nothing', async () => {
    const token = 'duffel_test_fare_rule';
    const { t, email } = await airline({ flights: ['DUFFEL'], hotels: ['SANDBOX'], duffel: { access_token: token } });
    expect((await api(t, '/crew/config/flight-rules')).body).toMatchObject({ fare_conditions: 'ANY' });
    expect(
      (await api(t, '/crew/config/flight-rules', { method: 'PUT', body: { fare_conditions: 'CHEAP' } })).status,
    ).toBe(422);
    // Premium cabins allowed: without the rule the cheapest fitting fare (a non-refundable economy one) would win.
    expect((await api(t, '/crew/config/flights', { method: 'PUT', body: { preferred_cabin: 'FIRST' } })).status).toBe(
      200,
    );
    const put = await api(t, '/crew/config/flight-rules', { method: 'PUT', body: { fare_conditions: 'REFUNDABLE' } });
    expect(put.body).toMatchObject({ fare_conditions: 'REFUNDABLE', auto_book_max_price: null });
    const { booking } = await deadhead(t, email);
    expect(booking.review_reason).toBeNull();
    expect(booking).toMatchObject({ status: 'CONFIRMED', flight: { supplier: 'DUFFEL' } });
    const [order] = (await duffelOrders(token)) as Array<{
      conditions: { refund_before_departure: { allowed: boolean } | null };
    }>;
    expect(order!.conditions.refund_before_departure?.allowed).toBe(true);
  });

  it('holds the leg for a person when no offer states the condition (the sandbox states none)', async () => {
    const { t, email } = await airline({ flights: ['SANDBOX'], hotels: ['SANDBOX'] });
    await api(t, '/crew/config/flight-rules', { method: 'PUT', body: { fare_conditions: 'CHANGEABLE' } });
    const { booking, item } = await deadhead(t, email);
    expect(booking).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: expect.stringContaining('fare conditions rule (CHANGEABLE)'),
    });
    expect(item.recommended_action).toBe('BOOK_MANUALLY');
  });
});

describe("a leg on the airline's own metal", () => {
  it('goes to review with BOOK_IN_OWN_SYSTEM when no own system is registered, never to Duffel', async () => {
    const token = 'duffel_test_own_metal';
    const { t, email } = await airline(
      { flights: ['DUFFEL', 'SANDBOX'], hotels: ['SANDBOX'], duffel: { access_token: token } },
      'BA',
    );
    const { item, booking } = await deadhead(t, email);
    expect(booking.status).toBe('NEEDS_REVIEW');
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', recommended_action: 'BOOK_IN_OWN_SYSTEM' });
    expect(await duffelOrders(token)).toHaveLength(0);
  });

  it("is ticketed by the airline's own system, signed, with its PNR and ticket", async () => {
    const { t, email } = await airline(
      {
        flights: ['OWN_AIRLINE', 'SANDBOX'],
        hotels: ['SANDBOX'],
        own_airline: { url: receiver.url, carrier: 'BA', signing_secret: SECRET },
      },
      'BA',
    );
    receiver.answerNext({ kind: 'ticket', pnr: 'OWN123', ticket_id: '1251234567890' });
    const { booking } = await deadhead(t, email);
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      flight: { supplier: 'OWN_AIRLINE', live_mode: true, pnr: 'OWN123', ticket_id: '1251234567890' },
    });
    expect(receiver.calls.at(-1)).toMatchObject({ verified: true });
  });

  it('a 202 leaves the booking PENDING until the signed callback, which confirms it', async () => {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'pending' });
    const { item } = await deadhead(t, email, false);
    const booking = await requestedBooking(t, item.booking_id!);
    expect(booking).toMatchObject({
      status: 'PENDING',
      flight: { supplier: 'OWN_AIRLINE', supplier_status: 'REQUESTED' },
    });
    const reference = [...receiver.seats.keys()].at(-1)!;
    const seat = receiver.seats.get(reference)!;
    expect(seat.callback_url).toMatch(new RegExp(`/callbacks/own-airline/${t.airlineId}$`));
    // The stack's api listens on a port of its own, not PUBLIC_API_URL's.
    seat.callback_url = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
    expect(await receiver.complete(reference)).toBe(200);
    expect(await settled(t, booking.booking_id)).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: expect.any(String), ticket_id: expect.any(String) },
    });
    // A forged callback is refused.
    const forged = await http(`${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`, {
      method: 'POST',
      body: { type: 'crew_seat.ticketed', reference },
    });
    expect(forged.status).toBe(401);
  });

  it("the request names the rostered departure time; the callback's arrival time and cabin reach the booking", async () => {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'pending' });
    const { item } = await deadhead(t, email, false);
    const booking = await requestedBooking(t, item.booking_id!);
    const reference = booking.flight.request_reference as string;
    const request = receiver.calls.find((c) => c.body?.reference === reference)!;
    expect(request.body.flight).toMatchObject({
      departure_date: '2027-03-10',
      dep_time: booking.flight.dep_time_local,
    });
    const seat = receiver.seats.get(reference)!;
    seat.callback_url = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
    expect(await receiver.complete(reference, { arr_time: '2027-03-10T12:05:00-05:00', cabin: 'BUSINESS' })).toBe(200);
    expect(await settled(t, booking.booking_id)).toMatchObject({
      status: 'CONFIRMED',
      flight: {
        pnr: seat.pnr,
        dep_time: booking.flight.dep_time_local,
        arr_time: '2027-03-10T12:05:00-05:00',
        cabin: 'BUSINESS',
      },
    });
  });

  it('a signed callback with a malformed flight time is 400 naming the field, stores nothing; a correct one settles', async () => {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'pending' });
    const { item } = await deadhead(t, email, false);
    const bookingId = item.booking_id!;
    const reference = (await requestedBooking(t, bookingId)).flight.request_reference as string;
    const body = {
      type: 'crew_seat.ticketed',
      reference,
      booking_id: bookingId,
      pnr: 'BAD001',
      ticket_id: '1250000000009',
      flight: { arr_time: 'half past noon' },
    };
    const res = await signedCallback(t, body, 'msg_malformed_time');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('flight.arr_time');
    const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
    expect(b).toMatchObject({ status: 'PENDING', flight: { supplier_status: 'REQUESTED' } });
    expect(b.flight.pnr).toBeUndefined();

    const seat = receiver.seats.get(reference)!;
    seat.callback_url = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
    expect(await receiver.complete(reference, { arr_time: '2027-03-10T12:05:00-05:00' })).toBe(200);
    expect(await settled(t, bookingId)).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: seat.pnr, arr_time: '2027-03-10T12:05:00-05:00' },
    });
  });

  it("a callback naming another request's reference is acknowledged and changes nothing; the outstanding one's settles it", async () => {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'pending' });
    const { item } = await deadhead(t, email, false);
    const bookingId = item.booking_id!;
    await requestedBooking(t, bookingId);
    const reference = [...receiver.seats.keys()].at(-1)!;
    const callbackUrl = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
    // A late answer to an earlier request on the same booking (signed by the airline: only its reference differs).
    const earlier = `${reference}-earlier`;
    const signed = (body: { type: string; reference: string } & Record<string, unknown>) =>
      signedCallback(t, body, `msg_${body.type}_${body.reference}`.replace(/[^A-Za-z0-9_]/g, '_'));
    const stale = [
      {
        type: 'crew_seat.ticketed',
        reference: earlier,
        booking_id: bookingId,
        pnr: 'OLD001',
        ticket_id: '1250000000001',
      },
      { type: 'crew_seat.refused', reference: earlier, booking_id: bookingId, reason: 'flight closed for crew' },
    ];
    for (const body of stale) {
      expect((await signed(body)).status).toBe(200);
      const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
      expect(b).toMatchObject({
        status: 'PENDING',
        flight: { supplier_status: 'REQUESTED', request_reference: reference },
      });
      expect(b.flight.pnr).toBeUndefined();
    }
    const ignored = stack.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'own-airline callback' && l.booking_id === bookingId);
    expect(ignored).toHaveLength(2);
    expect(ignored[0]).toMatchObject({
      outcome: 'other_request',
      reference: earlier,
      outstanding_reference: reference,
    });
    // The outstanding request's own callback settles it, with its seat.
    const seat = receiver.seats.get(reference)!;
    seat.callback_url = callbackUrl;
    expect(await receiver.complete(reference)).toBe(200);
    expect(await settled(t, bookingId)).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: seat.pnr, ticket_id: seat.ticket_id },
    });
  });

  it('a callback that overtakes the 202 is answered 503 with Retry-After; sent again, it settles the booking', async () => {
    const { t, email } = await ownAirlineCarrier();
    let early: Promise<number | null> | undefined;
    receiver.answerNext({
      kind: 'pending',
      // The airline calls back before its 202 reaches us: the worker has not recorded the request yet.
      beforeAnswer: async (seat) => {
        seat.callback_url = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
        early = receiver.complete(seat.reference);
        await waitFor(
          () => receiver.callbacks.find((c) => c.reference === seat.reference)?.attempts.length,
          5_000,
          'the first callback attempt',
        );
      },
    });
    const { item } = await deadhead(t, email, false);
    const bookingId = item.booking_id!;
    const reference = await waitFor(() => early && [...receiver.seats.keys()].at(-1), 15_000, 'the seat request');
    const seat = receiver.seats.get(reference)!;
    expect(await settled(t, bookingId)).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: seat.pnr, ticket_id: seat.ticket_id, request_reference: reference },
    });
    expect(await early).toBe(200);
    const sent = receiver.callbacks.find((c) => c.reference === reference)!;
    expect(sent.attempts[0]).toEqual({ status: 503, retry_after: '2' });
    expect(sent.attempts.at(-1)).toEqual({ status: 200, retry_after: null });
  });
});

describe("a roster that drops a leg whose seat the airline's own system has not answered yet", () => {
  /** An own-airline deadhead whose seat request waits for its callback, then a roster that flies the leg instead. */
  async function droppedWhileRequested(cancellationExecution: boolean) {
    const { t, email, bookingId, reference, seat, cancels } = await outstandingSeat(
      cancellationExecution ? { cancellation_execution: true } : undefined,
    );
    // The leg is flown instead of deadheaded while the airline still works on the request: no seat is needed.
    const flown = onePairingRoster({ email });
    flown.pairings[0]!.duty_periods[0]!.legs[0]!.activity_code = 'FLT';
    const submitted = await api(t, '/crew/schedules', { method: 'POST', body: flown });
    expect(submitted.status).toBe(202);
    const cancelItem = await waitFor(
      async () =>
        (await allActionItems(stack, t.accessToken, submitted.body.schedule_id)).find(
          (i) => i.booking_id === bookingId,
        ),
      15_000,
      'the cancellation item',
    );
    return { t, bookingId, reference, seat, cancelItem, cancels };
  }

  it('with cancellation execution on: the cancellation waits for the answer, then gives the ticketed seat back', async () => {
    const { t, bookingId, reference, seat, cancels } = await droppedWhileRequested(true);
    await waitFor(
      async () =>
        (
          await stack.database.db
            .selectFrom('bookings')
            .select('task_operation')
            .where('booking_id', '=', bookingId)
            .executeTakeFirst()
        )?.task_operation === 'CANCEL',
      15_000,
      'the cancellation task',
    );
    // Its job has run by now (a cancellation that names no seat settles within milliseconds of it).
    await new Promise((r) => setTimeout(r, 3000));
    // Nothing to name yet: the cancellation waits for the seat's answer.
    expect((await api(t, `/crew/bookings/${bookingId}`)).body).toMatchObject({
      status: 'PENDING',
      flight: { supplier_status: 'REQUESTED' },
    });
    expect(await receiver.complete(reference)).toBe(200);
    await cancelled(t, bookingId);
    expect(cancels().map((c) => c.body.pnr)).toEqual([seat.pnr]);
    expect(receiver.seats.get(reference)!.state).toBe('CANCELLED');
  });

  it('held for review: the late answer is written on the booking, and a person cancelling gives that seat back', async () => {
    const { t, bookingId, reference, seat, cancelItem, cancels } = await droppedWhileRequested(false);
    expect(cancelItem).toMatchObject({ disposition: 'PENDING_REVIEW' });
    expect((await api(t, `/crew/bookings/${bookingId}`)).body.status).toBe('NEEDS_REVIEW');
    // The airline answers after the task that asked was superseded: acknowledged, and its seat recorded.
    expect(await receiver.complete(reference)).toBe(200);
    expect((await api(t, `/crew/bookings/${bookingId}`)).body).toMatchObject({
      status: 'NEEDS_REVIEW',
      flight: { supplier_status: 'CONFIRMED', pnr: seat.pnr, request_reference: reference },
    });
    const acted = await api(t, `/crew/action-items/${cancelItem.action_id}/actions`, {
      method: 'POST',
      body: { action: 'CANCEL_BOOKING', acting_user: 'desk@air.test' },
    });
    expect(acted.status).toBe(202);
    await cancelled(t, bookingId);
    expect(cancels().map((c) => c.body.pnr)).toEqual([seat.pnr]);
    expect(receiver.seats.get(reference)!.state).toBe('CANCELLED');
  });
});

describe('a flight PATCH that rebooks a rostered deadhead', () => {
  it("keeps the leg's flight_number on the new booking: found by that anchor, and ticketed by the airline's own system again", async () => {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'ticket', pnr: 'OWN777', ticket_id: '1257777777777' });
    const { booking } = await deadhead(t, email);
    expect(booking).toMatchObject({ status: 'CONFIRMED', flight_number: 'BA117', flight: { supplier: 'OWN_AIRLINE' } });
    receiver.answerNext({ kind: 'ticket', pnr: 'OWN778', ticket_id: '1257777777778' });
    const patched = await api(t, `/crew/bookings/${booking.booking_id}`, {
      method: 'PATCH',
      body: { flight: { desired_arrival_by: '2027-03-10T18:00:00Z' } },
    });
    expect(patched.status).toBe(202);
    const newId = patched.body.booking_id as string;
    expect(newId).not.toBe(booking.booking_id);
    expect(await settled(t, newId)).toMatchObject({
      status: 'CONFIRMED',
      flight_number: 'BA117',
      flight: { supplier: 'OWN_AIRLINE', pnr: 'OWN778' },
    });
    const listed = (await api(t, '/crew/bookings?flight_number=BA117')).body.bookings.map((b: any) => b.booking_id);
    expect(listed).toEqual(expect.arrayContaining([booking.booking_id, newId]));
  });
});

describe("the airline's DELETE or PATCH of an own-airline deadhead whose seat waits for the callback", () => {
  it('DELETE is accepted at once (not 409 until the airline answers); the callback then gives the seat back', async () => {
    const { t, bookingId, reference, seat, cancels } = await outstandingSeat();
    const started = Date.now();
    const del = await api(t, `/crew/bookings/${bookingId}?reason=leg%20dropped`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    expect(del.body).toMatchObject({ status: 'PENDING', manual_override: true });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await receiver.complete(reference)).toBe(200);
    await cancelled(t, bookingId);
    // The callback can overtake the DELETE's task: that task and the one the callback resumes may both give the
    // seat back, always under one reference (the airline answers a repeated reference from its first answer).
    expect([...new Set(cancels().map((c) => `${c.body.pnr} ${c.body.reference}`))]).toEqual([
      `${seat.pnr} ${cancels()[0]!.body.reference}`,
    ]);
    expect(receiver.seats.get(reference)!.state).toBe('CANCELLED');
  });

  it('a flight PATCH is accepted at once (cancel-and-rebook); the old booking gives its seat back once the callback names it', async () => {
    const { t, bookingId, reference, seat, cancels } = await outstandingSeat();
    const started = Date.now();
    const patched = await api(t, `/crew/bookings/${bookingId}`, {
      method: 'PATCH',
      body: { flight: { desired_arrival_by: '2027-03-10T12:00:00Z' } },
    });
    expect(patched.status).toBe(202);
    expect(patched.body.replaces_booking_id).toBe(bookingId);
    expect(patched.body.booking_id).not.toBe(bookingId);
    // The old booking's cancellation waits for the seat's answer, with nothing to name yet.
    expect(Date.now() - started).toBeLessThan(12_000);
    expect((await api(t, `/crew/bookings/${bookingId}`)).body).toMatchObject({
      status: 'PENDING',
      flight: { supplier_status: 'REQUESTED' },
    });
    expect(cancels()).toHaveLength(0);
    expect(await receiver.complete(reference)).toBe(200);
    await cancelled(t, bookingId);
    // The callback can overtake the DELETE's task: that task and the one the callback resumes may both give the
    // seat back, always under one reference (the airline answers a repeated reference from its first answer).
    expect([...new Set(cancels().map((c) => `${c.body.pnr} ${c.body.reference}`))]).toEqual([
      `${seat.pnr} ${cancels()[0]!.body.reference}`,
    ]);
  });
});

describe("a roster change to a leg ticketed in the airline's own system", () => {
  it('cancels the seat and requests a new one: the booking ends MODIFIED with the new PNR, never the cancelled one', async () => {
    const { t, email } = await ownAirlineCarrier();
    expect(
      (await ops(`/airlines/${t.airlineId}/settings`, { method: 'PATCH', body: { booking_modification: true } }))
        .status,
    ).toBe(200);
    const callbackUrl = `${stack.apiUrl}/callbacks/own-airline/${t.airlineId}`;
    /** Waits for the booking's outstanding request other than `previous`, and has the airline answer it by callback. */
    const answerByCallback = async (bookingId: string, previous?: string) => {
      const waiting = await waitFor(
        async () => {
          const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
          const requested = b.flight?.supplier_status === 'REQUESTED' && b.flight.request_reference !== previous;
          return (b.status !== 'PENDING' || requested) && b;
        },
        15_000,
        'the seat request',
      );
      expect(waiting).toMatchObject({ status: 'PENDING', flight: { supplier_status: 'REQUESTED' } });
      // While the request waits, the booking names no seat (not the one cancelled before it).
      expect(waiting.flight.pnr).toBeUndefined();
      const reference = waiting.flight.request_reference as string;
      const seat = receiver.seats.get(reference)!;
      seat.callback_url = callbackUrl;
      expect(await receiver.complete(reference)).toBe(200);
      return { reference, seat };
    };

    receiver.answerNext({ kind: 'pending' });
    const { item } = await deadhead(t, email, false);
    const bookingId = item.booking_id!;
    const first = await answerByCallback(bookingId);
    expect(await settled(t, bookingId)).toMatchObject({ status: 'CONFIRMED', flight: { pnr: first.seat.pnr } });

    // The leg moves by an hour: the ticket is cancelled and a new one requested (answered later too).
    receiver.answerNext({ kind: 'pending' });
    const moved = onePairingRoster({ email });
    const leg = moved.pairings[0]!.duty_periods[0]!.legs[0]!;
    leg.dep_time_local = leg.expected_dep_time_local = '2027-03-10T10:00:00+00:00';
    leg.arr_time_local = leg.expected_arr_time_local = '2027-03-10T13:00:00-05:00';
    const submitted = await api(t, '/crew/schedules', { method: 'POST', body: moved });
    expect(submitted.status).toBe(202);
    const change = await waitFor(
      async () =>
        (await allActionItems(stack, t.accessToken, submitted.body.schedule_id)).find((i) => i.type === 'FLIGHT'),
      15_000,
      'the flight change item',
    );
    expect(change).toMatchObject({ classification: 'DEADHEAD_TIME_CHANGE', booking_id: bookingId });
    const second = await answerByCallback(bookingId, first.reference);

    expect(second.seat.pnr).not.toBe(first.seat.pnr);
    expect(await settled(t, bookingId)).toMatchObject({
      status: 'MODIFIED',
      flight: { supplier: 'OWN_AIRLINE', pnr: second.seat.pnr, ticket_id: second.seat.ticket_id },
    });
    const calls = receiver.calls.filter((c) => c.body?.booking_id === bookingId);
    expect(calls.filter((c) => c.body.type === 'crew_seat.request').map((c) => c.body.reference)).toEqual([
      first.reference,
      second.reference,
    ]);
    // Only the old seat was given back (the callback's resume does not cancel again); the new one is held.
    expect(calls.filter((c) => c.body.type === 'crew_seat.cancel').map((c) => c.body.pnr)).toEqual([first.seat.pnr]);
    expect(receiver.seats.get(first.reference)!.state).toBe('CANCELLED');
    expect(receiver.seats.get(second.reference)!.state).toBe('TICKETED');

    // Cancelled at last: the new seat's cancellation has a reference (and webhook-id) of its own, so an airline
    // that answers a repeated reference from its first answer still gives this seat back.
    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' })).status).toBe(202);
    await cancelled(t, bookingId);
    const cancels = receiver.calls.filter(
      (c) => c.body?.booking_id === bookingId && c.body.type === 'crew_seat.cancel',
    );
    expect(cancels.map((c) => c.body.pnr)).toEqual([first.seat.pnr, second.seat.pnr]);
    expect(new Set(cancels.map((c) => c.body.reference)).size).toBe(2);
    expect(new Set(cancels.map((c) => c.headers['webhook-id'])).size).toBe(2);
    expect(receiver.seats.get(second.reference)!.state).toBe('CANCELLED');
  });
});

describe("an own-airline seat request whose outcome is unknown (the airline's 5xx after ticketing)", () => {
  /** An own-airline deadhead whose seat the airline ticketed although it answered 503. */
  async function unknownOutcomeSeat() {
    const { t, email } = await ownAirlineCarrier();
    receiver.answerNext({ kind: 'fail', status: 503, takes: true });
    const { item, booking } = await deadhead(t, email);
    return { t, item, booking, bookingId: item.booking_id! };
  }

  /** A person records a PNR and ticket on the item (RECORD_PNR): accepted. */
  async function recordPnr(t: Tenant, actionId: string, pnr: string, ticketId: string) {
    const res = await api(t, `/crew/action-items/${actionId}/actions`, {
      method: 'POST',
      body: { action: 'RECORD_PNR', pnr, ticket_id: ticketId },
    });
    expect(res.status).toBe(202);
  }

  /** Waits for the entry of the booking's history whose reason says `text`. */
  const historyEntry = (t: Tenant, bookingId: string, text: string, what: string) =>
    waitFor(
      async () =>
        ((await api(t, `/crew/bookings/${bookingId}/status`)).body.history as { reason: string | null }[]).find((h) =>
          h.reason?.includes(text),
        ),
      15_000,
      what,
    );

  it('DELETE asks the airline again under the same reference, learns the PNR and gives that seat back', async () => {
    const { t, booking, bookingId } = await unknownOutcomeSeat();
    expect(booking.status).toBe('FAILED');
    // The airline ticketed the seat although it answered 503: the outcome is unknown on our side.
    const requests = receiver.calls.filter(
      (c) => c.body?.booking_id === bookingId && c.body.type === 'crew_seat.request',
    );
    expect(requests).toHaveLength(1);
    const reference = requests[0]!.body.reference as string;
    expect(receiver.seats.get(reference)!.state).toBe('TICKETED');
    expect(booking.flight).toMatchObject({ supplier: 'OWN_AIRLINE', request_reference: reference });

    expect((await api(t, `/crew/bookings/${bookingId}?reason=leg%20dropped`, { method: 'DELETE' })).status).toBe(202);
    await cancelled(t, bookingId);
    const seat = receiver.seats.get(reference)!;
    expect(seat.state).toBe('CANCELLED');
    const asked = receiver.calls.filter((c) => c.body?.booking_id === bookingId);
    expect(asked.map((c) => [c.body.type, c.body.reference, c.answered])).toEqual([
      ['crew_seat.request', reference, 503],
      ['crew_seat.request', reference, 200],
      ['crew_seat.cancel', expect.any(String), 200],
    ]);
    expect(asked[2]!.body.pnr).toBe(seat.pnr);
    expect((await api(t, `/crew/bookings/${bookingId}`)).body.flight).toMatchObject({
      supplier: 'OWN_AIRLINE',
      pnr: seat.pnr,
      supplier_status: 'CANCELLED',
    });
  });

  it('a retry asks again under the same reference and takes the seat the airline ticketed: never a second one', async () => {
    const { t, booking, bookingId } = await unknownOutcomeSeat();
    expect(booking.status).toBe('FAILED');
    const reference = booking.flight.request_reference as string;
    expect((await api(t, `/crew/bookings/${bookingId}/retry`, { method: 'POST' })).status).toBeLessThan(300);
    const done = await settled(t, bookingId);
    expect(done).toMatchObject({
      status: 'CONFIRMED',
      flight: { supplier: 'OWN_AIRLINE', pnr: receiver.seats.get(reference)!.pnr },
    });
    expect([...receiver.seats.values()].filter((s) => s.booking_id === bookingId)).toHaveLength(1);
  });

  it('a PNR a person records gives back the seat the request made, asked again under its reference', async () => {
    const { t, item, booking, bookingId } = await unknownOutcomeSeat();
    expect(booking.status).toBe('FAILED');
    const reference = booking.flight.request_reference as string;
    expect(receiver.seats.get(reference)!.state).toBe('TICKETED');

    await recordPnr(t, item.action_id, 'PPL123', '1259999999999');
    await waitFor(() => receiver.seats.get(reference)!.state === 'CANCELLED', 15_000, 'the seat to be given back');
    const cancel = receiver.calls.find((c) => c.body?.booking_id === bookingId && c.body.type === 'crew_seat.cancel');
    expect(cancel!.body.pnr).toBe(receiver.seats.get(reference)!.pnr);
    const b = (await api(t, `/crew/bookings/${bookingId}`)).body;
    expect(b).toMatchObject({ status: 'CONFIRMED', flight: { pnr: 'PPL123', ticket_id: '1259999999999' } });
    const history = await historyEntry(t, bookingId, 'cancelled at the supplier', 'the cancellation in the history');
    expect(history.reason).toContain(receiver.seats.get(reference)!.pnr);
  });

  it('a PNR a person records that is the seat the request made keeps it', async () => {
    const { t, item, booking, bookingId } = await unknownOutcomeSeat();
    const reference = booking.flight.request_reference as string;
    const seat = receiver.seats.get(reference)!;

    await recordPnr(t, item.action_id, seat.pnr, seat.ticket_id);
    const kept = await historyEntry(t, bookingId, 'is the one recorded: kept', 'the lookup in the history');
    expect(kept).toBeTruthy();
    expect(seat.state).toBe('TICKETED');
    expect(
      receiver.calls.filter((c) => c.body?.booking_id === bookingId && c.body.type === 'crew_seat.cancel'),
    ).toEqual([]);
  });
});

import { sql } from '@crew/db';
import {
  bookingAccount,
  http,
  onboard,
  onePairingRoster,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
  allActionItems,
} from '@crew/test-support';

/*
 * The api side of each airline's supplier order: flight options from the first supplier of the order with
 * something usable, a committed option booked by the worker at the supplier that issued it, its status
 * asked of that supplier, and a seat the airline booked in its own system recorded without a supplier call.
 * An airline without a setting is covered by the existing tests (flight-options, bookings), unchanged.
 */

let stack: Stack;
const TODAY = '2027-03-01';
const ROUTE = 'from_airport=LHR&to_airport=JFK&date=2027-03-10';

beforeAll(async () => {
  stack = await startStack('supplier_order', { now: () => new Date(`${TODAY}T00:00:00Z`), worker: true });
});
afterAll(() => stack?.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const duffelOrders = async (token: string) =>
  (await http(`${stack.sandboxUrl}/_control/duffel/orders?token=${token}`)).body.orders as any[];
const duffelFault = (body: Record<string, unknown>) =>
  http(`${stack.sandboxUrl}/_control/duffel/faults`, { method: 'POST', body });
const sandboxFlights = async (email: string) =>
  (
    (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
      .reservations as any[]
  ).filter((r) => r.kind === 'flight');

let seq = 0;
/** An airline with a traveller (date of birth set) and, when `order` is given, that supplier order with its own Duffel test token. */
async function airline(opts: { carrier?: string; order?: string[]; settings?: Record<string, unknown> } = {}) {
  seq++;
  const t = await onboard(stack, {
    name: `Order Air ${seq}`,
    carrier: opts.carrier ?? 'QD',
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${seq}@order.test`;
  await bookingAccount(stack, t, email);
  // Duffel needs the passenger's title, gender and phone: the airline keeps them on the traveller profile.
  expect(
    (
      await api(t, '/crew/travellers/E1', {
        method: 'PUT',
        body: { title: 'ms', gender: 'f', phone_number: '+447700900123' },
      })
    ).status,
  ).toBeLessThan(300);
  const token = `duffel_test_api_suppliers_${seq}_${Date.now()}`;
  if (opts.order) {
    const put = await ops(`/airlines/${t.airlineId}/suppliers`, {
      method: 'PUT',
      body: { flights: opts.order, hotels: ['SANDBOX'], duffel: { access_token: token } },
    });
    expect(put.status).toBe(200);
  }
  return { t, email, token };
}

async function options(t: Tenant, q = ROUTE): Promise<any[]> {
  const res = await api(t, `/crew/flight-options?${q}&limit=200`);
  expect(res.status).toBe(200);
  return res.body.options;
}

async function rosterFlightItem(t: Tenant, email: string) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find(
    (i: any) => i.type === 'FLIGHT',
  ) as any;
}

describe('flight options follow the airline’s supplier order', () => {
  it('DUFFEL first: Duffel’s offers (off_… ids, their expiry, supplier DUFFEL); an airline without a setting gets the sandbox’s, without supplier', async () => {
    const { t } = await airline({ order: ['DUFFEL', 'SANDBOX'] });
    const o = await options(t);
    expect(o.length).toBeGreaterThan(0);
    for (const x of o) {
      expect(x.flight_option_id).toMatch(/^off_\w+~orq_\w+$/);
      expect(x.supplier).toBe('DUFFEL');
      expect(Date.parse(x.expires_at)).toBeGreaterThan(Date.now());
    }
    const plain = await options((await airline()).t);
    expect(plain.length).toBeGreaterThan(0);
    for (const x of plain) {
      expect(x.flight_option_id).not.toMatch(/^off_/);
      expect(x).not.toHaveProperty('supplier');
    }
  });

  it('a retail supplier never offers the airline’s own flights (an airline without a setting still sees them)', async () => {
    const carriers = [...new Set((await options((await airline()).t)).map((x) => x.airline_code as string))];
    const own = carriers[0]!;
    const unset = await options((await airline({ carrier: own })).t);
    expect(unset.map((x) => x.airline_code)).toContain(own);
    const retail = await options((await airline({ carrier: own, order: ['DUFFEL', 'SANDBOX'] })).t);
    expect(retail.length).toBeGreaterThan(0);
    expect(retail.every((x) => x.supplier === 'DUFFEL')).toBe(true);
    expect(retail.map((x) => x.airline_code)).not.toContain(own);
  });

  it('Duffel refuses the search → the next supplier (SANDBOX) answers; a transient Duffel failure is a 503, never a switch', async () => {
    const { t, token } = await airline({ order: ['DUFFEL', 'SANDBOX'] });
    expect(
      (await duffelFault({ token, operation: 'offer_requests.create', outcome: 'insufficient_balance' })).status,
    ).toBe(201);
    const o = await options(t);
    expect(o.length).toBeGreaterThan(0);
    expect(o.every((x) => x.supplier === 'SANDBOX' && !x.flight_option_id.startsWith('off_'))).toBe(true);
    expect((await duffelFault({ token, operation: 'offer_requests.create', outcome: 'error' })).status).toBe(201);
    expect((await api(t, `/crew/flight-options?${ROUTE}`)).status).toBe(503);
    // Nothing armed any more: Duffel answers again.
    expect((await options(t)).every((x) => x.supplier === 'DUFFEL')).toBe(true);
  });

  it('nothing usable at Duffel (every carrier it sells is blacklisted or the airline’s own) → the sandbox’s options', async () => {
    const carriers = [...new Set((await options((await airline()).t)).map((x) => x.airline_code as string))];
    const [own, ...others] = carriers;
    const { t } = await airline({ carrier: own, order: ['DUFFEL', 'SANDBOX'] });
    expect(
      (await api(t, '/crew/config/flights', { method: 'PUT', body: { blacklisted_airlines: others } })).status,
    ).toBe(200);
    const o = await options(t);
    expect(o.length).toBeGreaterThan(0);
    expect(o.every((x) => x.supplier === 'SANDBOX' && x.airline_code === own)).toBe(true);
  });
});

describe('a committed option is booked at the supplier that issued it', () => {
  it('a Duffel option → the worker orders it at Duffel → CONFIRMED, supplier DUFFEL, live_mode false; GET status fills pnr and ticket_id from Duffel', async () => {
    const { t, email, token } = await airline({ order: ['DUFFEL', 'SANDBOX'] });
    const item = await rosterFlightItem(t, email);
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', recommended_action: 'BOOK_MANUALLY' });
    const option = (await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken })).body.options[0];
    expect(option.flight_option_id).toMatch(/^off_/);
    const commit = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
        flight: { flight_option_id: option.flight_option_id },
      },
    });
    expect(commit.status).toBe(202);
    expect(commit.body).toMatchObject({ booking_id: item.booking_id, status: 'PENDING' });
    expect(commit.body.flight.supplier).toBe('DUFFEL');
    const done = await settledBooking(stack, t.accessToken, item.booking_id, 20_000);
    expect(done.status).toBe('CONFIRMED');
    expect(done.flight).toMatchObject({
      supplier: 'DUFFEL',
      live_mode: false,
      supplier_ref: expect.stringMatching(/^ord_/),
      flight_number: option.flight_number,
    });
    expect(await duffelOrders(token)).toHaveLength(1);
    expect(await sandboxFlights(email)).toEqual([]);

    const status = await api(t, `/crew/bookings/${item.booking_id}/status`);
    expect(status.status).toBe(200);
    const [order] = await duffelOrders(token);
    expect(status.body.booking.flight).toMatchObject({
      pnr: order.booking_reference,
      ticket_id: order.documents[0].unique_identifier,
      transaction_id: order.id,
      trip_session_id: option.flight_option_id.split('~')[1],
    });
    // The person who chose the option resolved the item: it says so, with no stale recommendation.
    expect(
      (await allActionItems(stack, t.accessToken, item.schedule_id)).find((i: any) => i.type === 'FLIGHT'),
    ).toMatchObject({
      disposition: 'AUTO_BOOKED',
      review_status: 'RESOLVED',
      recommended_action: null,
      flight_options_url: null,
      action_taken: 'BOOK_FLIGHT_OPTION',
      action_taken_by: t.email,
    });
  });
});

describe('a seat the airline booked in its own system (pnr and ticket_id)', () => {
  const ownSeat = (email: string, flight: Record<string, unknown>) => ({
    type: 'FLIGHT',
    classification: 'NEW_DEADHEAD',
    anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
    flight: { from_airport: 'LHR', to_airport: 'JFK', depart_date: '2027-03-10', ...flight },
  });

  it('resolves the BOOK_IN_OWN_SYSTEM item: same booking CONFIRMED, OWN_AIRLINE, live, item AUTO_BOOKED, no supplier call', async () => {
    // The roster's deadhead is BA117: on the airline's own metal, left to its own system (no OWN_AIRLINE in the order).
    const { t, email, token } = await airline({
      carrier: 'BA',
      order: ['DUFFEL', 'SANDBOX'],
      settings: { deadhead_auto_booking: true },
    });
    await api(t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 5000, currency: 'USD' } },
    });
    const item = await rosterFlightItem(t, email);
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', recommended_action: 'BOOK_IN_OWN_SYSTEM' });
    // Subscribed now: the only booking.confirmed event can come from the commit.
    const hook = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['booking.confirmed'] },
    });
    expect(hook.status).toBe(201);

    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: ownSeat(email, { pnr: 'abc123', ticket_id: '1252100000001' }),
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ booking_id: item.booking_id, status: 'CONFIRMED', review_reason: null });
    expect(res.body.flight).toMatchObject({
      supplier: 'OWN_AIRLINE',
      live_mode: true,
      pnr: 'ABC123',
      ticket_id: '1252100000001',
    });
    // The person who recorded the seat resolved the item: it says so, with no stale recommendation.
    expect(
      (await allActionItems(stack, t.accessToken, item.schedule_id)).find((i: any) => i.type === 'FLIGHT'),
    ).toMatchObject({
      disposition: 'AUTO_BOOKED',
      review_status: 'RESOLVED',
      recommended_action: null,
      flight_options_url: null,
      action_taken: 'RECORD_PNR',
      action_taken_by: t.email,
    });

    // Nothing was asked of a supplier: no task ran, nothing was ordered anywhere, and a refresh leaves it as is.
    await new Promise((r) => setTimeout(r, 500));
    const after = (await api(t, `/crew/bookings/${item.booking_id}/status`)).body;
    expect(after.current_status).toBe('CONFIRMED');
    expect(after.booking.flight).toMatchObject({ supplier: 'OWN_AIRLINE', pnr: 'ABC123', ticket_id: '1252100000001' });
    expect(after.history.at(-1)).toMatchObject({
      status: 'CONFIRMED',
      reason: expect.stringContaining('own reservation system'),
    });
    expect(await duffelOrders(token)).toEqual([]);
    expect(await sandboxFlights(email)).toEqual([]);
    // The same event the worker's settle emits, written in the request's transaction.
    const events = await sql<{
      type: string;
      booking_id: string;
    }>`select type, data->>'booking_id' as booking_id from webhook_events where airline_id = ${t.airlineId}`.execute(
      stack.database.db,
    );
    expect(events.rows).toEqual([{ type: 'booking.confirmed', booking_id: item.booking_id }]);
  });

  it('pnr without ticket_id (or the reverse, or with a flight_option_id) is 422 naming the field', async () => {
    const { t, email } = await airline({ order: ['DUFFEL', 'SANDBOX'] });
    const field = async (flight: Record<string, unknown>) => {
      const res = await api(t, '/crew/bookings/request', { method: 'POST', body: ownSeat(email, flight) });
      expect(res.status).toBe(422);
      return res.body.error.details.map((d: { field: string }) => d.field);
    };
    expect(await field({ pnr: 'ABC123' })).toEqual(['/flight/ticket_id']);
    expect(await field({ ticket_id: '1252100000001' })).toEqual(['/flight/pnr']);
    expect(await field({ pnr: 'ABC123', ticket_id: '1252100000001', flight_option_id: 'off_x' })).toEqual([
      '/flight/flight_option_id',
    ]);
    expect((await api(t, '/crew/bookings?type=FLIGHT')).body.bookings).toEqual([]);
  });
});

/**
 * A roster layover at a Duffel Stays accommodation under contract, end to end: the airline's hotel suppliers
 * (DUFFEL, then SANDBOX), the hotel config naming an `acc_…` id its Duffel account knows (so a GDS hotel), the
 * worker booking it through Stays; and the next hotel supplier taking the stay when Duffel has no room.
 */
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

const JFK_STAY = 'acc_0000AgZitpOhSJFKcrew01';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('duffel_stays', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const duffelControl = (path: string, body: unknown) =>
  http(`${stack.sandboxUrl}/_control/duffel${path}`, { method: 'POST', body });

let n = 0;
/** An airline booking hotels through Duffel then the sandbox, its JFK hotel contracted at 189 USD a night. */
async function airline(property: string) {
  n++;
  const t = await onboard(stack, {
    name: `Stays Air ${n}`,
    carrier: `S${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const email = `crew${n}@stays.test`;
  const token = `duffel_test_stays_air_${n}_0123456789`;
  await bookingAccount(stack, t, email);
  expect(
    (
      await ops(`/airlines/${t.airlineId}/travellers/${encodeURIComponent(email)}`, {
        method: 'PUT',
        body: { phone_number: '+12125550100' },
      })
    ).status,
  ).toBe(200);
  const put = await ops(`/airlines/${t.airlineId}/suppliers`, {
    method: 'PUT',
    body: { flights: ['SANDBOX'], hotels: ['DUFFEL', 'SANDBOX'], duffel: { access_token: token } },
  });
  expect(put.status).toBe(200);
  await contractStations(stack, t, ['JFK'], {
    propertyId: () => property,
    terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
    rate: { amount: 189, currency: 'USD' },
  });
  return { t, email, token };
}

async function hotelBooking(t: Tenant, email: string) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === 'HOTEL')!;
  return (await api(t, `/crew/bookings/${item.booking_id}`)).body;
}

it('a layover at a Duffel accommodation under contract is CONFIRMED through Stays at the pay-now rate', async () => {
  const { t, email, token } = await airline(JFK_STAY);
  const config = await api(t, '/crew/config/hotels');
  expect(config.body.bases[0].hotels[0]).toMatchObject({ property_id: JFK_STAY, handler_type: 'GDS' });

  const booking = await hotelBooking(t, email);
  expect(booking).toMatchObject({ status: 'CONFIRMED', type: 'HOTEL' });
  expect(booking.hotel).toMatchObject({
    supplier: 'DUFFEL',
    live_mode: false,
    property_id: JFK_STAY,
    supplier_booking_id: expect.stringMatching(/^bok_/),
    confirmation_number: null,
    check_in_date: '2027-03-10',
    check_out_date: '2027-03-11',
    rate_flag: null,
    cancellation_timeline: [expect.objectContaining({ refund: expect.objectContaining({ currency: 'USD' }) })],
  });
  const held = (await http(`${stack.sandboxUrl}/_control/duffel/stays/bookings?token=${token}`)).body.bookings;
  expect(held).toHaveLength(1);
  expect(held[0]).toMatchObject({
    booking: { id: booking.hotel.supplier_booking_id, email, phone_number: '+12125550100' },
    rate: { payment_type: 'pay_now', base_amount: '189.00' },
  });

  // The hotel's number comes after the booking: the status refresh reads it from the airline's Stays.
  const refreshed = await api(t, `/crew/bookings/${booking.booking_id}/status`);
  expect(refreshed.status).toBe(200);
  expect(refreshed.body.booking.hotel).toMatchObject({
    supplier: 'DUFFEL',
    confirmation_number: expect.stringMatching(/^H\w{7}$/),
  });
});

it('an extension is an adjoining second Stays booking; a shortening is refused with the room kept; cancelling cancels both', async () => {
  const { t, email, token } = await airline(JFK_STAY);
  const booking = await hotelBooking(t, email);
  expect(booking.status).toBe('CONFIRMED');
  const path = `/crew/bookings/${booking.booking_id}`;
  const extended = await api(t, path, { method: 'PATCH', body: { hotel: { check_out_date: '2027-03-12' } } });
  expect(extended.body).toMatchObject({
    status: 'MODIFIED',
    hotel: { supplier: 'DUFFEL', check_in_date: '2027-03-10', check_out_date: '2027-03-12', nights: 2 },
  });
  expect(extended.body.hotel.supplier_booking_ids).toHaveLength(2);
  const stays = async () =>
    (await http(`${stack.sandboxUrl}/_control/duffel/stays/bookings?token=${token}`)).body.bookings as Array<{
      booking: { status: string; check_in_date: string };
    }>;
  expect((await stays()).map((b) => [b.booking.check_in_date, b.booking.status])).toEqual([
    ['2027-03-10', 'confirmed'],
    ['2027-03-11', 'confirmed'],
  ]);

  const shortened = await api(t, path, { method: 'PATCH', body: { hotel: { check_out_date: '2027-03-11' } } });
  expect(shortened.body).toMatchObject({
    status: 'NEEDS_REVIEW',
    review_reason: expect.stringContaining('AMEND_NOT_SUPPORTED'),
  });
  expect((await stays()).map((b) => b.booking.status)).toEqual(['confirmed', 'confirmed']);

  const cancelled = await api(t, path, { method: 'DELETE' });
  expect(cancelled.body.status).toBe('CANCELLED');
  expect((await stays()).map((b) => b.booking.status)).toEqual(['cancelled', 'cancelled']);
});

it('no room at Duffel: the next hotel supplier is asked (and books a property it knows)', async () => {
  // Duffel sold out: the sandbox is asked next; it does not know the accommodation, so its refusal is the review reason.
  const soldOut = await airline(JFK_STAY);
  expect((await duffelControl('/stays/sold-out', { token: soldOut.token, accommodation_id: JFK_STAY })).status).toBe(
    204,
  );
  const review = await hotelBooking(soldOut.t, soldOut.email);
  expect(review.status).toBe('NEEDS_REVIEW');
  expect(review.review_reason).not.toMatch(/NO_AVAILABILITY/);
  expect(
    (await http(`${stack.sandboxUrl}/_control/duffel/stays/bookings?token=${soldOut.token}`)).body.bookings,
  ).toEqual([]);

  // A sandbox property: Duffel refuses it (not an accommodation of its own), the sandbox books it.
  const gds = await airline('GDS-JFK-001');
  const booked = await hotelBooking(gds.t, gds.email);
  expect(booked.status).toBe('CONFIRMED');
  expect(booked.hotel).toMatchObject({ supplier: 'SANDBOX', live_mode: false, property_id: 'GDS-JFK-001' });
});

it("Duffel's 429 pauses that airline's Stays lane only: another airline's room is booked meanwhile", async () => {
  const a = await airline(JFK_STAY);
  const b = await airline(JFK_STAY);
  expect(
    (
      await duffelControl('/faults', {
        token: a.token,
        operation: 'stays.search',
        outcome: 'rate_limited',
        retry_after_s: 6,
      })
    ).status,
  ).toBe(201);
  const started = Date.now();
  const posted = await api(a.t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email: a.email }) });
  const itemOfA = await waitFor(
    async () =>
      (await allActionItems(stack, a.t.accessToken, posted.body.schedule_id)).find(
        (i) => i.type === 'HOTEL' && i.booking_id,
      ),
    15_000,
    "airline A's hotel item",
  );
  const other = await hotelBooking(b.t, b.email);
  expect(other).toMatchObject({ status: 'CONFIRMED', hotel: { supplier: 'DUFFEL' } });
  expect((await api(a.t, `/crew/bookings/${itemOfA.booking_id!}`)).body.status).toBe('PENDING');
  const done = await waitFor(
    async () => {
      const booking = (await api(a.t, `/crew/bookings/${itemOfA.booking_id!}`)).body;
      return booking.status !== 'PENDING' && booking;
    },
    20_000,
    "airline A's room after the pause",
  );
  expect(done).toMatchObject({ status: 'CONFIRMED', hotel: { supplier: 'DUFFEL' } });
  expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
});

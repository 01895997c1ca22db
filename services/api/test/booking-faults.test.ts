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

/** Each supplier fault of DESIGN section 5 that bookings.test.ts does not already cover, end to end. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('booking_faults', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());
afterEach(() => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' }));

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const fault = async (body: Record<string, unknown>) =>
  expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);

let n = 0;
async function airline(settings: Record<string, unknown>, contract: boolean) {
  n++;
  const t = await onboard(stack, {
    name: `Fault Air ${n}`,
    carrier: `F${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, ...settings },
  });
  const email = `crew${n}@fault.test`;
  await bookingAccount(stack, t, email);
  if (contract)
    await contractStations(stack, t, ['JFK'], {
      terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
      rate: { amount: 200, currency: 'USD' },
    });
  return { t, email };
}

async function booked(t: Tenant, email: string, type: 'HOTEL' | 'FLIGHT') {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === type)!;
  return { item, booking: (await api(t, `/crew/bookings/${item.booking_id}`)).body };
}

describe('hotel.amend', () => {
  it.each([
    ['reject', 'NEEDS_REVIEW'],
    ['error', 'FAILED'],
  ])('%s on a PATCH of the dates → %s', async (outcome, status) => {
    const { t, email } = await airline({}, true);
    const { booking } = await booked(t, email, 'HOTEL');
    expect(booking.status).toBe('CONFIRMED');
    await fault({ operation: 'hotel.amend', outcome });
    const res = await api(t, `/crew/bookings/${booking.booking_id}`, {
      method: 'PATCH',
      body: { hotel: { check_out_date: '2027-03-12' } },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ booking_id: booking.booking_id, status });
  });
});

describe('hotel.cancel', () => {
  it('error on DELETE → FAILED, with an automatic retry scheduled', async () => {
    const { t, email } = await airline({}, true);
    const { booking } = await booked(t, email, 'HOTEL');
    await fault({ operation: 'hotel.cancel', outcome: 'error' });
    const res = await api(t, `/crew/bookings/${booking.booking_id}`, { method: 'DELETE' });
    expect(res.body).toMatchObject({ status: 'FAILED', manual_override: true, next_attempt_at: expect.any(String) });
  });
});

describe('flights with deadhead auto-booking on', () => {
  const on = { deadhead_auto_booking: true };

  it('flight.search error → FAILED (transient; retry may succeed)', async () => {
    const { t, email } = await airline(on, false);
    await fault({ operation: 'flight.search', outcome: 'error', count: 3 });
    const { item, booking } = await booked(t, email, 'FLIGHT');
    expect(booking.status).toBe('FAILED');
    expect(item).toMatchObject({ disposition: 'FAILED', auto_eligible: true });
  });

  it('flight.book timeout → FAILED; the retry finds the ticket the timed-out call made (one order)', async () => {
    const { t, email } = await airline(on, false);
    await fault({ operation: 'flight.book', outcome: 'timeout' });
    const { booking } = await booked(t, email, 'FLIGHT');
    expect(booking.status).toBe('FAILED');
    await api(t, `/crew/bookings/${booking.booking_id}/retry`, { method: 'POST' });
    const now = await waitFor(
      async () => {
        const b = (await api(t, `/crew/bookings/${booking.booking_id}`)).body;
        return b.status !== 'FAILED' && b.status !== 'PENDING' && b;
      },
      10_000,
      'the retried booking to settle',
    );
    expect(now.status).toBe('CONFIRMED');
    const orders = (
      await http(`${stack.sandboxUrl}/_control/reservations?kind=flight&traveller_email=${encodeURIComponent(email)}`)
    ).body.reservations;
    expect(orders).toHaveLength(1);
  });

  it('flight.book price_change above the ceiling → NEEDS_REVIEW; a small move within it → CONFIRMED', async () => {
    const a = await airline(on, false);
    await api(a.t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 2500, currency: 'USD' } },
    });
    await fault({ operation: 'flight.book', outcome: 'price_change', price_delta: 5000 });
    expect((await booked(a.t, a.email, 'FLIGHT')).booking).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: expect.stringContaining('auto_book_max_price'),
    });

    const b = await airline(on, false);
    await api(b.t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 2500, currency: 'USD' } },
    });
    await fault({ operation: 'flight.book', outcome: 'price_change', price_delta: 1 });
    expect((await booked(b.t, b.email, 'FLIGHT')).booking.status).toBe('CONFIRMED');
  });

  it.each([
    ['reject', 'NEEDS_REVIEW'],
    ['error', 'FAILED'],
  ])('flight.cancel %s on DELETE → %s; the ticket stays live', async (outcome, status) => {
    const { t, email } = await airline(on, false);
    const { booking } = await booked(t, email, 'FLIGHT');
    expect(booking.status).toBe('CONFIRMED');
    await fault({ operation: 'flight.cancel', outcome });
    expect((await api(t, `/crew/bookings/${booking.booking_id}`, { method: 'DELETE' })).body.status).toBe(status);
    const orders = (
      await http(`${stack.sandboxUrl}/_control/reservations?kind=flight&traveller_email=${encodeURIComponent(email)}`)
    ).body.reservations;
    expect(orders.map((o: { status: string }) => o.status)).toEqual(['CONFIRMED']);
  });
});

describe('day rooms', () => {
  it('a layover that checks out the day it checks in is booked as one night', async () => {
    const { t, email } = await airline({}, true);
    const roster = onePairingRoster({ email });
    roster.pairings[0]!.duty_periods[0]!.layover = {
      station: 'JFK',
      booking_required: true,
      checkin_time_local: '2027-03-10T13:00:00-05:00',
      checkout_time_local: '2027-03-10T22:00:00-05:00',
    };
    const res = await api(t, '/crew/schedules', { method: 'POST', body: roster });
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
    const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === 'HOTEL')!;
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.hotel).toMatchObject({ check_in_date: '2027-03-10', check_out_date: '2027-03-11', nights: 1 });
  });
});

/**
 * Never paying twice across tasks: an order (a ticket, a room) whose answer was lost in one task is found and
 * dealt with by the next task on the booking, whoever starts it (a roster, a DELETE, a person in the review
 * queue), and a reservation a task cancelled shows cancelled on the booking whatever the task's end.
 */
import { contractStations, onePairingRoster, waitFor, type Tenant } from '@crew/test-support';
import { stack, useBookingsStack, api, fault, airline, reservations, roster, flightItem } from './bookings-stack';

useBookingsStack('earlier-orders');

const act = (t: Tenant, actionId: string, body: Record<string, unknown>) =>
  api(t, `/crew/action-items/${actionId}/actions`, { method: 'POST', body });
const ofKind = async (email: string, kind: 'flight' | 'hotel') =>
  (await reservations(email)).filter((r) => r.kind === kind) as {
    status: string;
    reference: string;
    flight_number?: string;
    property_id?: string;
  }[];

/** The booking once it reads `status`. */
const reaches = (t: Tenant, id: string, status: string) =>
  waitFor(
    async () => {
      const b = (await api(t, `/crew/bookings/${id}`)).body;
      return b.status === status && b;
    },
    15_000,
    () => `booking ${id} ${status}`,
  );

/** The deadhead leg moved by an hour (a DEADHEAD_TIME_CHANGE: cancel-and-rebook with booking_modification on). */
function legMoved(email: string) {
  const r = onePairingRoster({ email });
  const leg = r.pairings[0]!.duty_periods[0]!.legs[0]!;
  leg.dep_time_local = leg.expected_dep_time_local = '2027-03-10T10:00:00+00:00';
  leg.arr_time_local = leg.expected_arr_time_local = '2027-03-10T13:00:00-05:00';
  return r;
}

/** The JFK layover moved to London (a LAYOVER_CITY_CHANGE: the old room cancelled, a new one booked). */
function layoverInLondon(email: string) {
  const r = onePairingRoster({ email });
  r.pairings[0]!.duty_periods[0]!.layover = {
    station: 'LHR',
    booking_required: true,
    checkin_time_local: '2027-03-10T20:00:00+00:00',
    checkout_time_local: '2027-03-11T09:00:00+00:00',
  };
  return r;
}

async function changingAirline(settings: Record<string, unknown>) {
  const a = await airline({ contract: false, settings: { booking_modification: true, ...settings } });
  await contractStations(stack, a.t, ['JFK', 'LHR']);
  return a;
}

describe('a cancellation after a cancel-and-rebook whose new order timed out', () => {
  it('flight: cancels the ticket the rebook made, not only the one it had cancelled', async () => {
    const { t, email } = await changingAirline({ deadhead_auto_booking: true });
    const first = await roster(t, onePairingRoster({ email }));
    const id = flightItem(first.items).booking_id as string;
    expect((await reaches(t, id, 'CONFIRMED')).flight.supplier_status).toBe('CONFIRMED');

    expect((await fault({ operation: 'flight.book', outcome: 'timeout' })).status).toBe(201);
    await roster(t, legMoved(email));
    const failed = await reaches(t, id, 'FAILED');
    // The old ticket was cancelled before the rebook went out: the booking says so.
    expect(failed.flight.supplier_status).toBe('CANCELLED');
    const orders = await ofKind(email, 'flight');
    expect(orders.map((o) => o.status).sort()).toEqual(['CANCELLED', 'CONFIRMED']);

    const del = await api(t, `/crew/bookings/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    expect(del.body.status).toBe('CANCELLED');
    expect((await ofKind(email, 'flight')).map((o) => o.status)).toEqual(['CANCELLED', 'CANCELLED']);
  });

  it('hotel (city change): cancels the room the rebook made, not only the one it had cancelled', async () => {
    const { t, email } = await changingAirline({});
    const first = await roster(t, onePairingRoster({ email }));
    const id = first.items.find((i) => i.type === 'HOTEL')!.booking_id as string;
    await reaches(t, id, 'CONFIRMED');

    expect((await fault({ operation: 'hotel.book', outcome: 'timeout' })).status).toBe(201);
    await roster(t, layoverInLondon(email));
    const failed = await reaches(t, id, 'FAILED');
    expect(failed.hotel.supplier_status).toBe('CANCELLED');
    const rooms = await ofKind(email, 'hotel');
    expect(rooms.map((r) => [r.property_id, r.status])).toEqual([
      ['GDS-JFK-001', 'CANCELLED'],
      ['GDS-LHR-001', 'CONFIRMED'],
    ]);

    const del = await api(t, `/crew/bookings/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    expect(del.body.status).toBe('CANCELLED');
    expect((await ofKind(email, 'hotel')).map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED']);
  });
});

describe('a cancel-and-rebook whose new order ends in review', () => {
  it('flight: the cancelled ticket shows cancelled, and no ACCEPT_PRICE is offered on it', async () => {
    const { t, email } = await changingAirline({ deadhead_auto_booking: true });
    const first = await roster(t, onePairingRoster({ email }));
    const id = flightItem(first.items).booking_id as string;
    await reaches(t, id, 'CONFIRMED');

    expect((await fault({ operation: 'flight.book', outcome: 'reject' })).status).toBe(201);
    const moved = await roster(t, legMoved(email));
    const b = await reaches(t, id, 'NEEDS_REVIEW');
    expect(b.flight.supplier_status).toBe('CANCELLED');
    expect((await ofKind(email, 'flight')).map((o) => o.status)).toEqual(['CANCELLED']);
    const item = (await api(t, `/crew/action-items/${flightItem(moved.items).action_id}`)).body;
    expect(item.available_actions).not.toContain('ACCEPT_PRICE');
    expect(item.available_actions).toContain('BOOK_FLIGHT_OPTION');
  });
});

describe('a person books from the review queue after an order whose answer was lost', () => {
  it('flight: another option than the one the timed-out call ordered → one live ticket, on the chosen option', async () => {
    const { t, email } = await airline({ contract: false, settings: { deadhead_auto_booking: true } });
    expect((await fault({ operation: 'flight.book', outcome: 'timeout' })).status).toBe(201);
    const r = await roster(t, onePairingRoster({ email }));
    const item = flightItem(r.items);
    expect(item).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    expect(item.available_actions).toContain('BOOK_FLIGHT_OPTION');
    const [lost] = await ofKind(email, 'flight');
    expect(lost).toMatchObject({ status: 'CONFIRMED' });

    const options = await api(t, `/crew/flight-options?action_id=${item.action_id}`);
    expect(options.status).toBe(200);
    const other = (options.body.options as { flight_option_id: string; flight_number: string }[]).find(
      (o) => o.flight_number !== lost!.flight_number,
    )!;
    const res = await act(t, item.action_id, {
      action: 'BOOK_FLIGHT_OPTION',
      flight_option_id: other.flight_option_id,
    });
    expect(res.status).toBe(202);
    const b = await waitFor(
      async () => {
        const now = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
        return now.status !== 'PENDING' && now;
      },
      15_000,
      'the chosen option to settle',
    );
    expect(b).toMatchObject({ status: 'CONFIRMED', flight: { flight_number: other.flight_number } });
    const orders = await ofKind(email, 'flight');
    expect(orders.filter((o) => o.status === 'CONFIRMED').map((o) => o.flight_number)).toEqual([other.flight_number]);
  });

  it('hotel: another property than the one the timed-out call reserved → one live room, at the chosen property', async () => {
    const { t, email } = await airline({});
    expect((await fault({ operation: 'hotel.book', outcome: 'timeout' })).status).toBe(201);
    const r = await roster(t, onePairingRoster({ email }));
    const item = r.items.find((i) => i.type === 'HOTEL')!;
    expect(item).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    expect((await ofKind(email, 'hotel')).map((x) => [x.property_id, x.status])).toEqual([
      ['GDS-JFK-001', 'CONFIRMED'],
    ]);

    const res = await act(t, item.action_id, { action: 'BOOK_HOTEL', property_id: 'GDS-JFK-002' });
    expect(res.status).toBe(202);
    const b = await waitFor(
      async () => {
        const now = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
        return now.status !== 'PENDING' && now;
      },
      15_000,
      'the chosen hotel to settle',
    );
    expect(b).toMatchObject({ status: 'CONFIRMED', hotel: { property_id: 'GDS-JFK-002' } });
    const rooms = await ofKind(email, 'hotel');
    expect(rooms.filter((x) => x.status === 'CONFIRMED').map((x) => x.property_id)).toEqual(['GDS-JFK-002']);
  });

  it('hotel: the contracted hotel the timed-out call had reserved → that room is kept, nothing cancelled or booked again', async () => {
    const { t, email } = await airline({});
    expect((await fault({ operation: 'hotel.book', outcome: 'timeout' })).status).toBe(201);
    const item = (await roster(t, onePairingRoster({ email }))).items.find((i) => i.type === 'HOTEL')!;
    expect(item).toMatchObject({ disposition: 'FAILED' });
    const [lost] = await ofKind(email, 'hotel');

    expect((await act(t, item.action_id, { action: 'BOOK_HOTEL' })).status).toBe(202);
    const b = await waitFor(
      async () => {
        const now = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
        return now.status !== 'PENDING' && now;
      },
      15_000,
      'the contracted hotel to settle',
    );
    expect(b).toMatchObject({ status: 'CONFIRMED', hotel: { property_id: 'GDS-JFK-001' } });
    expect(await ofKind(email, 'hotel')).toEqual([
      expect.objectContaining({ reference: lost!.reference, status: 'CONFIRMED' }),
    ]);
  });
});

describe('a person records a PNR after an order whose answer was lost', () => {
  /** A deadhead whose ticket order timed out (FAILED), the ticket made at the sandbox all the same. */
  async function lostTicket() {
    const { t, email } = await airline({ contract: false, settings: { deadhead_auto_booking: true } });
    expect((await fault({ operation: 'flight.book', outcome: 'timeout' })).status).toBe(201);
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ disposition: 'FAILED', review_status: 'OPEN' });
    expect(item.available_actions).toContain('RECORD_PNR');
    const [lost] = await ofKind(email, 'flight');
    expect(lost).toMatchObject({ status: 'CONFIRMED' });
    return { t, email, item, lost: lost! };
  }
  const recordPnr = (t: Tenant, actionId: string) =>
    act(t, actionId, { action: 'RECORD_PNR', pnr: 'qx7h2k', ticket_id: '9990000000042' });
  const history = async (t: Tenant, id: string) =>
    (await api(t, `/crew/bookings/${id}/status`)).body.history as { status: string; reason: string | null }[];

  it('the ticket the timed-out call made is cancelled; the booking keeps the PNR and says what was cancelled', async () => {
    const { t, email, item, lost } = await lostTicket();
    const res = await recordPnr(t, item.action_id);
    expect(res.status).toBe(202);
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: 'QX7H2K', supplier: 'OWN_AIRLINE' },
    });

    await waitFor(
      async () => (await ofKind(email, 'flight')).every((o) => o.status === 'CANCELLED'),
      15_000,
      'the lost ticket to be cancelled',
    );
    const b = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(b).toMatchObject({ status: 'CONFIRMED', flight: { pnr: 'QX7H2K', ticket_id: '9990000000042' } });
    const said = await waitFor(
      async () => (await history(t, item.booking_id)).find((h) => h.reason?.includes('cancelled')),
      15_000,
      'the cancellation in the history',
    );
    expect(said).toMatchObject({ status: 'CONFIRMED' });
    expect(said.reason).toContain(lost.reference);
    expect(said.reason).toContain('SANDBOX');
    expect((await api(t, `/crew/action-items/${item.action_id}`)).body.review_status).toBe('RESOLVED');
  });

  it('a supplier that refuses to cancel that ticket puts the booking in front of a person, PNR kept', async () => {
    const { t, email, item, lost } = await lostTicket();
    expect((await fault({ operation: 'flight.cancel', outcome: 'reject' })).status).toBe(201);
    expect((await recordPnr(t, item.action_id)).status).toBe(202);

    const b = await reaches(t, item.booking_id, 'NEEDS_REVIEW');
    expect(b.flight).toMatchObject({ pnr: 'QX7H2K', ticket_id: '9990000000042' });
    expect(b.review_reason).toContain(lost.reference);
    expect(b.review_reason).toContain('cancel it there');
    expect((await ofKind(email, 'flight')).map((o) => o.status)).toEqual(['CONFIRMED']);
    const reopened = (await api(t, `/crew/action-items/${item.action_id}`)).body;
    expect(reopened).toMatchObject({ review_status: 'OPEN', disposition: 'PENDING_REVIEW' });
    expect(reopened.message).toContain(lost.reference);
    // Once the person has cancelled it at the supplier, keeping the booking as recorded settles it again.
    expect(reopened.available_actions).toContain('ACCEPT_PRICE');
    expect((await act(t, item.action_id, { action: 'ACCEPT_PRICE' })).status).toBe(202);
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body).toMatchObject({
      status: 'CONFIRMED',
      flight: { pnr: 'QX7H2K' },
    });
  });
});

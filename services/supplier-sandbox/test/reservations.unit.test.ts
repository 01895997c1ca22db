import { booker, flyer, hotelBooking, start, traveller, type TestSandbox } from './support';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await start();
});
afterAll(() => sb.close());
beforeEach(() => sb.sandbox.reset());

const reservations = async (query = '') =>
  (await sb.call('GET', `/_control/reservations${query}`)).body.reservations as any[];
const book = (body: unknown) => sb.call('POST', '/hotel-reservations', body);

describe('hotel reservations', () => {
  it('books at the public rate when no rate is given, at the negotiated rate otherwise', async () => {
    const pub = await book(hotelBooking('r-public'));
    expect(pub.status).toBe(201);
    expect(pub.body).toMatchObject({
      reference: 'r-public',
      status: 'CONFIRMED',
      property_id: 'GDS-LHR-001',
      nights: 2,
      traveller,
      booker_email: booker,
      nightly_rate: { amount: 180, currency: 'GBP' },
      total_price: { amount: 360, currency: 'GBP' },
      rate_source: 'PUBLIC',
      cancelled_at: null,
    });
    expect(pub.body.supplier_ref).toMatch(/^HR-[0-9A-F]{10}$/);
    const neg = await book(
      hotelBooking('r-negotiated', { rate: { amount: 129.5, currency: 'GBP' }, check_out_date: '2025-06-13' }),
    );
    expect(neg.body).toMatchObject({
      nightly_rate: { amount: 129.5, currency: 'GBP' },
      total_price: { amount: 388.5, currency: 'GBP' },
      rate_source: 'NEGOTIATED',
    });
  });

  it('makes one reservation for a repeated reference', async () => {
    const first = await book(hotelBooking('r-1'));
    const again = await book(hotelBooking('r-1'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await reservations();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      supplier_ref: first.body.supplier_ref,
      kind: 'hotel',
      status: 'CONFIRMED',
      reference: 'r-1',
      traveller_email: traveller.email,
      booker_email: booker,
      property_id: 'GDS-LHR-001',
      check_in_date: '2025-06-10',
      check_out_date: '2025-06-12',
      price: { amount: 360, currency: 'GBP' },
    });
  });

  it('refuses a reference reused for another stay', async () => {
    await book(hotelBooking('r-1'));
    const other = await book(hotelBooking('r-1', { property_id: 'GDS-LHR-002' }));
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('REFERENCE_REUSED');
  });

  it('refuses unknown properties, inverted dates, overlong stays and malformed bodies', async () => {
    const unknown = await book(hotelBooking('r-u', { property_id: 'GDS-XXX-001' }));
    expect([unknown.status, unknown.body.error.code]).toEqual([422, 'UNKNOWN_PROPERTY']);
    const inverted = await book(hotelBooking('r-i', { check_out_date: '2025-06-10' }));
    expect([inverted.status, inverted.body.error.code]).toEqual([422, 'VALIDATION_FAILED']);
    const long = await book(hotelBooking('r-l', { check_out_date: '2025-07-20' }));
    expect([long.status, long.body.error.code]).toEqual([409, 'NO_AVAILABILITY']);
    const noGuest = await book({ ...hotelBooking('r-g'), traveller: undefined });
    expect(noGuest.status).toBe(422);
    expect(noGuest.body.error.details).toContainEqual({ field: '/traveller', issue: 'is required' });
    const extra = await book({ ...hotelBooking('r-x'), colour: 'blue' });
    expect(extra.status).toBe(422);
    expect(await reservations()).toHaveLength(0);
  });

  it('amends dates idempotently on the amend reference', async () => {
    const { body: r } = await book(hotelBooking('r-1'));
    const amend = { reference: 'a-1', check_in_date: '2025-06-10', check_out_date: '2025-06-14' };
    const first = await sb.call('PATCH', `/hotel-reservations/${r.supplier_ref}`, amend);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      supplier_ref: r.supplier_ref,
      status: 'CONFIRMED',
      check_out_date: '2025-06-14',
      nights: 4,
      total_price: { amount: 720 },
      amendments: 1,
    });
    const again = await sb.call('PATCH', `/hotel-reservations/${r.supplier_ref}`, amend);
    expect(again.body.amendments).toBe(1);
    const reused = await sb.call('PATCH', `/hotel-reservations/${r.supplier_ref}`, {
      ...amend,
      check_out_date: '2025-06-15',
    });
    expect(reused.body.error.code).toBe('REFERENCE_REUSED');
    const rows = await reservations();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ check_out_date: '2025-06-14', amendments: 1 });
  });

  it('cancels idempotently and refuses to amend a cancelled reservation', async () => {
    const { body: r } = await book(hotelBooking('r-1'));
    sb.tick(1000);
    const first = await sb.call('POST', `/hotel-reservations/${r.supplier_ref}/cancel`, { reference: 'c-1' });
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('CANCELLED');
    sb.tick(1000);
    const again = await sb.call('POST', `/hotel-reservations/${r.supplier_ref}/cancel`, { reference: 'c-2' });
    expect(again.status).toBe(200);
    expect(again.body.cancelled_at).toBe(first.body.cancelled_at);
    const amend = await sb.call('PATCH', `/hotel-reservations/${r.supplier_ref}`, {
      reference: 'a-1',
      check_in_date: '2025-06-10',
      check_out_date: '2025-06-13',
    });
    expect([amend.status, amend.body.error.code]).toEqual([409, 'RESERVATION_CANCELLED']);
    // A repeated booking call with the original reference returns the cancelled reservation, never a new one.
    const rebook = await book(hotelBooking('r-1'));
    expect(rebook.body).toMatchObject({ supplier_ref: r.supplier_ref, status: 'CANCELLED' });
    expect(await reservations('?status=CANCELLED')).toHaveLength(1);
    expect(await reservations('?status=CONFIRMED')).toHaveLength(0);
  });

  it('reads a reservation by supplier_ref or by reference; 404 for an unknown one', async () => {
    const { body: r } = await book(hotelBooking('r-1'));
    expect((await sb.call('GET', `/hotel-reservations/${r.supplier_ref}`)).body).toEqual(r);
    expect((await sb.call('GET', '/hotel-reservations?reference=r-1')).body.reservations).toEqual([r]);
    expect((await sb.call('GET', '/hotel-reservations?reference=nope')).body.reservations).toEqual([]);
    expect((await sb.call('GET', '/hotel-reservations/HR-0000000000')).status).toBe(404);
    expect((await sb.call('POST', '/hotel-reservations/HR-0000000000/cancel', { reference: 'c' })).status).toBe(404);
  });
});

describe('flight orders', () => {
  const offer = async () =>
    (await sb.call('GET', '/flights/search?from=LHR&to=JFK&date=2025-07-01&cabin=ECONOMY')).body.offers[0];
  const order = (reference: string, flight_option_id: string, traveller: unknown = flyer) =>
    sb.call('POST', '/flight-orders', { reference, flight_option_id, traveller, booker_email: booker });

  it('tickets an offer once per reference, with PNR, ticket, transaction and trip-session ids', async () => {
    const o = await offer();
    const first = await order('f-1', o.flight_option_id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      reference: 'f-1',
      status: 'CONFIRMED',
      flight: {
        airline_code: o.airline_code,
        flight_number: o.flight_number,
        from_airport: 'LHR',
        to_airport: 'JFK',
        dep_time: o.dep_time,
        arr_time: o.arr_time,
        cabin: 'ECONOMY',
      },
      price: o.price,
      traveller: flyer,
      booker_email: booker,
    });
    expect(first.body.pnr).toMatch(/^[A-Z2-9]{6}$/);
    expect(first.body.ticket_id).toMatch(/^\d{13}$/);
    expect(first.body.transaction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.trip_session_id).toMatch(/^[0-9a-f-]{36}$/);
    // The same reference with a fresh id for the same flight is the same order, even after the offer expired.
    sb.tick(25 * 60_000);
    const again = await order('f-1', (await offer()).flight_option_id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const rows = await reservations('?kind=flight');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'flight',
      pnr: first.body.pnr,
      flight_number: o.flight_number,
      traveller_email: flyer.email,
      price: o.price,
    });
    expect((await sb.call('GET', `/flight-orders/${first.body.supplier_ref}`)).body).toEqual(first.body);
    expect((await sb.call('GET', '/flight-orders?reference=f-1')).body.orders).toEqual([first.body]);
  });

  it('requires the date of birth', async () => {
    const { date_of_birth: _dob, ...noDob } = flyer;
    const res = await order('f-2', (await offer()).flight_option_id, noDob);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual({ field: '/traveller/date_of_birth', issue: 'is required' });
  });

  it('cancels idempotently', async () => {
    const { body: o } = await order('f-1', (await offer()).flight_option_id);
    const first = await sb.call('POST', `/flight-orders/${o.supplier_ref}/cancel`, { reference: 'fc-1' });
    const again = await sb.call('POST', `/flight-orders/${o.supplier_ref}/cancel`, { reference: 'fc-1' });
    expect(first.body.status).toBe('CANCELLED');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await sb.call('GET', `/flight-orders/${o.supplier_ref}`)).body.status).toBe('CANCELLED');
  });
});

describe('control: reservations and reset', () => {
  it('lists hotels and flights oldest first, filters them, and reset forgets all', async () => {
    await book(hotelBooking('r-1'));
    const o = (await sb.call('GET', '/flights/search?from=LHR&to=JFK&date=2025-07-01')).body.offers[0];
    await sb.call('POST', '/flight-orders', {
      reference: 'f-1',
      flight_option_id: o.flight_option_id,
      traveller: flyer,
      booker_email: booker,
    });
    await book(hotelBooking('r-2', { traveller: { email: 'bo@crew.example', name: 'Bo' } }));
    expect((await reservations()).map((r) => r.reference)).toEqual(['r-1', 'f-1', 'r-2']);
    expect((await reservations('?traveller_email=BO@crew.example')).map((r) => r.reference)).toEqual(['r-2']);
    expect((await reservations('?kind=hotel')).map((r) => r.reference)).toEqual(['r-1', 'r-2']);
    expect((await sb.call('POST', '/_control/faults', { operation: 'hotel.book', outcome: 'error' })).status).toBe(201);
    const reset = await sb.call('POST', '/_control/reset');
    expect(reset.status).toBe(204);
    expect(await reservations()).toEqual([]);
    expect((await sb.call('GET', '/_control/faults')).body.faults).toEqual([]);
  });
});

import { FAULT_OPERATIONS } from '../src/index';
import { booker, flyer, hotelBooking, start, type TestSandbox } from './support';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await start({ timeoutHoldMs: 400 });
});
afterAll(() => sb.close());
beforeEach(() => sb.sandbox.reset());

const arm = (fault: Record<string, unknown>) => sb.call('POST', '/_control/faults', fault);
const armed = async () => (await sb.call('GET', '/_control/faults')).body.faults as any[];
const reservations = async () => (await sb.call('GET', '/_control/reservations')).body.reservations as any[];
const offer = async () =>
  (await sb.call('GET', '/flights/search?from=CDG&to=FRA&date=2025-07-01&cabin=ECONOMY')).body.offers[0];
const order = (reference: string, flight_option_id: string) =>
  sb.call('POST', '/flight-orders', { reference, flight_option_id, traveller: flyer, booker_email: booker });

type Response = Awaited<ReturnType<TestSandbox['call']>>;

/** Sets up what an operation needs (directly on the state, consuming no fault) and returns its HTTP call. */
function prepare(operation: (typeof FAULT_OPERATIONS)[number]): (signal?: AbortSignal) => Promise<Response> {
  const search = () => sb.sandbox.searchFlights({ from: 'CDG', to: 'FRA', date: '2025-07-01' })[0]!.flight_option_id;
  switch (operation) {
    case 'hotel.book':
      return (signal) => sb.call('POST', '/hotel-reservations', hotelBooking('op-book'), signal);
    case 'hotel.amend': {
      const ref = sb.sandbox.bookHotel(hotelBooking('op-amend-base')).reservation.supplier_ref;
      return (signal) =>
        sb.call(
          'PATCH',
          `/hotel-reservations/${ref}`,
          { reference: 'op-amend', check_in_date: '2025-06-10', check_out_date: '2025-06-13' },
          signal,
        );
    }
    case 'hotel.cancel': {
      const ref = sb.sandbox.bookHotel(hotelBooking('op-cancel-base')).reservation.supplier_ref;
      return (signal) => sb.call('POST', `/hotel-reservations/${ref}/cancel`, { reference: 'op-cancel' }, signal);
    }
    case 'flight.search':
      return (signal) => sb.call('GET', '/flights/search?from=CDG&to=FRA&date=2025-07-01', undefined, signal);
    case 'flight.book': {
      const id = search();
      return () => order('op-fbook', id);
    }
    case 'flight.cancel': {
      const ref = sb.sandbox.bookFlight({
        reference: 'op-fcancel-base',
        flight_option_id: search(),
        traveller: flyer,
        booker_email: booker,
      }).order.supplier_ref;
      return (signal) => sb.call('POST', `/flight-orders/${ref}/cancel`, { reference: 'op-fcancel' }, signal);
    }
  }
}

describe('POST /_control/faults', () => {
  it('arms a fault (201) and validates the operation/outcome combination (422)', async () => {
    const ok = await arm({ operation: 'flight.book', outcome: 'price_change', price_delta: -40, count: 3 });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      operation: 'flight.book',
      outcome: 'price_change',
      count: 3,
      remaining: 3,
      price_delta: -40,
    });
    for (const bad of [
      { operation: 'hotel.book', outcome: 'offer_expired' },
      { operation: 'flight.search', outcome: 'price_change', price_delta: 5 },
      { operation: 'hotel.amend', outcome: 'price_change', price_delta: 5 },
      { operation: 'hotel.book', outcome: 'price_change' },
      { operation: 'hotel.book', outcome: 'price_change', price_delta: 0 },
      { operation: 'hotel.book', outcome: 'error', price_delta: 5 },
      { operation: 'hotel.book', outcome: 'error', currency: 'USD' },
      { operation: 'hotel.book', outcome: 'price_change', price_delta: 5, currency: 'usd' },
      { operation: 'hotel.search', outcome: 'error' },
      { operation: 'hotel.book', outcome: 'explode' },
      { operation: 'hotel.book', outcome: 'error', count: 0 },
    ]) {
      const res = await arm(bad);
      expect([res.status, res.body.error.code, JSON.stringify(bad)]).toEqual([
        422,
        'VALIDATION_FAILED',
        JSON.stringify(bad),
      ]);
    }
    expect(await armed()).toHaveLength(1);
  });

  it('DELETE disarms every fault', async () => {
    await arm({ operation: 'hotel.book', outcome: 'error', count: 5 });
    await arm({ operation: 'flight.book', outcome: 'reject' });
    expect((await sb.call('DELETE', '/_control/faults')).status).toBe(204);
    expect(await armed()).toEqual([]);
    expect((await prepare('hotel.book')()).status).toBe(201);
  });
});

describe('fault outcomes', () => {
  it.each(FAULT_OPERATIONS)('error on %s answers 5xx, changes nothing, and is consumed', async (operation) => {
    const run = prepare(operation);
    await arm({ operation, outcome: 'error' });
    const before = await reservations();
    const res = await run();
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: { code: 'SUPPLIER_UNAVAILABLE' }, status: 503 });
    const after = await reservations();
    expect(after).toEqual(before);
    expect(await armed()).toEqual([]);
  });

  it.each(FAULT_OPERATIONS)('reject on %s answers 409 REJECTED', async (operation) => {
    await arm({ operation, outcome: 'reject' });
    const res = await prepare(operation)();
    expect([res.status, res.body.error.code]).toEqual([409, 'REJECTED']);
  });

  it('consumes one of count per matching call, oldest fault first, other operations untouched', async () => {
    await arm({ operation: 'hotel.book', outcome: 'error', count: 2 });
    await arm({ operation: 'hotel.book', outcome: 'reject' });
    expect((await prepare('flight.search')()).status).toBe(200);
    expect((await armed()).map((f) => f.remaining)).toEqual([2, 1]);
    expect((await prepare('hotel.book')()).status).toBe(503);
    expect((await armed()).map((f) => f.remaining)).toEqual([1, 1]);
    expect((await prepare('hotel.book')()).status).toBe(503);
    expect((await prepare('hotel.book')()).status).toBe(409);
    expect((await prepare('hotel.book')()).status).toBe(201);
    expect(await armed()).toEqual([]);
  });

  it('timeout does the booking but withholds the answer; the retry with the same reference gets it', async () => {
    await arm({ operation: 'hotel.book', outcome: 'timeout' });
    await expect(prepare('hotel.book')(AbortSignal.timeout(150))).rejects.toThrow();
    const rows = await reservations();
    expect(rows).toHaveLength(1);
    const retry = await prepare('hotel.book')();
    expect(retry.status).toBe(200);
    expect(retry.body.supplier_ref).toBe(rows[0].supplier_ref);
    expect(await reservations()).toHaveLength(1);
  });

  it('timeout answers late if the client is still waiting after the hold', async () => {
    await arm({ operation: 'flight.search', outcome: 'timeout' });
    const started = Date.now();
    const res = await prepare('flight.search')();
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(res.status).toBe(200);
    expect(res.body.offers.length).toBeGreaterThan(0);
  });

  it('hold does nothing until released; then the call is done and answered', async () => {
    await arm({ operation: 'hotel.book', outcome: 'hold' });
    const call = prepare('hotel.book')();
    await new Promise((r) => setTimeout(r, 100));
    expect(await reservations()).toEqual([]);
    expect((await sb.call('POST', '/_control/holds/release', { operation: 'hotel.book' })).body).toEqual({
      released: 1,
    });
    expect((await call).status).toBe(201);
    expect(await reservations()).toHaveLength(1);
    // Nothing is held any more: a second release lets nothing go.
    expect((await sb.call('POST', '/_control/holds/release', { operation: 'hotel.book' })).body).toEqual({
      released: 0,
    });
  });

  it('hold forgets a call whose client gave up: nothing is done', async () => {
    await arm({ operation: 'hotel.book', outcome: 'hold' });
    await expect(prepare('hotel.book')(AbortSignal.timeout(150))).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 50));
    expect((await sb.call('POST', '/_control/holds/release', { operation: 'hotel.book' })).body).toEqual({
      released: 0,
    });
    expect(await reservations()).toEqual([]);
  });

  it('offer_expired refuses a fresh offer with OFFER_EXPIRED', async () => {
    await arm({ operation: 'flight.book', outcome: 'offer_expired' });
    const o = await offer();
    const res = await order('f-1', o.flight_option_id);
    expect([res.status, res.body.error.code]).toEqual([409, 'OFFER_EXPIRED']);
    expect(await reservations()).toEqual([]);
    expect((await order('f-1', o.flight_option_id)).status).toBe(201);
  });

  it('price_change moves the confirmed hotel rate and flight fare by price_delta', async () => {
    await arm({ operation: 'hotel.book', outcome: 'price_change', price_delta: 25 });
    const hotel = await sb.call(
      'POST',
      '/hotel-reservations',
      hotelBooking('r-1', { rate: { amount: 150, currency: 'GBP' } }),
    );
    expect(hotel.status).toBe(201);
    expect(hotel.body).toMatchObject({ nightly_rate: { amount: 175, currency: 'GBP' }, total_price: { amount: 350 } });

    await arm({ operation: 'flight.book', outcome: 'price_change', price_delta: -20.5 });
    const o = await offer();
    const flight = await order('f-1', o.flight_option_id);
    expect(flight.body.price).toEqual({ amount: o.price.amount - 20.5, currency: 'USD' });
    expect((await reservations()).map((r) => r.price.amount)).toEqual([350, o.price.amount - 20.5]);
  });

  it('price_change with a currency answers in that currency (the moved amount, not converted)', async () => {
    const armedFault = await arm({
      operation: 'hotel.book',
      outcome: 'price_change',
      price_delta: 18,
      currency: 'USD',
    });
    expect(armedFault.body).toMatchObject({ price_delta: 18, currency: 'USD' });
    const hotel = await sb.call(
      'POST',
      '/hotel-reservations',
      hotelBooking('r-cur', { rate: { amount: 180, currency: 'EUR' } }),
    );
    expect(hotel.body).toMatchObject({
      nightly_rate: { amount: 198, currency: 'USD' },
      total_price: { amount: 396, currency: 'USD' },
    });
    await arm({ operation: 'flight.book', outcome: 'price_change', price_delta: 1, currency: 'EUR' });
    const o = await offer();
    expect((await order('f-cur', o.flight_option_id)).body.price).toEqual({
      amount: o.price.amount + 1,
      currency: 'EUR',
    });
  });
});

import { createServer } from 'node:net';
import { startSandbox, type RunningSandbox } from '@crew/supplier-sandbox';
import {
  checkDuffelToken,
  createDuffelClient,
  DuffelFlightSupplier,
  toSupplierError,
  type FlightOffer,
  type SupplierError,
} from '../src/index';
import { failure as rejectsWith } from './failure';

const TOKEN = 'duffel_test_SimSecret0123456789abcdef';
const traveller = {
  email: 'ana.silva@crew.example',
  first_name: 'Ana',
  last_name: 'Silva',
  date_of_birth: '1988-04-12',
  title: 'ms' as const,
  gender: 'f' as const,
  phone_number: '+442080160509',
};
const booker = 'crew-booking@airline.example';
const route = { from_airport: 'LHR', to_airport: 'JFK', date: '2025-07-01' };

let sb: RunningSandbox;
let flights: DuffelFlightSupplier;
/** Every SupplierError the tests saw: none may carry the token. */
const seen: SupplierError[] = [];

async function failure(promise: Promise<unknown>): Promise<SupplierError> {
  const err = await rejectsWith(promise);
  seen.push(err);
  return err;
}

const arm = (operation: string, outcome: string, extra: Record<string, unknown> = {}) =>
  sb.duffel.armFault(TOKEN, { operation, outcome, ...extra } as Parameters<typeof sb.duffel.armFault>[1]);

const search = (cabin: 'ECONOMY' | 'BUSINESS' = 'BUSINESS', r = route) => flights.searchFlights({ ...r, cabin });
const book = (offer: FlightOffer, reference = 'bk-1') =>
  flights.bookFlight({ reference, flight_option_id: offer.flight_option_id, traveller, booker_email: booker });
const offerIdOf = (offer: FlightOffer) => offer.flight_option_id.split('~')[0]!;

beforeAll(async () => {
  sb = await startSandbox({ timeoutHoldMs: 5000 });
  const duffel = createDuffelClient({ token: TOKEN, basePath: `${sb.baseUrl}/duffel` });
  flights = new DuffelFlightSupplier(duffel, {
    liveMode: false,
    // Below the simulated hang (5 s) and far above an answer on a loaded 2-core CI machine.
    timeoutMs: 2000,
    now: () => new Date(sb.sandbox.now()),
  });
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.sandbox.reset();
  sb.duffel.reset();
});

describe('search, order, refresh, cancel', () => {
  it('books a nonstop offer at its total, fills the ticket once documents appear, cancels with the refund', async () => {
    const offers = await search();
    expect(offers.length).toBeGreaterThan(3);
    const offer = offers[0]!;
    expect(offer).toMatchObject({
      supplier: 'DUFFEL',
      from_airport: 'LHR',
      to_airport: 'JFK',
      cabin: 'BUSINESS',
      refundable: true,
      changeable: true,
      price: { currency: 'GBP' },
    });
    expect(offer.flight_number).toMatch(new RegExp(`^${offer.airline_code}\\d+$`));
    expect(offer.flight_option_id).toMatch(/^off_\w+~orq_\w+$/);
    // Our 20 minutes, not Duffel's 30.
    const raw = sb.duffel.getOffer(TOKEN, offerIdOf(offer));
    expect(Date.parse(offer.expires_at)).toBe(Date.parse(raw.created_at) + 20 * 60000);
    expect(await flights.getOffer(offer.flight_option_id)).toEqual(offer);
    expect(await flights.getOffer('off_0000unknown')).toBeNull();

    const order = await book(offer);
    expect(order).toMatchObject({
      status: 'CONFIRMED',
      reference: 'bk-1',
      supplier: 'DUFFEL',
      live_mode: false,
      price: offer.price,
      booker_email: booker,
      ticket_id: '',
    });
    expect(order.pnr).toMatch(/^[A-Z0-9]{6}$/);
    expect(order.transaction_id).toBe(order.supplier_ref);
    expect(order.trip_session_id).toBe(offer.flight_option_id.split('~')[1]);
    expect(order.flight).toMatchObject({
      flight_number: offer.flight_number,
      dep_time: offer.dep_time,
      arr_time: offer.arr_time,
    });
    expect(sb.duffel.orders(TOKEN)[0]!.metadata).toMatchObject({ crew_reference: 'bk-1' });

    const live = await flights.getOrder(order.supplier_ref);
    expect(live).toMatchObject({ pnr: order.pnr, status: 'CONFIRMED', trip_session_id: order.trip_session_id });
    expect(live!.ticket_id).toMatch(/^\d{13}$/);
    expect(await flights.getOrder('ord_0000unknown')).toBeNull();

    const cancelled = await flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'c-1' });
    expect(cancelled).toMatchObject({ status: 'CANCELLED', refund: { amount: offer.price, destination: 'BALANCE' } });
    expect(cancelled.cancelled_at).not.toBeNull();
    expect((await flights.getOrder(order.supplier_ref))!.refund).toEqual(cancelled.refund);
  });

  it('orders an offer of its own recent search without reading it again; any other option is read first', async () => {
    const [offer] = await search();
    await book(offer!);
    expect(sb.duffel.callCounts(TOKEN)).toEqual({ 'offer_requests.create': 1, 'orders.create': 1 });
    // Another adapter (another process, or an option committed from an earlier search) did not search it.
    const [other] = await search();
    const elsewhere = new DuffelFlightSupplier(createDuffelClient({ token: TOKEN, basePath: `${sb.baseUrl}/duffel` }), {
      liveMode: false,
      timeoutMs: 2000,
      now: () => new Date(sb.sandbox.now()),
    });
    await elsewhere.bookFlight({
      reference: 'bk-2',
      flight_option_id: other!.flight_option_id,
      traveller,
      booker_email: booker,
    });
    expect(sb.duffel.callCounts(TOKEN)).toEqual({ 'offer_requests.create': 2, 'orders.create': 2, 'offers.get': 1 });
  });

  it('reads the offer again once our search is older than the adapter keeps it', async () => {
    const [offer] = await search();
    sb.sandbox.advanceClock(61_000);
    await book(offer!);
    expect(sb.duffel.callCounts(TOKEN)).toEqual({ 'offer_requests.create': 1, 'offers.get': 1, 'orders.create': 1 });
  });

  it('returns only nonstop offers although the route has connections', async () => {
    const all = sb.duffel.createOfferRequest(TOKEN, {
      slices: [
        { origin: 'LHR', destination: 'JFK', departure_date: route.date, departure_time: null, arrival_time: null },
      ],
      passengers: [{ type: 'adult' }],
      cabin_class: 'business',
      max_connections: 1,
    });
    const nonstop = all.offers.filter((o) => o.slices[0]!.segments.length === 1);
    expect(nonstop.length).toBeLessThan(all.offers.length);
    const offers = await search();
    expect(offers).toHaveLength(nonstop.length);
    expect(offers.every((o) => o.from_airport === 'LHR' && o.to_airport === 'JFK')).toBe(true);
  });

  it('names the operating carrier of a codeshare and refunds a non-refundable fare as airline credits', async () => {
    const offers = await search('ECONOMY');
    const codeshare = offers.find((o) => o.operating_airline_code !== undefined);
    expect(codeshare?.operating_airline_code).not.toBe(codeshare?.airline_code);
    const economy = offers[0]!;
    expect(economy.refundable).toBe(false);
    const order = await book(economy);
    const cancelled = await flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'c-1' });
    expect(cancelled.refund).toMatchObject({ destination: 'AIRLINE_CREDITS', amount: { currency: 'GBP' } });
  });
});

describe('local times and zones', () => {
  it('turns Duffel local times plus airport zones into offset timestamps, DST included', async () => {
    // 15 March: New York is on summer time (from 9 March), London not yet (30 March).
    for (const [date, depOffset, arrOffset] of [
      ['2025-03-15', '+00:00', '-04:00'],
      ['2025-07-01', '+01:00', '-04:00'],
      ['2025-12-01', '+00:00', '-05:00'],
    ] as const) {
      const [offer] = await search('BUSINESS', { ...route, date });
      const raw = sb.duffel.getOffer(TOKEN, offerIdOf(offer!)).slices[0]!.segments[0]!;
      expect(offer!.dep_time).toBe(`${raw.departing_at}${depOffset}`);
      expect(offer!.arr_time).toBe(`${raw.arriving_at}${arrOffset}`);
      expect((Date.parse(offer!.arr_time) - Date.parse(offer!.dep_time)) / 60000).toBe(offer!.duration_minutes);
    }
  });
});

describe('outcome unknown and finding the order', () => {
  it('an order created and then timed out is found by reference, and only one order exists', async () => {
    const [offer] = await search();
    arm('orders.create', 'timeout');
    const err = await failure(book(offer!, 'bk-timeout'));
    expect([err.kind, err.code, err.outcomeUnknown]).toEqual(['transient', 'SUPPLIER_TIMEOUT', true]);
    expect(sb.duffel.orders(TOKEN)).toHaveLength(1);
    const found = await flights.findOrder('bk-timeout', { traveller, date: route.date });
    expect(found).toMatchObject({
      reference: 'bk-timeout',
      supplier_ref: sb.duffel.orders(TOKEN)[0]!.id,
      status: 'CONFIRMED',
    });
    expect(await flights.findOrder('bk-timeout')).toMatchObject({ supplier_ref: found!.supplier_ref });
    expect(await flights.findOrder('bk-other', { traveller })).toBeNull();
    expect(await flights.findOrder('bk-timeout', { traveller: { ...traveller, last_name: 'Other' } })).toBeNull();
    expect(sb.duffel.orders(TOKEN)).toHaveLength(1);
  });

  it('a 5xx on order creation is outcome-unknown; a 5xx on a read is not', async () => {
    const [offer] = await search();
    arm('orders.create', 'error', { after_effect: true });
    const err = await failure(book(offer!));
    expect([err.kind, err.code, err.status, err.outcomeUnknown]).toEqual(['transient', 'SUPPLIER_ERROR', 500, true]);
    arm('offers.get', 'error');
    const read = await failure(flights.getOffer(offer!.flight_option_id));
    expect([read.kind, read.outcomeUnknown]).toEqual(['transient', false]);
  });

  it('finds one order among several of the same traveller', async () => {
    const offers = await search();
    for (let i = 0; i < 5; i++) await book(offers[i % offers.length]!, `bk-${i}`);
    const pagedFlights = new DuffelFlightSupplier(
      createDuffelClient({ token: TOKEN, basePath: `${sb.baseUrl}/duffel/` }),
      { liveMode: false, timeoutMs: 2000 },
    );
    expect(await pagedFlights.findOrder('bk-4', { traveller })).toMatchObject({ reference: 'bk-4' });
  });
});

describe('faults', () => {
  it('429 → transient with the pause from ratelimit-reset', async () => {
    arm('offer_requests.create', 'rate_limited', { retry_after_s: 4 });
    const err = await failure(search());
    expect([err.kind, err.status]).toEqual(['transient', 429]);
    expect(err.retryAfterMs).toBeGreaterThanOrEqual(2000);
    expect(err.retryAfterMs).toBeLessThanOrEqual(4000);
  });

  it('offer gone while our 20 minutes run → the same flight is searched again and booked', async () => {
    const [offer] = await search();
    sb.sandbox.advanceClock(10 * 60000);
    arm('orders.create', 'offer_gone');
    const order = await book(offer!);
    expect(order.flight).toMatchObject({
      flight_number: offer!.flight_number,
      dep_time: offer!.dep_time,
      cabin: offer!.cabin,
    });
    expect(order.trip_session_id).not.toBe(offer!.flight_option_id.split('~')[1]);
    expect(sb.duffel.orders(TOKEN)).toHaveLength(1);
  });

  it('offer gone after our 20 minutes → OFFER_EXPIRED, nothing booked', async () => {
    const [offer] = await search();
    sb.sandbox.advanceClock(21 * 60000);
    arm('orders.create', 'offer_gone');
    const err = await failure(book(offer!));
    expect([err.kind, err.code]).toEqual(['refusal', 'OFFER_EXPIRED']);
    sb.sandbox.advanceClock(10 * 60000);
    const expired = await failure(book(offer!));
    expect([expired.kind, expired.code]).toEqual(['refusal', 'OFFER_EXPIRED']);
    expect(sb.duffel.orders(TOKEN)).toHaveLength(0);
  });

  it('price moved since our search → Duffel refuses the old total; the offer is read again and booked at the new one', async () => {
    const [offer] = await search();
    arm('orders.create', 'price_moved', { price_delta: 25 });
    const order = await book(offer!);
    expect(order.price).toEqual({
      amount: Math.round((offer!.price.amount + 25) * 100) / 100,
      currency: offer!.price.currency,
    });
    expect(sb.duffel.orders(TOKEN)).toHaveLength(1);
    expect(sb.duffel.callCounts(TOKEN)).toMatchObject({ 'orders.create': 2, 'offers.get': 1 });
  });

  it('price moved since our search under STRICT → PRICE_CHANGED, nothing booked', async () => {
    const [offer] = await search();
    arm('orders.create', 'price_moved', { price_delta: 25 });
    const err = await failure(
      flights.bookFlight({
        reference: 'bk-strict',
        flight_option_id: offer!.flight_option_id,
        traveller,
        booker_email: booker,
        expected_price: offer!.price,
        price_mismatch: 'STRICT',
      }),
    );
    expect([err.kind, err.code]).toEqual(['refusal', 'PRICE_CHANGED']);
    expect(sb.duffel.orders(TOKEN)).toHaveLength(0);
  });

  it('price moved above the fare ceiling under LOOSE → FARE_ABOVE_CEILING, nothing booked', async () => {
    const [offer] = await search();
    arm('orders.create', 'price_moved', { price_delta: 25 });
    const asked: unknown[] = [];
    const err = await failure(
      flights.bookFlight({
        reference: 'bk-ceiling',
        flight_option_id: offer!.flight_option_id,
        traveller,
        booker_email: booker,
        expected_price: offer!.price,
        price_mismatch: 'LOOSE',
        fare_ceiling: (fare) => {
          asked.push(fare);
          return fare.amount > offer!.price.amount ? 'above the ceiling' : null;
        },
      }),
    );
    expect([err.kind, err.code, err.message]).toEqual([
      'refusal',
      'FARE_ABOVE_CEILING',
      'above the ceiling; nothing was bought',
    ]);
    // The searched fare was within it (Duffel refused that payment); the moved one is not ordered.
    expect(asked).toEqual([
      offer!.price,
      { amount: Math.round((offer!.price.amount + 25) * 100) / 100, currency: offer!.price.currency },
    ]);
    expect(sb.duffel.orders(TOKEN)).toHaveLength(0);
    expect(sb.duffel.callCounts(TOKEN)).toMatchObject({ 'orders.create': 1, 'offers.get': 1 });
  });

  it('cancel refused → refusal CANCEL_REFUSED and the order stays confirmed; a second cancel is absorbed', async () => {
    const [offer] = await search();
    const order = await book(offer!);
    arm('order_cancellations.create', 'cancel_refused');
    const err = await failure(flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'c-1' }));
    expect([err.kind, err.code]).toEqual(['refusal', 'CANCEL_REFUSED']);
    expect((await flights.getOrder(order.supplier_ref))!.status).toBe('CONFIRMED');
    const first = await flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'c-2' });
    const again = await flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'c-3' });
    expect(again).toMatchObject({ status: 'CANCELLED', cancelled_at: first.cancelled_at, refund: first.refund });
    const missing = await failure(flights.cancelFlight({ supplier_ref: 'ord_0000unknown', reference: 'c-4' }));
    expect([missing.kind, missing.code]).toEqual(['refusal', 'NOT_FOUND']);
  });

  it('insufficient balance → refusal INSUFFICIENT_BALANCE', async () => {
    const [offer] = await search();
    arm('orders.create', 'insufficient_balance');
    const err = await failure(book(offer!));
    expect([err.kind, err.code, err.status]).toEqual(['refusal', 'INSUFFICIENT_BALANCE', 422]);
  });

  it('prices in the account currency', async () => {
    sb.duffel.setCurrency(TOKEN, 'USD');
    const [offer] = await search();
    expect(offer!.price.currency).toBe('USD');
  });
});

describe('tokens', () => {
  it('checks a token: live mode from its prefix, a refused token is a refusal', async () => {
    const base = `${sb.baseUrl}/duffel/`;
    expect(await checkDuffelToken(base, TOKEN)).toEqual({ live_mode: false });
    expect(await checkDuffelToken(base, 'duffel_live_Another0123')).toEqual({ live_mode: true });
    sb.duffel.refuseToken('duffel_live_Refused0123');
    const refused = await failure(checkDuffelToken(base, 'duffel_live_Refused0123'));
    expect([refused.kind, refused.status]).toEqual(['refusal', 401]);
    expect(refused.message).not.toContain('duffel_live_Refused0123');
  });

  it('an unreachable Duffel is transient', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const err = await failure(checkDuffelToken(`http://127.0.0.1:${port}/duffel/`, TOKEN));
    expect([err.kind, err.code]).toEqual(['transient', 'SUPPLIER_UNREACHABLE']);
  });

  it('never puts the token in an error message', () => {
    // A failure whose own text carries a token (a misconfigured URL, say) is redacted too.
    seen.push(toSupplierError('flight.search', new Error(`request to http://x/?t=${TOKEN} failed`)));
    expect(seen.length).toBeGreaterThan(10);
    for (const err of seen) {
      expect(err.message).not.toContain(TOKEN);
      expect(JSON.stringify(err.details)).not.toContain(TOKEN);
    }
  });
});

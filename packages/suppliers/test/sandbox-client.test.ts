import { spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { startSandbox, type RunningSandbox } from '@crew/supplier-sandbox';
import { waitFor } from '@crew/test-support';
import { createSandboxSuppliers, type Suppliers } from '../src/index';
import { failure } from './failure';

const RESPONSE_TIMEOUT_MS = 300;
const traveller = { email: 'ana.silva@crew.example', name: 'Ana Silva' };
const flyer = { email: 'ana.silva@crew.example', first_name: 'Ana', last_name: 'Silva', date_of_birth: '1988-04-12' };
const booker = 'crew-booking@airline.example';
const stay = (reference: string) => ({
  reference,
  property_id: 'GDS-AMS-001',
  check_in_date: '2025-06-10',
  check_out_date: '2025-06-12',
  traveller,
  booker_email: booker,
});

/**
 * A host that never accepts: a child process listens with a backlog of 1 and then blocks its event loop; once the
 * fillers fill the accept queue the kernel drops further SYNs, like an unreachable host. Kill the child when done.
 */
async function neverAcceptingHost() {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{console.log(s.address().port);for(;;){}})",
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = Number(
    await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))),
  );
  const fillers = [1, 2, 3].map(() => connect(port, '127.0.0.1').on('error', () => undefined));
  // Two handshakes complete (queue length 2 > backlog 1 is full); the third filler is left hanging.
  await new Promise<void>((resolve) => {
    let connected = 0;
    for (const f of fillers) f.once('connect', () => ++connected === 2 && resolve());
  });
  return { child, port, fillers };
}

/** Suppliers at the host that never accepts: a 200 ms connect timeout, well before the 5 s response timeout. */
const stuckSuppliers = (port: number) =>
  createSandboxSuppliers({
    baseUrl: `http://127.0.0.1:${port}`,
    connectTimeoutMs: 200,
    responseTimeoutMs: 5000,
    retries: 0,
  });

let sb: RunningSandbox;
let suppliers: Suppliers;

beforeAll(async () => {
  sb = await startSandbox({ timeoutHoldMs: 5000 });
  suppliers = createSandboxSuppliers({
    baseUrl: sb.baseUrl,
    responseTimeoutMs: RESPONSE_TIMEOUT_MS,
    retries: 2,
    retryBackoffMs: 10,
  });
});
afterAll(() => sb.close());
beforeEach(() => sb.sandbox.reset());

const arm = (operation: string, outcome: string, extra: Record<string, unknown> = {}) =>
  sb.sandbox.faults.arm({ operation, outcome, ...extra } as Parameters<typeof sb.sandbox.faults.arm>[0]);

const firstOffer = async () =>
  (
    await suppliers.flights.searchFlights({
      from_airport: 'AMS',
      to_airport: 'MAD',
      date: '2025-07-01',
      cabin: 'ECONOMY',
    })
  )[0]!;

describe('hotels through the client', () => {
  it('searches, reads properties (null when unknown), books, amends, cancels and reads reservations', async () => {
    const page = await suppliers.hotels.searchHotels({ airport_code: 'AMS' });
    expect(page.hotels.length).toBeGreaterThanOrEqual(3);
    expect(page.next_after).toBeNull();
    expect(await suppliers.hotels.getProperty('GDS-AMS-001')).toMatchObject({
      property_id: 'GDS-AMS-001',
      airport_code: 'AMS',
    });
    expect(await suppliers.hotels.getProperty('MY-OWN-HOTEL')).toBeNull();

    const booked = await suppliers.hotels.bookHotel({ ...stay('r-1'), rate: { amount: 99, currency: 'EUR' } });
    expect(booked).toMatchObject({
      status: 'CONFIRMED',
      nightly_rate: { amount: 99, currency: 'EUR' },
      rate_source: 'NEGOTIATED',
    });
    expect(await suppliers.hotels.bookHotel({ ...stay('r-1'), rate: { amount: 99, currency: 'EUR' } })).toEqual(booked);

    const amended = await suppliers.hotels.amendHotel({
      supplier_ref: booked.supplier_ref,
      reference: 'a-1',
      check_in_date: '2025-06-10',
      check_out_date: '2025-06-13',
    });
    expect(amended).toMatchObject({ nights: 3, amendments: 1 });
    const cancelled = await suppliers.hotels.cancelHotel({ supplier_ref: booked.supplier_ref, reference: 'c-1' });
    expect(cancelled.status).toBe('CANCELLED');
    expect(await suppliers.hotels.cancelHotel({ supplier_ref: booked.supplier_ref, reference: 'c-1' })).toEqual(
      cancelled,
    );
    expect(await suppliers.hotels.getReservation(booked.supplier_ref)).toEqual(cancelled);
    expect(await suppliers.hotels.findReservation('r-1')).toEqual(cancelled);
    expect(await suppliers.hotels.getReservation('HR-0000000000')).toBeNull();
    expect(await suppliers.hotels.findReservation('nope')).toBeNull();
  });

  it('maps refusals of bad requests to refusal with the supplier code', async () => {
    const unknown = await failure(suppliers.hotels.bookHotel({ ...stay('r-2'), property_id: 'GDS-XXX-009' }));
    expect([unknown.kind, unknown.code, unknown.status, unknown.operation]).toEqual([
      'refusal',
      'UNKNOWN_PROPERTY',
      422,
      'hotel.book',
    ]);
    const search = await failure(suppliers.hotels.searchHotels({}));
    expect([search.kind, search.code]).toEqual(['refusal', 'INVALID_REQUEST']);
    const missing = await failure(suppliers.hotels.cancelHotel({ supplier_ref: 'HR-0000000000', reference: 'c' }));
    expect([missing.kind, missing.code]).toEqual(['refusal', 'NOT_FOUND']);
  });
});

describe('flights through the client', () => {
  it('searches, books, reads the live order, cancels', async () => {
    const offer = await firstOffer();
    expect(offer).toMatchObject({ from_airport: 'AMS', to_airport: 'MAD', cabin: 'ECONOMY' });
    const order = await suppliers.flights.bookFlight({
      reference: 'f-1',
      flight_option_id: offer.flight_option_id,
      traveller: flyer,
      booker_email: booker,
    });
    expect(order).toMatchObject({
      status: 'CONFIRMED',
      price: offer.price,
      flight: { flight_number: offer.flight_number },
    });
    const live = await suppliers.flights.getOrder(order.supplier_ref);
    expect(live).toMatchObject({
      pnr: order.pnr,
      ticket_id: order.ticket_id,
      transaction_id: order.transaction_id,
      trip_session_id: order.trip_session_id,
    });
    expect(await suppliers.flights.findOrder('f-1')).toEqual(order);
    expect((await suppliers.flights.cancelFlight({ supplier_ref: order.supplier_ref, reference: 'fc-1' })).status).toBe(
      'CANCELLED',
    );
    expect(await suppliers.flights.getOrder('FO-0000000000')).toBeNull();
  });
});

describe('fault outcomes map to the right kind', () => {
  it('error → transient', async () => {
    arm('hotel.book', 'error');
    const err = await failure(suppliers.hotels.bookHotel(stay('r-1')));
    expect([err.kind, err.code, err.status]).toEqual(['transient', 'SUPPLIER_UNAVAILABLE', 503]);
    expect(err.transient).toBe(true);
  });

  it('timeout → transient within the response timeout, and the idempotent retry finds the booking', async () => {
    arm('hotel.book', 'timeout');
    const started = Date.now();
    const err = await failure(suppliers.hotels.bookHotel(stay('r-1')));
    const elapsed = Date.now() - started;
    expect([err.kind, err.code]).toEqual(['transient', 'SUPPLIER_TIMEOUT']);
    expect(elapsed).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS - 20);
    expect(elapsed).toBeLessThan(RESPONSE_TIMEOUT_MS + 700);
    const retried = await suppliers.hotels.bookHotel(stay('r-1'));
    expect(sb.sandbox.listReservations()).toHaveLength(1);
    expect(retried.supplier_ref).toBe(sb.sandbox.listReservations()[0]!.supplier_ref);
  });

  it('reject → refusal (hotel amend)', async () => {
    const booked = await suppliers.hotels.bookHotel(stay('r-1'));
    arm('hotel.amend', 'reject');
    const err = await failure(
      suppliers.hotels.amendHotel({
        supplier_ref: booked.supplier_ref,
        reference: 'a-1',
        check_in_date: '2025-06-11',
        check_out_date: '2025-06-12',
      }),
    );
    expect([err.kind, err.code, err.status]).toEqual(['refusal', 'REJECTED', 409]);
  });

  it('offer_expired → refusal, as is a really expired offer', async () => {
    const offer = await firstOffer();
    arm('flight.book', 'offer_expired');
    const faulted = await failure(
      suppliers.flights.bookFlight({
        reference: 'f-1',
        flight_option_id: offer.flight_option_id,
        traveller: flyer,
        booker_email: booker,
      }),
    );
    expect([faulted.kind, faulted.code]).toEqual(['refusal', 'OFFER_EXPIRED']);
    sb.sandbox.advanceClock(20 * 60_000);
    const aged = await failure(
      suppliers.flights.bookFlight({
        reference: 'f-1',
        flight_option_id: offer.flight_option_id,
        traveller: flyer,
        booker_email: booker,
      }),
    );
    expect([aged.kind, aged.code]).toEqual(['refusal', 'OFFER_EXPIRED']);
  });

  it('price_change → success with the moved price', async () => {
    arm('hotel.book', 'price_change', { price_delta: 12 });
    const hotel = await suppliers.hotels.bookHotel({ ...stay('r-1'), rate: { amount: 100, currency: 'EUR' } });
    expect(hotel.nightly_rate).toEqual({ amount: 112, currency: 'EUR' });
    const offer = await firstOffer();
    arm('flight.book', 'price_change', { price_delta: 30 });
    const order = await suppliers.flights.bookFlight({
      reference: 'f-1',
      flight_option_id: offer.flight_option_id,
      traveller: flyer,
      booker_email: booker,
    });
    expect(order.price).toEqual({ amount: offer.price.amount + 30, currency: 'USD' });
  });
});

describe('retries and connection failures', () => {
  it('retries a GET after transient failures', async () => {
    arm('flight.search', 'error', { count: 2 });
    const offers = await suppliers.flights.searchFlights({
      from_airport: 'AMS',
      to_airport: 'MAD',
      date: '2025-07-01',
    });
    expect(offers.length).toBeGreaterThan(0);
    expect(sb.sandbox.faults.list()).toEqual([]);
  });

  it('gives up on a GET after the configured retries', async () => {
    arm('flight.search', 'error', { count: 5 });
    const err = await failure(
      suppliers.flights.searchFlights({ from_airport: 'AMS', to_airport: 'MAD', date: '2025-07-01' }),
    );
    expect(err.kind).toBe('transient');
    expect(sb.sandbox.faults.list()[0]!.remaining).toBe(2);
  });

  it('never retries a POST', async () => {
    arm('hotel.book', 'error', { count: 2 });
    const err = await failure(suppliers.hotels.bookHotel(stay('r-1')));
    expect(err.kind).toBe('transient');
    expect(sb.sandbox.faults.list()[0]!.remaining).toBe(1);
    expect(sb.sandbox.listReservations()).toEqual([]);
  });

  it('does not retry a refusal', async () => {
    arm('flight.search', 'reject', { count: 2 });
    const err = await failure(
      suppliers.flights.searchFlights({ from_airport: 'AMS', to_airport: 'MAD', date: '2025-07-01' }),
    );
    expect([err.kind, err.code]).toEqual(['refusal', 'REJECTED']);
    expect(sb.sandbox.faults.list()[0]!.remaining).toBe(1);
  });

  it('maps a closed port to transient SUPPLIER_UNREACHABLE', async () => {
    const probe = createServer();
    const port = await new Promise<number>((resolve) =>
      probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)),
    );
    await new Promise((resolve) => probe.close(resolve));
    const dead = createSandboxSuppliers({
      baseUrl: `http://127.0.0.1:${port}`,
      retries: 1,
      retryBackoffMs: 10,
      connectTimeoutMs: 200,
    });
    const read = await failure(dead.hotels.getProperty('GDS-AMS-001'));
    expect([read.kind, read.code]).toEqual(['transient', 'SUPPLIER_UNREACHABLE']);
    const write = await failure(dead.hotels.bookHotel(stay('r-1')));
    expect([write.kind, write.code]).toEqual(['transient', 'SUPPLIER_UNREACHABLE']);
  });

  it('fails at the connect timeout, well before the response timeout, when the host never accepts the connection', async () => {
    const { child, port, fillers } = await neverAcceptingHost();
    try {
      const stuck = stuckSuppliers(port);
      const started = Date.now();
      const err = await failure(stuck.hotels.bookHotel(stay('r-1')));
      const elapsed = Date.now() - started;
      fillers.forEach((f) => f.destroy());
      expect([err.kind, err.code]).toEqual(['transient', 'SUPPLIER_UNREACHABLE']);
      expect(elapsed).toBeLessThan(2000);
    } finally {
      child.kill('SIGKILL');
      // A connection attempt still in flight (Node names it ConnectWrap) would outlive the test: wait for none.
      await waitFor(
        () => !process.getActiveResourcesInfo().includes('ConnectWrap'),
        10_000,
        'no connection attempt in flight',
      );
    }
  });

  it('a call to a host that never accepts leaves no connection attempt behind once it has failed', async () => {
    const { child, port, fillers } = await neverAcceptingHost();
    try {
      const stuck = stuckSuppliers(port);
      const err = await failure(stuck.hotels.bookHotel(stay('r-2')));
      expect(err.code).toBe('SUPPLIER_UNREACHABLE');
      fillers.forEach((f) => f.destroy());
      // ConnectWrap: a TCP connect in flight. A destroyed socket's ends within milliseconds; one the call left to
      // the host that never accepts would keep a stopping process (a jest worker among them) alive for minutes.
      const inFlight = () => process.getActiveResourcesInfo().filter((r) => r === 'ConnectWrap');
      for (const started = Date.now(); inFlight().length > 0 && Date.now() - started < 1000;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(inFlight()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

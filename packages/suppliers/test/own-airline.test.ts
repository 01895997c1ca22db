import { createServer, type Server } from 'node:http';
import { inspect } from 'node:util';
import { randomBytes } from 'node:crypto';
import {
  startOwnAirlineReceiver,
  standardWebhookSignature,
  waitFor,
  type OwnAirlineReceiver,
} from '@crew/test-support';
import {
  crewSeatWebhookId,
  isOutcomeUnknown,
  OwnAirlineCallbackError,
  OwnAirlineClient,
  type CrewSeatRequest,
} from '../src/index';
import { failure } from './failure';

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const OTHER_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
/** Generous, so a loaded machine never times a normal answer out; the timeout test uses its own short one. */
const TIMEOUT_MS = 3000;
const SHORT_TIMEOUT_MS = 200;

let airline: OwnAirlineReceiver;
let client: OwnAirlineClient;
/** Our side of the callbacks: records what arrives, raw. */
let sink: Server;
let sinkUrl: string;
const arrived: Array<{ raw: string; headers: Record<string, string> }> = [];

beforeAll(async () => {
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      arrived.push({ raw: Buffer.concat(chunks).toString('utf8'), headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/callbacks/own-airline/air-1`;
});
afterAll(() => new Promise((r) => sink.close(r)));

beforeEach(async () => {
  arrived.length = 0;
  airline = await startOwnAirlineReceiver({ secret: SECRET, carrier: 'XX' });
  client = new OwnAirlineClient({
    url: airline.url,
    carrier: 'XX',
    signingSecret: SECRET,
    timeoutMs: TIMEOUT_MS,
    currency: 'EUR',
  });
});
afterEach(() => airline.close());

let n = 0;
const seat = (over: Partial<CrewSeatRequest> = {}): CrewSeatRequest => ({
  reference: `bk-${++n}-a1`,
  airline_id: 'air-1',
  booking_id: `bk-${n}`,
  traveller: {
    employee_id: 'E1234',
    email: 'ana.silva@crew.example',
    first_name: 'Ana',
    last_name: 'Silva',
    date_of_birth: '1988-04-12',
  },
  flight: {
    carrier: 'XX',
    flight_number: 'XX123',
    from_airport: 'AMS',
    to_airport: 'MAD',
    departure_date: '2025-07-01',
    dep_time: '2025-07-01T09:40:00+02:00',
  },
  callback_url: sinkUrl,
  ...over,
});

describe('signing', () => {
  it('signs each request so the airline verifies it, with a webhook-id stable per reference and operation', async () => {
    const req = seat();
    await client.requestSeat(req);
    await client.requestSeat(req);
    expect(airline.calls.map((c) => [c.verified, c.answered])).toEqual([
      [true, 200],
      [true, 200],
    ]);
    const [first, second] = airline.calls;
    expect(first!.headers['webhook-id']).toBe(crewSeatWebhookId('crew_seat.request', req.reference));
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(crewSeatWebhookId('crew_seat.cancel', req.reference)).not.toBe(first!.headers['webhook-id']);
    expect(first!.body).toEqual({ type: 'crew_seat.request', ...req });
  });

  it('is refused by the airline when signed with another secret, and the secret never shows', async () => {
    const wrong = new OwnAirlineClient({
      url: airline.url,
      carrier: 'XX',
      signingSecret: OTHER_SECRET,
      timeoutMs: TIMEOUT_MS,
    });
    const err = await failure(wrong.requestSeat(seat()));
    expect([err.kind, err.code, err.status, isOutcomeUnknown(err)]).toEqual(['refusal', 'REJECTED', 401, false]);
    expect(airline.calls.map((c) => c.verified)).toEqual([false]);
    expect(airline.seats.size).toBe(0);
    const body = OTHER_SECRET.slice('whsec_'.length);
    for (const text of [err.message, inspect(err), inspect(wrong), JSON.stringify(wrong)])
      expect(text).not.toContain(body);
    const sig = airline.calls[0]!.headers['webhook-signature']!;
    expect(err.message).not.toContain(sig.slice(3));
    expect(
      () => new OwnAirlineClient({ url: airline.url, carrier: 'XX', signingSecret: 'not-a-secret-at-all' }),
    ).toThrow(/^(?!.*not-a-secret-at-all).*$/);
  });

  it('the receiver rejects a request whose body was changed after signing', async () => {
    await client.requestSeat(seat());
    const { headers, raw } = airline.calls[0]!;
    const res = await fetch(airline.url, { method: 'POST', headers, body: raw.replace('Silva', 'Smith') });
    expect(res.status).toBe(401);
  });

  it('refuses to send to a plain http endpoint that is not loopback', () => {
    expect(
      () => new OwnAirlineClient({ url: 'http://crew.airline.example/seats', carrier: 'XX', signingSecret: SECRET }),
    ).toThrow(/https/);
  });
});

describe('seat requests', () => {
  it('turns a ticketed answer into a live OWN_AIRLINE order at price 0, and a repeat into the same one', async () => {
    airline.answerNext({ kind: 'ticket', flight: { arr_time: '2025-07-01T12:05:00+02:00', cabin: 'BUSINESS' } });
    const req = seat();
    const result = await client.requestSeat(req);
    if (result.status !== 'TICKETED') throw new Error(`expected TICKETED, got ${result.status}`);
    const held = airline.seats.get(req.reference)!;
    expect(result.order).toMatchObject({
      supplier: 'OWN_AIRLINE',
      live_mode: true,
      status: 'CONFIRMED',
      reference: req.reference,
      pnr: held.pnr,
      supplier_ref: held.pnr,
      ticket_id: held.ticket_id,
      price: { amount: 0, currency: 'EUR' },
      flight: {
        airline_code: 'XX',
        flight_number: 'XX123',
        dep_time: '2025-07-01T09:40:00+02:00',
        arr_time: '2025-07-01T12:05:00+02:00',
        duration_minutes: 145,
        cabin: 'BUSINESS',
      },
      traveller: {
        email: 'ana.silva@crew.example',
        first_name: 'Ana',
        last_name: 'Silva',
        date_of_birth: '1988-04-12',
      },
    });
    expect(result.order.ticket_id).toMatch(/^\d{13}$/);
    const again = await client.requestSeat(req);
    expect(again.status === 'TICKETED' && again.order.pnr).toBe(held.pnr);
    expect(airline.seats.size).toBe(1);
  });

  it('maps a refusal to a refusal SupplierError carrying the reason and code', async () => {
    airline.answerNext({
      kind: 'refuse',
      reason: 'crew seat quota reached on XX123',
      code: 'NO_CREW_SEAT',
      status: 422,
    });
    const err = await failure(client.requestSeat(seat()));
    expect([err.kind, err.code, err.status, err.operation, isOutcomeUnknown(err)]).toEqual([
      'refusal',
      'NO_CREW_SEAT',
      422,
      'crew_seat.request',
      false,
    ]);
    expect(err.message).toContain('crew seat quota reached on XX123');
  });

  it('refuses, without sending, a flight of another carrier', async () => {
    const err = await failure(
      client.requestSeat(seat({ flight: { ...seat().flight, carrier: 'YY', flight_number: 'YY9' } })),
    );
    expect(err.kind).toBe('refusal');
    expect(airline.calls).toHaveLength(0);
  });

  it('a timeout is transient with an unknown outcome, and resending the reference finds the seat taken', async () => {
    airline.answerNext({ kind: 'slow', holdMs: SHORT_TIMEOUT_MS * 20 });
    const impatient = new OwnAirlineClient({
      url: airline.url,
      carrier: 'XX',
      signingSecret: SECRET,
      timeoutMs: SHORT_TIMEOUT_MS,
    });
    const req = seat();
    const err = await failure(impatient.requestSeat(req));
    expect([err.kind, err.code, isOutcomeUnknown(err)]).toEqual(['transient', 'SUPPLIER_TIMEOUT', true]);
    const again = await client.requestSeat(req);
    expect(again.status === 'TICKETED' && again.order.pnr).toBe(airline.seats.get(req.reference)!.pnr);
    expect(airline.seats.size).toBe(1);
  });

  it('a 5xx is transient with an unknown outcome; 429 and 503 with Retry-After pace us', async () => {
    airline.answerNext(
      { kind: 'fail', status: 500, takes: true },
      { kind: 'fail', status: 429, retryAfter: '2' },
      { kind: 'fail', status: 503, retryAfter: '7' },
    );
    const crashed = await failure(client.requestSeat(seat()));
    expect([crashed.kind, crashed.status, crashed.rateLimited, isOutcomeUnknown(crashed)]).toEqual([
      'transient',
      500,
      false,
      true,
    ]);
    const paced = await failure(client.requestSeat(seat()));
    expect([paced.kind, paced.status, paced.retryAfterMs, isOutcomeUnknown(paced)]).toEqual([
      'transient',
      429,
      2000,
      false,
    ]);
    const down = await failure(client.requestSeat(seat()));
    expect([down.kind, down.status, down.retryAfterMs]).toEqual(['transient', 503, 7000]);
  });

  it('a refused connection is transient, and known not to have reached the airline', async () => {
    await airline.close();
    const err = await failure(client.requestSeat(seat()));
    expect([err.kind, err.code, isOutcomeUnknown(err)]).toEqual(['transient', 'SUPPLIER_UNREACHABLE', false]);
  });
});

describe('202 and the callback', () => {
  it('answers PENDING, then the signed ticketed callback arrives and verifies; a tampered or stale one does not', async () => {
    airline.answerNext({ kind: 'pending', callbackAfterMs: 50 });
    const req = seat();
    expect(await client.requestSeat(req)).toEqual({
      status: 'PENDING',
      reference: req.reference,
      webhook_id: crewSeatWebhookId('crew_seat.request', req.reference),
    });
    const { raw, headers } = await waitFor(() => arrived[0], 5000, 'the callback');
    const held = airline.seats.get(req.reference)!;
    const callback = client.verifyCallback(raw, headers);
    expect(callback).toMatchObject({
      type: 'crew_seat.ticketed',
      reference: req.reference,
      booking_id: req.booking_id,
      pnr: held.pnr,
      ticket_id: held.ticket_id,
    });
    expect(client.verifyCallback(Buffer.from(raw), new Headers(headers)).type).toBe('crew_seat.ticketed');

    expect(() => client.verifyCallback(raw.replace(held.pnr, 'ZZ9999'), headers)).toThrow(OwnAirlineCallbackError);
    const stale = String(Math.floor(Date.now() / 1000) - 600);
    const staleHeaders = {
      ...headers,
      'webhook-timestamp': stale,
      'webhook-signature': standardWebhookSignature(SECRET, headers['webhook-id']!, stale, raw),
    };
    expect(() => client.verifyCallback(raw, staleHeaders)).toThrow(/too old/);
    const forged = {
      ...headers,
      'webhook-signature': standardWebhookSignature(
        OTHER_SECRET,
        headers['webhook-id']!,
        headers['webhook-timestamp']!,
        raw,
      ),
    };
    expect(() => client.verifyCallback(raw, forged)).toThrow(OwnAirlineCallbackError);

    const repeat = await client.requestSeat(req);
    expect(repeat.status === 'TICKETED' && repeat.order.pnr).toBe(held.pnr);
  });

  it('a refused callback, sent when the airline decides, verifies as crew_seat.refused', async () => {
    airline.answerNext({ kind: 'pending', then: 'refuse', reason: 'flight closed for crew' });
    const req = seat();
    expect((await client.requestSeat(req)).status).toBe('PENDING');
    expect(arrived).toHaveLength(0);
    expect(await airline.complete(req.reference)).toBe(204);
    expect(client.verifyCallback(arrived[0]!.raw, arrived[0]!.headers)).toEqual({
      type: 'crew_seat.refused',
      reference: req.reference,
      booking_id: req.booking_id,
      reason: 'flight closed for crew',
    });
  });
});

describe('cancellation', () => {
  it('cancels a seat, answers CANCELLED again for a cancelled one, and refuses an unknown PNR', async () => {
    const req = seat();
    const booked = await client.requestSeat(req);
    if (booked.status !== 'TICKETED') throw new Error('expected TICKETED');
    const cancel = {
      reference: `${req.reference}-cancel`,
      pnr: booked.order.pnr,
      booking_id: req.booking_id,
      airline_id: 'air-1',
    };
    expect(await client.cancelSeat(cancel)).toEqual({
      status: 'CANCELLED',
      reference: cancel.reference,
      pnr: booked.order.pnr,
      webhook_id: crewSeatWebhookId('crew_seat.cancel', cancel.reference),
    });
    expect(airline.seats.get(req.reference)!.state).toBe('CANCELLED');
    expect((await client.cancelSeat(cancel)).status).toBe('CANCELLED');
    const last = airline.calls.at(-1)!;
    expect([last.verified, last.body.type, last.headers['webhook-id']]).toEqual([
      true,
      'crew_seat.cancel',
      crewSeatWebhookId('crew_seat.cancel', cancel.reference),
    ]);
    const err = await failure(client.cancelSeat({ ...cancel, reference: 'other', pnr: 'QQ0000' }));
    expect([err.kind, err.code, err.status]).toEqual(['refusal', 'NOT_FOUND', 404]);
  });
});

/**
 * The airline's side of OWN_AIRLINE (docs/own-airline.md) for tests: a real HTTP server on 127.0.0.1 that
 * checks our Standard Webhooks signature, records every request, answers as the test scripts it, dedupes
 * on the reference, and calls back (signed) after a 202, again until the callback is answered 2xx. Signatures
 * are computed here with node:crypto from the spec, not with the library the client uses, so a client that
 * signs wrongly cannot pass by symmetry.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How the receiver answers the next seat request (one scripted answer per new reference, in order; then `ticket`). */
export type SeatAnswer =
  | {
      kind: 'ticket';
      pnr?: string;
      ticket_id?: string;
      flight?: { dep_time?: string; arr_time?: string; cabin?: string };
      status?: 200 | 201;
    }
  | { kind: 'refuse'; reason?: string; code?: string; status?: 409 | 422 }
  /**
   * 202, then the callback: after `callbackAfterMs`, or when the test calls `complete(reference)`.
   * `beforeAnswer` runs before the 202 is sent (a callback that overtakes it).
   */
  | {
      kind: 'pending';
      then?: 'ticket' | 'refuse';
      reason?: string;
      callbackAfterMs?: number;
      beforeAnswer?: (seat: Seat) => Promise<void>;
    }
  /** An error status; `takes`: the seat was ticketed all the same (a crash after the commit). */
  | { kind: 'fail'; status: number; retryAfter?: string; takes?: boolean }
  /** The seat is ticketed at once but the answer comes only after `holdMs` (longer than the client waits). */
  | { kind: 'slow'; holdMs: number };

export interface ReceivedCall {
  headers: Record<string, string>;
  raw: string;
  body: any;
  verified: boolean;
  /** The HTTP status answered. */
  answered: number;
}

export interface Seat {
  reference: string;
  booking_id: string;
  state: 'TICKETED' | 'PENDING' | 'REFUSED' | 'CANCELLED';
  pnr: string;
  ticket_id: string;
  reason?: string;
  code?: string;
  callback_url: string;
  /** The answer the reference first got (a repeat gets the same). */
  status: number;
}

export interface SentCallback {
  reference: string;
  url: string;
  headers: Record<string, string>;
  raw: string;
  /** The status our service last answered, or null when it could not be reached. */
  answered: number | null;
  /** Each attempt's answer, in order (the callback is sent again until a 2xx, as the contract asks). */
  attempts: Array<{ status: number | null; retry_after: string | null }>;
}

export interface OwnAirlineReceiver {
  url: string;
  /** Every request, signed or not, in arrival order. */
  calls: ReceivedCall[];
  /** Seats by our reference: one per reference however often it was sent. */
  seats: Map<string, Seat>;
  callbacks: SentCallback[];
  /** Scripts the answers to the next new seat requests. */
  answerNext(...answers: SeatAnswer[]): void;
  /**
   * Sends the callback of a PENDING seat now (ticketed, or refused if so scripted), again after Retry-After (or
   * 1 s) until our service answers 2xx or 401, up to 5 attempts; resolves with our last answer's status.
   * `flight`: what a ticketed callback says about the flight (default `{cabin: 'ECONOMY'}`).
   */
  complete(
    reference: string,
    flight?: { dep_time?: string; arr_time?: string; cabin?: string },
  ): Promise<number | null>;
  close(): Promise<void>;
}

const TOLERANCE_S = 300;
const CALLBACK_ATTEMPTS = 5;

/** Standard Webhooks verification from the spec: HMAC-SHA256 over `id.timestamp.body`, key = base64 after `whsec_`. */
export function standardWebhookSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

function verified(secret: string, headers: Record<string, string>, raw: string): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (!id || !ts || !sig || !/^\d+$/.test(ts)) return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > TOLERANCE_S) return false;
  const expected = Buffer.from(standardWebhookSignature(secret, id, ts, raw).slice(3), 'base64');
  return sig.split(' ').some((part) => {
    const [version, value] = part.split(',');
    const got = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && got.length === expected.length && timingSafeEqual(got, expected);
  });
}

export async function startOwnAirlineReceiver(options: {
  secret: string;
  carrier?: string;
}): Promise<OwnAirlineReceiver> {
  const carrier = options.carrier ?? 'XX';
  const calls: ReceivedCall[] = [];
  const seats = new Map<string, Seat>();
  const callbacks: SentCallback[] = [];
  const script: SeatAnswer[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let seq = 0;

  const send = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...extra });
    res.end(body === undefined ? '' : JSON.stringify(body));
  };
  const seatAnswer = (seat: Seat) =>
    seat.state === 'REFUSED'
      ? { status: 'REFUSED', reason: seat.reason, ...(seat.code ? { code: seat.code } : {}) }
      : seat.state === 'PENDING'
        ? { status: 'PENDING' }
        : { status: 'TICKETED', pnr: seat.pnr, ticket_id: seat.ticket_id };

  const complete = async (
    reference: string,
    flight: { dep_time?: string; arr_time?: string; cabin?: string } = { cabin: 'ECONOMY' },
  ): Promise<number | null> => {
    const seat = seats.get(reference);
    if (!seat || seat.state !== 'PENDING') throw new Error(`no pending seat for ${reference}`);
    const refused = seat.reason !== undefined;
    seat.state = refused ? 'REFUSED' : 'TICKETED';
    // A repeat of the reference now gets the final result.
    seat.status = refused ? 409 : 200;
    const type = refused ? 'crew_seat.refused' : 'crew_seat.ticketed';
    const payload = refused
      ? { type, reference, booking_id: seat.booking_id, reason: seat.reason }
      : {
          type,
          reference,
          booking_id: seat.booking_id,
          pnr: seat.pnr,
          ticket_id: seat.ticket_id,
          flight,
        };
    const raw = JSON.stringify(payload);
    const id = `msg_${createHash('sha256').update(`${type}\n${reference}`).digest('hex').slice(0, 32)}`;
    // Each attempt is signed anew (a fresh timestamp) under the same webhook-id.
    const signed = () => {
      const ts = String(Math.floor(Date.now() / 1000));
      return {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': ts,
        'webhook-signature': standardWebhookSignature(options.secret, id, ts, raw),
      };
    };
    const sent: SentCallback = {
      reference,
      url: seat.callback_url,
      headers: signed(),
      raw,
      answered: null,
      attempts: [],
    };
    callbacks.push(sent);
    for (;;) {
      let retryAfter: string | null = null;
      try {
        const res = await fetch(seat.callback_url, {
          method: 'POST',
          headers: sent.headers,
          body: raw,
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
        sent.answered = res.status;
        retryAfter = res.headers.get('retry-after');
      } catch {
        sent.answered = null;
      }
      sent.attempts.push({ status: sent.answered, retry_after: retryAfter });
      const done = sent.answered !== null && ((sent.answered >= 200 && sent.answered < 300) || sent.answered === 401);
      if (done || sent.attempts.length >= CALLBACK_ATTEMPTS) return sent.answered;
      const waitS = Math.min(Number(retryAfter) || 1, 10);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, waitS * 1000);
        timers.add(timer);
      });
      sent.headers = signed();
    }
  };

  const newSeat = (body: any, answer: SeatAnswer): Seat => {
    seq += 1;
    const ticket = answer.kind === 'ticket' ? answer : undefined;
    return {
      reference: String(body.reference),
      booking_id: String(body.booking_id),
      state: 'TICKETED',
      pnr: ticket?.pnr ?? `${carrier}${String(seq).padStart(4, '0')}`,
      ticket_id: ticket?.ticket_id ?? `999${String(seq).padStart(10, '0')}`,
      callback_url: String(body.callback_url),
      status: 200,
    };
  };

  const onSeatRequest = (body: any, res: ServerResponse): number => {
    const known = seats.get(String(body.reference));
    if (known) {
      send(res, known.status, seatAnswer(known));
      return known.status;
    }
    const answer = script.shift() ?? { kind: 'ticket' };
    const seat = newSeat(body, answer);
    switch (answer.kind) {
      case 'ticket':
        seat.status = answer.status ?? 200;
        seats.set(seat.reference, seat);
        send(res, seat.status, { ...seatAnswer(seat), ...(answer.flight ? { flight: answer.flight } : {}) });
        return seat.status;
      case 'refuse':
        Object.assign(seat, {
          state: 'REFUSED',
          reason: answer.reason ?? 'no crew seat left',
          code: answer.code,
          status: answer.status ?? 409,
        });
        seats.set(seat.reference, seat);
        send(res, seat.status, seatAnswer(seat));
        return seat.status;
      case 'pending': {
        Object.assign(seat, {
          state: 'PENDING',
          status: 202,
          ...(answer.then === 'refuse' ? { reason: answer.reason ?? 'no crew seat left' } : {}),
        });
        seats.set(seat.reference, seat);
        const accept = () => {
          send(res, 202, { status: 'PENDING' });
          if (answer.callbackAfterMs !== undefined) {
            const timer = setTimeout(() => {
              timers.delete(timer);
              void complete(seat.reference);
            }, answer.callbackAfterMs);
            timers.add(timer);
          }
        };
        if (answer.beforeAnswer) void answer.beforeAnswer(seat).finally(accept);
        else accept();
        return 202;
      }
      case 'fail':
        if (answer.takes) seats.set(seat.reference, seat);
        send(
          res,
          answer.status,
          { error: { message: 'scripted failure' } },
          answer.retryAfter ? { 'retry-after': answer.retryAfter } : {},
        );
        return answer.status;
      case 'slow': {
        seats.set(seat.reference, seat);
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, 200, seatAnswer(seat));
        }, answer.holdMs);
        timers.add(timer);
        return 200;
      }
    }
  };

  const onCancel = (body: any, res: ServerResponse): number => {
    const seat = [...seats.values()].find((s) => s.pnr === body.pnr && s.state !== 'REFUSED');
    if (!seat) {
      send(res, 404, { status: 'NOT_FOUND' });
      return 404;
    }
    seat.state = 'CANCELLED';
    send(res, 200, { status: 'CANCELLED', pnr: seat.pnr });
    return 200;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const call: ReceivedCall = {
        headers,
        raw,
        body: undefined,
        verified: verified(options.secret, headers, raw),
        answered: 0,
      };
      calls.push(call);
      try {
        call.body = JSON.parse(raw);
      } catch {
        call.body = undefined;
      }
      if (req.method !== 'POST') return send(res, (call.answered = 405), { error: { message: 'POST only' } });
      if (!call.verified) return send(res, (call.answered = 401), { error: { message: 'bad signature' } });
      if (call.body?.type === 'crew_seat.request') call.answered = onSeatRequest(call.body, res);
      else if (call.body?.type === 'crew_seat.cancel') call.answered = onCancel(call.body, res);
      else send(res, (call.answered = 400), { error: { message: 'unknown type' } });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}/crew-seats`,
    calls,
    seats,
    callbacks,
    answerNext: (...answers) => void script.push(...answers),
    complete,
    close: async () => {
      for (const t of timers) clearTimeout(t);
      const closed = new Promise((r) => server.close(r));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

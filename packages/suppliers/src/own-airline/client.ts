/**
 * The airline's own reservation system as a flight supplier (OWN_AIRLINE): crew deadhead as positive-space
 * crew seats, requested from the crew-booking endpoint the airline registered, signed the Standard Webhooks
 * way with the secret it gave us. The wire contract is docs/own-airline.md.
 */
import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SupplierError, SupplierErrorCode, type SupplierErrorDetails } from '../errors';
import { parseRetryAfter } from '../http';
import type { Money } from '@crew/contracts';
import type { FlightOrder } from '../types';
import {
  CREW_SEAT_CANCEL,
  CREW_SEAT_REQUEST,
  parseJson,
  readCallback,
  readRefusal,
  readTicket,
  statusOf,
  type CrewSeatCancelRequest,
  type CrewSeatOperation,
  type CrewSeatRequest,
  type CrewSeatTicket,
  type OwnAirlineCallback,
} from './wire';

export interface OwnAirlineClientOptions {
  /** The airline's crew-booking endpoint: https (plain http only to a loopback host, for development and tests). */
  url: string;
  /** 2-letter IATA code of the airline: the only carrier whose flights this endpoint books. */
  carrier: string;
  /** The Standard Webhooks secret (`whsec_…`) the airline gave us; signs our requests and its callbacks. */
  signingSecret: string;
  /** Longest wait for a whole answer (default 10 s); an airline that needs longer answers 202 and calls back. */
  timeoutMs?: number;
  /** ISO 4217 currency of the zero price of a crew seat (default USD); pass the airline's fare-ceiling currency so no FX rate is needed. */
  currency?: string;
  fetch?: typeof fetch;
}

export type CrewSeatResult =
  /** Ticketed in the answer itself. */
  | { status: 'TICKETED'; order: FlightOrder; webhook_id: string }
  /** Accepted (202): the booking waits for the `crew_seat.ticketed` or `crew_seat.refused` callback. */
  | { status: 'PENDING'; reference: string; webhook_id: string };

export interface CrewSeatCancelled {
  status: 'CANCELLED';
  reference: string;
  pnr: string;
  webhook_id: string;
}

/**
 * A SupplierError that also says whether the airline may have taken the request (`outcomeUnknown`: a
 * timeout, a dropped connection, a 5xx or an unreadable 2xx). Resending the same reference is then safe
 * only because the airline dedupes on it; the seat may already exist.
 */
export class OwnAirlineError extends SupplierError {
  constructor(
    kind: 'transient' | 'refusal',
    code: string,
    message: string,
    info: SupplierErrorDetails,
    outcomeUnknown: boolean,
  ) {
    super(kind, code, message, { ...info, outcomeUnknown });
  }
}

export function isOutcomeUnknown(err: unknown): boolean {
  return err instanceof SupplierError && err.outcomeUnknown;
}

/**
 * Thrown by `verifyCallback`: the callback is not from the airline (answer it 401), or it is, signed, and its body
 * cannot be read (`unreadable`: answer it 400 naming what is wrong, so the airline fixes the body, not its secret).
 */
export class OwnAirlineCallbackError extends Error {
  override readonly name = 'OwnAirlineCallbackError';
  constructor(
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

/**
 * The webhook-id of one operation on one reference: the same on every resend, so the airline can dedupe on
 * it as well as on the reference. Hashed so a reference of any shape makes a valid header.
 */
export function crewSeatWebhookId(type: CrewSeatOperation, reference: string): string {
  return `msg_${createHash('sha256').update(`${type}\n${reference}`).digest('hex').slice(0, 32)}`;
}

const USER_AGENT = 'CrewTravel-OwnAirline/1';

export class OwnAirlineClient {
  readonly url: string;
  readonly carrier: string;
  private readonly timeoutMs: number;
  private readonly currency: string;
  private readonly fetchFn: typeof fetch;
  /** A private field: the key never shows in util.inspect, JSON or an error. */
  readonly #webhook: Webhook;

  constructor(options: OwnAirlineClientOptions) {
    const url = new URL(options.url);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
      throw new Error('own airline: the endpoint must be an https URL');
    if (url.username || url.password) throw new Error('own airline: credentials in the endpoint URL are not allowed');
    if (!/^[A-Z0-9]{2}$/.test(options.carrier)) throw new Error('own airline: carrier must be a 2-character IATA code');
    this.url = url.href;
    this.carrier = options.carrier;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.currency = options.currency ?? 'USD';
    this.fetchFn = options.fetch ?? fetch;
    this.#webhook = webhookOf(options.signingSecret);
  }

  /** Asks the airline for a positive-space crew seat; same reference, same answer (docs/own-airline.md). */
  async requestSeat(req: CrewSeatRequest): Promise<CrewSeatResult> {
    if (req.flight.carrier !== this.carrier) {
      throw new OwnAirlineError(
        'refusal',
        SupplierErrorCode.INVALID_OFFER,
        `${CREW_SEAT_REQUEST}: ${req.flight.flight_number} is not a flight of ${this.carrier}`,
        { operation: CREW_SEAT_REQUEST },
        false,
      );
    }
    const { status, body, webhookId, retryAfter } = await this.send(CREW_SEAT_REQUEST, req.reference, {
      type: CREW_SEAT_REQUEST,
      ...req,
    });
    if ((status === 200 || status === 201) && statusOf(body) === 'TICKETED') {
      const ticket = readTicket(body);
      if (typeof ticket === 'string') throw badAnswer(CREW_SEAT_REQUEST, status, ticket);
      return { status: 'TICKETED', order: this.toFlightOrder(req, ticket), webhook_id: webhookId };
    }
    if (status === 202 && (body === undefined || statusOf(body) === 'PENDING'))
      return { status: 'PENDING', reference: req.reference, webhook_id: webhookId };
    throw this.failure(CREW_SEAT_REQUEST, status, body, retryAfter);
  }

  /** Gives the seat back; cancelling an already-cancelled seat answers CANCELLED too. */
  async cancelSeat(req: CrewSeatCancelRequest): Promise<CrewSeatCancelled> {
    const { status, body, webhookId, retryAfter } = await this.send(CREW_SEAT_CANCEL, req.reference, {
      type: CREW_SEAT_CANCEL,
      ...req,
    });
    if (status === 200 && statusOf(body) === 'CANCELLED')
      return { status: 'CANCELLED', reference: req.reference, pnr: req.pnr, webhook_id: webhookId };
    throw this.failure(CREW_SEAT_CANCEL, status, body, retryAfter);
  }

  /**
   * A callback the airline POSTed to us, checked against its Standard Webhooks signature (and a timestamp
   * within 5 minutes, against replays). `rawBody` must be the exact bytes received, before any JSON parsing.
   */
  verifyCallback(
    rawBody: string | Buffer,
    headers: Headers | Record<string, string | string[] | undefined>,
  ): OwnAirlineCallback {
    const flat = flatHeaders(headers);
    try {
      this.#webhook.verify(rawBody, flat, { jsonParse: false });
    } catch (err) {
      // The library's message says which check failed (headers, timestamp, signature) and carries no secret.
      throw new OwnAirlineCallbackError(
        `own airline callback rejected: ${err instanceof Error ? err.message : 'verification failed'}`,
      );
    }
    const parsed = readCallback(parseJson(rawBody.toString()));
    if (typeof parsed === 'string')
      throw new OwnAirlineCallbackError(`own airline callback unreadable: ${parsed}`, true);
    return parsed;
  }

  /**
   * The order of a ticketed seat, from an answer or a `crew_seat.ticketed` callback. A crew seat is not
   * bought: its price is 0. What the airline did not say stays empty (arrival time, booker) or defaults
   * (cabin ECONOMY; the departure the request named).
   */
  toFlightOrder(req: CrewSeatRequest, ticket: CrewSeatTicket, now = new Date()): FlightOrder {
    const depTime = ticket.flight?.dep_time ?? req.flight.dep_time ?? req.flight.departure_date;
    const arrTime = ticket.flight?.arr_time ?? '';
    const minutes = (Date.parse(arrTime) - Date.parse(depTime)) / 60_000;
    const price: Money = { amount: 0, currency: this.currency };
    const at = now.toISOString();
    return {
      supplier_ref: ticket.pnr,
      reference: req.reference,
      status: 'CONFIRMED',
      pnr: ticket.pnr,
      ticket_id: ticket.ticket_id,
      // The id both sides can quote for this request; the airline has no separate transaction or session.
      transaction_id: crewSeatWebhookId(CREW_SEAT_REQUEST, req.reference),
      trip_session_id: '',
      flight: {
        airline_code: req.flight.carrier,
        flight_number: req.flight.flight_number,
        from_airport: req.flight.from_airport,
        to_airport: req.flight.to_airport,
        dep_time: depTime,
        arr_time: arrTime,
        duration_minutes: Number.isFinite(minutes) && minutes > 0 ? Math.round(minutes) : 0,
        cabin: ticket.flight?.cabin ?? 'ECONOMY',
      },
      price,
      traveller: {
        email: req.traveller.email,
        first_name: req.traveller.first_name,
        last_name: req.traveller.last_name,
        date_of_birth: req.traveller.date_of_birth ?? '',
      },
      booker_email: '',
      created_at: at,
      updated_at: at,
      cancelled_at: null,
      supplier: 'OWN_AIRLINE',
      live_mode: true,
      refund: null,
    };
  }

  /** One signed POST. Never retried here: the caller resends the same reference when it decides to. */
  private async send(
    type: CrewSeatOperation,
    reference: string,
    payload: object,
  ): Promise<{ status: number; body: unknown; webhookId: string; retryAfter: number | undefined }> {
    const webhookId = crewSeatWebhookId(type, reference);
    const text = JSON.stringify(payload);
    const at = new Date();
    const headers = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.#webhook.sign(webhookId, at, text),
    };
    const signal = AbortSignal.timeout(this.timeoutMs);
    let res: Response;
    try {
      res = await this.fetchFn(this.url, { method: 'POST', headers, body: text, signal, redirect: 'manual' });
    } catch (err) {
      throw this.networkError(type, signal, err);
    }
    let answer: string;
    try {
      answer = await res.text();
    } catch (err) {
      throw this.networkError(type, signal, err);
    }
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    return { status: res.status, body: answer === '' ? undefined : parseJson(answer), webhookId, retryAfter };
  }

  private networkError(type: CrewSeatOperation, signal: AbortSignal, err: unknown): OwnAirlineError {
    if (signal.aborted) {
      return new OwnAirlineError(
        'transient',
        SupplierErrorCode.TIMEOUT,
        `${type}: no answer from the airline within ${this.timeoutMs} ms; the request may have been taken`,
        { operation: type },
        true,
      );
    }
    const cause = (err as { cause?: unknown })?.cause ?? err;
    const code = (cause as { code?: unknown })?.code;
    // A refused connection never reached the airline; any other failure may have happened after it read the request.
    const refused = code === 'ECONNREFUSED' || code === 'ENOTFOUND';
    return new OwnAirlineError(
      'transient',
      SupplierErrorCode.UNREACHABLE,
      `${type}: the airline could not be reached (${typeof code === 'string' ? code : 'network error'})${refused ? '' : '; the request may have been taken'}`,
      { operation: type },
      !refused,
    );
  }

  /** Any answer that is not the operation's success. */
  private failure(
    type: CrewSeatOperation,
    status: number,
    body: unknown,
    retryAfter: number | undefined,
  ): OwnAirlineError {
    const info = { operation: type, status };
    if ((status === 409 || status === 422) && statusOf(body) === 'REFUSED') {
      const { reason, code } = readRefusal(body);
      return new OwnAirlineError(
        'refusal',
        code ?? SupplierErrorCode.REFUSED,
        `${type}: the airline refused: ${reason}`,
        info,
        false,
      );
    }
    if (status === 429 || status === 503) {
      // 429 always asks us to slow down (1 s when it does not say how long); 503 only when it says how long.
      const retryAfterMs = status === 429 ? (retryAfter ?? 1000) : retryAfter;
      return new OwnAirlineError(
        'transient',
        SupplierErrorCode.SERVER_ERROR,
        `${type}: the airline is busy (HTTP ${status})`,
        { ...info, retryAfterMs },
        status === 503,
      );
    }
    if (status >= 500 || status === 408) {
      return new OwnAirlineError(
        'transient',
        SupplierErrorCode.SERVER_ERROR,
        `${type}: the airline answered HTTP ${status}; the request may have been taken`,
        info,
        true,
      );
    }
    if (status === 401 || status === 403) {
      return new OwnAirlineError(
        'refusal',
        SupplierErrorCode.REJECTED,
        `${type}: the airline rejected our signature (HTTP ${status}): check the signing secret registered for it`,
        info,
        false,
      );
    }
    if (status === 404 && type === CREW_SEAT_CANCEL)
      return new OwnAirlineError(
        'refusal',
        SupplierErrorCode.NOT_FOUND,
        `${type}: the airline does not know this PNR`,
        info,
        false,
      );
    if (status >= 200 && status < 300)
      return badAnswer(
        type,
        status,
        `status ${JSON.stringify(statusOf(body) ?? null)} is not expected with HTTP ${status}`,
      );
    return new OwnAirlineError(
      'refusal',
      SupplierErrorCode.REFUSED,
      `${type}: the airline answered HTTP ${status}`,
      info,
      false,
    );
  }
}

/** A 2xx we cannot read: the airline may well have acted on the request. */
function badAnswer(type: CrewSeatOperation, status: number, what: string): OwnAirlineError {
  return new OwnAirlineError(
    'transient',
    SupplierErrorCode.BAD_RESPONSE,
    `${type}: unreadable answer from the airline (HTTP ${status}): ${what}`,
    { operation: type, status },
    true,
  );
}

function webhookOf(secret: string): Webhook {
  try {
    if (!secret.startsWith('whsec_')) throw new Error('no whsec_ prefix');
    return new Webhook(secret);
  } catch {
    // Never the secret itself, nor the library's message about it.
    throw new Error('own airline: the signing secret is not a Standard Webhooks secret (whsec_ followed by base64)');
  }
}

function flatHeaders(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers instanceof Headers) {
    headers.forEach((v, k) => (out[k] = v));
    return out;
  }
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(' ') : v;
  return out;
}

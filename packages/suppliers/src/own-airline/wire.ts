/**
 * The wire contract with an airline's own crew-booking system (docs/own-airline.md): what we send, what it
 * answers, and what it calls back with. Field names are the product's snake_case.
 */
import { isDateTime } from '@crew/contracts';
import { CABINS, type Cabin } from '../types';

export const CREW_SEAT_REQUEST = 'crew_seat.request';
export const CREW_SEAT_CANCEL = 'crew_seat.cancel';
export const CREW_SEAT_TICKETED = 'crew_seat.ticketed';
export const CREW_SEAT_REFUSED = 'crew_seat.refused';

export type CrewSeatOperation = typeof CREW_SEAT_REQUEST | typeof CREW_SEAT_CANCEL;

export interface CrewSeatTraveller {
  /** The crew member's staff number at the airline, when the roster has it: the airline's system matches on it first. */
  employee_id?: string;
  email: string;
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD. */
  date_of_birth?: string;
}

export interface CrewSeatFlight {
  /** 2-letter IATA code of the operating carrier (the airline itself). */
  carrier: string;
  /** Carrier code and number, e.g. `XX123`. */
  flight_number: string;
  from_airport: string;
  to_airport: string;
  /** YYYY-MM-DD, local at the origin. */
  departure_date: string;
  /** Scheduled departure, ISO 8601 with the origin's offset, when known. */
  dep_time?: string;
}

export interface CrewSeatRequest {
  /**
   * Our idempotency reference for this seat. A correct airline system answers the same reference with the
   * same result (the same PNR and ticket, the same refusal, or PENDING then one callback) however often it
   * is sent: we resend it after a timeout or 5xx, when we cannot know whether the first request was taken.
   */
  reference: string;
  airline_id: string;
  booking_id: string;
  traveller: CrewSeatTraveller;
  flight: CrewSeatFlight;
  /** Where a 202 is later completed: `{PUBLIC_API_URL}/callbacks/own-airline/{airline_id}`. */
  callback_url: string;
}

export interface CrewSeatCancelRequest {
  /** Idempotency reference of this cancellation (the same rule as a seat request's reference). */
  reference: string;
  pnr: string;
  booking_id: string;
  airline_id: string;
}

/** The request bodies as sent: the request plus its `type`. */
export type CrewSeatRequestBody = CrewSeatRequest & { type: typeof CREW_SEAT_REQUEST };
export type CrewSeatCancelBody = CrewSeatCancelRequest & { type: typeof CREW_SEAT_CANCEL };

/** What the airline may tell us about the flight it ticketed; every field optional. */
export interface CrewSeatFlightFacts {
  dep_time?: string;
  arr_time?: string;
  cabin?: Cabin;
}

/** A ticketed seat, from a 200/201 answer or a `crew_seat.ticketed` callback. */
export interface CrewSeatTicket {
  pnr: string;
  /** The 13-digit ticket number. */
  ticket_id: string;
  flight?: CrewSeatFlightFacts;
}

export type OwnAirlineCallback =
  | ({ type: typeof CREW_SEAT_TICKETED; reference: string; booking_id: string } & CrewSeatTicket)
  | { type: typeof CREW_SEAT_REFUSED; reference: string; booking_id: string; reason: string; code?: string };

// ---- reading what the airline sent (anything unexpected is reported, never guessed) ----

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The `status` an answer names, or undefined. */
export function statusOf(body: unknown): string | undefined {
  return isObj(body) && typeof body.status === 'string' ? body.status : undefined;
}

/** A TICKETED answer or callback's seat; a string saying what is wrong otherwise. */
export function readTicket(body: unknown): CrewSeatTicket | string {
  if (!isObj(body)) return 'the body is not a JSON object';
  if (!nonEmpty(body.pnr)) return 'pnr is missing';
  if (!nonEmpty(body.ticket_id)) return 'ticket_id is missing';
  const ticket: CrewSeatTicket = { pnr: body.pnr, ticket_id: body.ticket_id };
  if (isObj(body.flight)) {
    const f = body.flight;
    const facts: CrewSeatFlightFacts = {};
    // A time is stored on the booking and shown as the booked flight's: one we cannot read as an instant is
    // refused with the ticket, never kept. Absent, null or blank is no time (the request's departure, no arrival).
    for (const field of ['dep_time', 'arr_time'] as const) {
      const v = f[field];
      if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
      if (typeof v !== 'string' || !isDateTime(v))
        return `flight.${field} is not an ISO 8601 date-time with an offset: ${JSON.stringify(v).slice(0, 60)}`;
      facts[field] = v;
    }
    if (typeof f.cabin === 'string' && (CABINS as readonly string[]).includes(f.cabin)) facts.cabin = f.cabin as Cabin;
    ticket.flight = facts;
  }
  return ticket;
}

/** A refusal's reason (bounded: it ends up in a booking's review reason) and its UPPER_SNAKE code, if any. */
export function readRefusal(body: unknown): { reason: string; code?: string } {
  const reason = isObj(body) && nonEmpty(body.reason) ? body.reason.slice(0, 500) : 'no reason given';
  const code =
    isObj(body) && typeof body.code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(body.code) ? body.code : undefined;
  return code === undefined ? { reason } : { reason, code };
}

/** A verified callback's body as an `OwnAirlineCallback`; a string saying what is wrong otherwise. */
export function readCallback(body: unknown): OwnAirlineCallback | string {
  if (!isObj(body)) return 'the body is not a JSON object';
  if (!nonEmpty(body.reference)) return 'reference is missing';
  if (!nonEmpty(body.booking_id)) return 'booking_id is missing';
  const { reference, booking_id } = body;
  if (body.type === CREW_SEAT_TICKETED) {
    const ticket = readTicket(body);
    return typeof ticket === 'string' ? ticket : { type: CREW_SEAT_TICKETED, reference, booking_id, ...ticket };
  }
  if (body.type === CREW_SEAT_REFUSED) return { type: CREW_SEAT_REFUSED, reference, booking_id, ...readRefusal(body) };
  return `unknown type ${JSON.stringify(String(body.type)).slice(0, 60)}`;
}

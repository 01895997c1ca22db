/**
 * A leg on the airline's own metal, booked as a positive-space crew seat in the airline's own reservation
 * system (docs/own-airline.md). It answers with a ticket, a refusal, or "pending" and a signed callback later;
 * the api stores that callback's answer on the booking and resumes the task, which settles from it here.
 */
import type { BookingRow } from '@crew/db';
import { BOOK_IN_OWN_SYSTEM } from '@crew/engine';
import {
  isSupplierError,
  OwnAirlineClient,
  type Cabin,
  type CrewSeatFlightFacts,
  type FlightOrder,
  type FlightTraveller,
} from '@crew/suppliers';
import type { Outcome } from './outcome';

export interface OwnAirlineConnection {
  url: string;
  carrier: string;
  signingSecret: string;
}

/** What the api's callback route stored on the booking's flight block. */
interface OwnSeatAnswer {
  supplier?: string;
  supplier_status?: string;
  supplier_reason?: string;
  pnr?: string;
  ticket_id?: string;
  /** What a ticketed callback said about the flight (the times with their offsets, the cabin). */
  dep_time?: string;
  arr_time?: string;
  cabin?: Cabin;
  /** The request that answer is for. */
  request_reference?: string;
}

const refusedOutcome = (reason: string): Outcome => ({
  status: 'NEEDS_REVIEW',
  reason: `the airline's own system refused the crew seat: ${reason}; book it there and record the PNR`,
  recommended_action: BOOK_IN_OWN_SYSTEM,
});

export async function bookOwnSeat(
  b: BookingRow,
  reference: string,
  traveller: FlightTraveller,
  conn: OwnAirlineConnection,
  callbackBase: string,
  ticketed: (order: FlightOrder) => Outcome,
): Promise<Outcome> {
  const stored = (b.flight ?? {}) as OwnSeatAnswer;
  // A stored answer settles only the request it answers: after a cancel-and-rebook the block still holds the
  // cancelled seat (or an earlier refusal), which is no answer to the rebook's new reference.
  const answered = stored.supplier === 'OWN_AIRLINE' && stored.request_reference === reference ? stored : {};
  if (answered.supplier_status === 'REFUSED') return refusedOutcome(answered.supplier_reason ?? 'no reason given');
  const client = new OwnAirlineClient({ url: conn.url, carrier: conn.carrier, signingSecret: conn.signingSecret });
  const flight = {
    carrier: conn.carrier,
    flight_number: b.flight_number ?? '',
    from_airport: b.from_airport ?? '',
    to_airport: b.to_airport ?? '',
    departure_date: b.dep_time_local ? b.dep_time_local.slice(0, 10) : (b.duty_date ?? ''),
    // The rostered departure, with the origin's offset (docs/own-airline.md: sent when we know it).
    ...(b.dep_time_local ? { dep_time: b.dep_time_local } : {}),
  };
  if (answered.supplier_status === 'CONFIRMED' && answered.pnr && answered.ticket_id) {
    return ticketed(
      client.toFlightOrder(
        {
          reference,
          airline_id: b.airline_id,
          booking_id: b.booking_id,
          traveller: travellerOf(traveller),
          flight,
          callback_url: '',
        },
        { pnr: answered.pnr, ticket_id: answered.ticket_id, flight: flightFactsOf(answered) },
      ),
    );
  }
  try {
    const result = await client.requestSeat({
      reference,
      airline_id: b.airline_id,
      booking_id: b.booking_id,
      traveller: travellerOf(traveller),
      flight,
      callback_url: `${callbackBase}/callbacks/own-airline/${b.airline_id}`,
    });
    if (result.status === 'TICKETED') return ticketed(result.order);
    // What an earlier request's answer named (a seat cancelled before this rebook, a refusal) is not this one's.
    const {
      pnr: _pnr,
      ticket_id: _ticket,
      supplier_ref: _ref,
      supplier_reason: _reason,
      dep_time: _dep,
      arr_time: _arr,
      cabin: _cabin,
      ...leg
    } = b.flight ?? {};
    return {
      status: 'NEEDS_REVIEW',
      reason: null,
      awaiting: true,
      patch: {
        // The reference the callback must name: a late one for an earlier request on this booking settles nothing.
        flight: {
          ...leg,
          supplier: 'OWN_AIRLINE',
          live_mode: true,
          supplier_status: 'REQUESTED',
          request_reference: reference,
        },
      },
    };
  } catch (err) {
    if (isSupplierError(err) && !err.transient) return refusedOutcome(`${err.code}: ${err.message}`);
    throw err;
  }
}

/** Cancels the crew seat in the airline's own system (an already-cancelled one answers CANCELLED too). */
export async function cancelOwnSeat(b: BookingRow, conn: OwnAirlineConnection, reference: string): Promise<Outcome> {
  const pnr = b.flight?.pnr;
  if (!pnr) return { status: 'CANCELLED', reason: 'no crew seat was ticketed in the airline’s own system' };
  const client = new OwnAirlineClient({ url: conn.url, carrier: conn.carrier, signingSecret: conn.signingSecret });
  await client.cancelSeat({ reference, pnr, booking_id: b.booking_id, airline_id: b.airline_id });
  return {
    status: 'CANCELLED',
    reason: null,
    patch: { flight: { ...(b.flight ?? {}), supplier_status: 'CANCELLED' } },
  };
}

/** The flight facts a ticketed callback gave (each optional): toFlightOrder fills what is missing. */
function flightFactsOf(a: OwnSeatAnswer): CrewSeatFlightFacts {
  return {
    ...(a.dep_time ? { dep_time: a.dep_time } : {}),
    ...(a.arr_time ? { arr_time: a.arr_time } : {}),
    ...(a.cabin ? { cabin: a.cabin } : {}),
  };
}

function travellerOf(t: FlightTraveller) {
  return {
    email: t.email,
    first_name: t.first_name,
    last_name: t.last_name,
    ...(t.date_of_birth ? { date_of_birth: t.date_of_birth } : {}),
  };
}

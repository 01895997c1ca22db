/**
 * A leg on the airline's own metal, booked as a positive-space crew seat in the airline's own reservation
 * system (docs/own-airline.md). It answers with a ticket, a refusal, or "pending" and a signed callback later;
 * the api stores that callback's answer on the booking and resumes the task, which settles from it here.
 */
import type { BookingRow } from '@crew/db';
import { BOOK_IN_OWN_SYSTEM, ownSeatOutcomeUnknown, supplierErrorOutcome, supplierReference } from '@crew/engine';
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
  const client = clientOf(conn);
  const flight = seatFlight(b, conn);
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
    return {
      status: 'NEEDS_REVIEW',
      reason: null,
      awaiting: true,
      patch: {
        // The reference the callback must name: a late one for an earlier request on this booking settles nothing.
        flight: {
          ...requestBlock(b),
          supplier: 'OWN_AIRLINE',
          live_mode: true,
          supplier_status: 'REQUESTED',
          request_reference: reference,
        },
      },
    };
  } catch (err) {
    if (isSupplierError(err) && !err.transient) return refusedOutcome(`${err.code}: ${err.message}`);
    // The airline may have taken the request (a timeout, a 5xx): the booking keeps which system and which
    // reference, so a retry asks again under it and a cancellation asks what became of it before anything else.
    if (isSupplierError(err) && err.outcomeUnknown && !err.rateLimited) {
      return {
        ...supplierErrorOutcome(err),
        patch: {
          flight: { ...requestBlock(b), supplier: 'OWN_AIRLINE', live_mode: true, request_reference: reference },
        },
      };
    }
    throw err;
  }
}

/**
 * Gives the booking's crew seat back (an already-cancelled one answers CANCELLED too), under a reference of its own
 * per seat. A request whose answer never came is asked again first, under its own reference (the airline answers a
 * reference with what it did, docs/own-airline.md): a seat it ticketed is then cancelled, one it still works on is
 * waited for (its callback resumes this cancellation), and a refusal leaves nothing to give back.
 */
export async function cancelOwnSeat(
  b: BookingRow,
  conn: OwnAirlineConnection,
  callbackBase: string,
  traveller: FlightTraveller | null,
): Promise<Outcome> {
  const client = clientOf(conn);
  let block = b.flight ?? {};
  if (ownSeatOutcomeUnknown(block)) {
    let result;
    try {
      result = await client.requestSeat({
        reference: block.request_reference!,
        airline_id: b.airline_id,
        booking_id: b.booking_id,
        traveller: travellerOf(traveller ?? travellerOfBooking(b)),
        flight: seatFlight(b, conn),
        callback_url: `${callbackBase}/callbacks/own-airline/${b.airline_id}`,
      });
    } catch (err) {
      if (!isSupplierError(err) || err.transient) throw err;
      // The airline's refusal of the request (409/422): no seat was ticketed. Any other refusal (our signature
      // rejected, an unexpected 4xx) tells nothing of the seat: a person finds out there.
      if (err.status === 409 || err.status === 422) {
        return {
          status: 'CANCELLED',
          reason: `the airline's own system refused the crew seat: ${err.message}; nothing to give back`,
          patch: { flight: { ...block, supplier_status: 'REFUSED', supplier_reason: err.message } },
        };
      }
      return {
        status: 'NEEDS_REVIEW',
        reason: `the airline's own system did not say what became of the crew seat requested under ${block.request_reference} (${err.code}: ${err.message}): cancel it there if it was ticketed`,
      };
    }
    if (result.status === 'PENDING')
      return {
        status: 'NEEDS_REVIEW',
        reason: null,
        awaiting: true,
        patch: { flight: { ...block, supplier_status: 'REQUESTED' } },
      };
    block = { ...block, supplier_status: 'CONFIRMED', pnr: result.order.pnr, ticket_id: result.order.ticket_id };
  }
  const pnr = block.pnr;
  if (!pnr) return { status: 'CANCELLED', reason: 'no crew seat was ticketed in the airline’s own system' };
  // One reference per seat, as for the other suppliers' orders: after a rebook, the new seat's cancellation is not
  // the old seat's repeated (the airline may answer a repeated reference from its first answer).
  await client.cancelSeat({
    reference: supplierReference('cancel', b.booking_id, pnr),
    pnr,
    booking_id: b.booking_id,
    airline_id: b.airline_id,
  });
  return { status: 'CANCELLED', reason: null, patch: { flight: { ...block, supplier_status: 'CANCELLED' } } };
}

/**
 * What the airline's own system did with a seat request whose answer never came, asked again under its reference
 * (it answers a reference with what it did, docs/own-airline.md), with the traveller as the booking names them:
 * the seat it ticketed, PENDING while it still works on it, null when it refused the request (409/422: nothing was
 * ticketed). Any other answer is thrown (a transient one, or a refusal that says nothing of the seat).
 */
export async function askSeatAgain(
  b: BookingRow,
  conn: OwnAirlineConnection,
  callbackBase: string,
  reference: string,
): Promise<FlightOrder | 'PENDING' | null> {
  try {
    const result = await clientOf(conn).requestSeat({
      reference,
      airline_id: b.airline_id,
      booking_id: b.booking_id,
      traveller: travellerOf(travellerOfBooking(b)),
      flight: seatFlight(b, conn),
      callback_url: `${callbackBase}/callbacks/own-airline/${b.airline_id}`,
    });
    return result.status === 'TICKETED' ? result.order : 'PENDING';
  } catch (err) {
    if (isSupplierError(err) && !err.transient && (err.status === 409 || err.status === 422)) return null;
    throw err;
  }
}

/** Gives one seat back by its PNR, under that seat's own cancellation reference (as cancelOwnSeat does). */
export async function giveSeatBack(b: BookingRow, conn: OwnAirlineConnection, pnr: string): Promise<void> {
  await clientOf(conn).cancelSeat({
    reference: supplierReference('cancel', b.booking_id, pnr),
    pnr,
    booking_id: b.booking_id,
    airline_id: b.airline_id,
  });
}

const clientOf = (conn: OwnAirlineConnection) =>
  new OwnAirlineClient({ url: conn.url, carrier: conn.carrier, signingSecret: conn.signingSecret });

/** The flight a seat request names: the rostered leg. */
function seatFlight(b: BookingRow, conn: OwnAirlineConnection) {
  return {
    carrier: conn.carrier,
    flight_number: b.flight_number ?? '',
    from_airport: b.from_airport ?? '',
    to_airport: b.to_airport ?? '',
    departure_date: b.dep_time_local ? b.dep_time_local.slice(0, 10) : (b.duty_date ?? ''),
    // The rostered departure, with the origin's offset (docs/own-airline.md: sent when we know it).
    ...(b.dep_time_local ? { dep_time: b.dep_time_local } : {}),
  };
}

/** The block of a new request: what an earlier request's answer named (a seat cancelled before a rebook, a refusal) is not its. */
function requestBlock(b: BookingRow) {
  const {
    pnr: _pnr,
    ticket_id: _ticket,
    supplier_ref: _ref,
    supplier_status: _status,
    supplier_reason: _reason,
    dep_time: _dep,
    arr_time: _arr,
    cabin: _cabin,
    ...leg
  } = b.flight ?? {};
  return leg;
}

/** The traveller as the booking names them, when the task has no profile to hand (the date of birth is optional). */
function travellerOfBooking(b: BookingRow): FlightTraveller {
  const [first, ...rest] = (b.traveller_name ?? '').split(' ');
  return {
    email: b.traveller_email ?? '',
    first_name: first ?? '',
    last_name: rest.join(' ') || first || '',
    date_of_birth: '',
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

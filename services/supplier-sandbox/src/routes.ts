/** The sandbox's HTTP surface: supplier routes (with latency and faults) and the control API. */
import type { Response } from 'express';
import { Type } from '@sinclair/typebox';
import { ErrorEnvelope } from '@crew/contracts';
import { ApiError, route, type Reply, type RouteSpec } from '@crew/platform';
import { AIRPORTS } from './airports';
import { sandboxErrors } from './errors';
import type { Sandbox } from './sandbox';
import {
  CancelBody,
  ClockBody,
  ControlReservation,
  Fault,
  FaultBody,
  FlightOffer,
  FlightOrder,
  FlightOrderBody,
  FlightSearchQuery,
  HoldReleaseBody,
  HotelAmendBody,
  HotelBookingBody,
  HotelProperty,
  HotelReservation,
  HotelSearchQuery,
  PropertyParams,
  ReferenceQuery,
  ReservationParams,
  ReservationsQuery,
  type FaultOperation,
} from './schemas';

/** Route tags: only `supplier` routes get the simulated latency and faults. */
export const SUPPLIER_TAG = 'supplier';
export const CONTROL_TAG = 'control';

const REJECTIONS: Record<FaultOperation, string> = {
  'hotel.book': 'The hotel refused the booking (no rooms at this rate)',
  'hotel.amend': 'The hotel refused the date change',
  'hotel.cancel': 'The hotel refused the cancellation',
  'flight.search': 'The supplier refused the search for this route',
  'flight.book': 'The airline refused the booking',
  'flight.cancel': 'The airline refused to void the ticket',
};

const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [s, { description: 'error', schema: ErrorEnvelope }]));

/**
 * Holds responses for the `timeout` fault: the operation has been done, its answer is withheld until
 * `holdMs` passes or the client gives up (the realistic worst case, which exercises idempotent retries).
 */
export class Withholder {
  private readonly held = new Set<Response>();

  constructor(private readonly holdMs: number) {}

  /** Resolves true when the hold ran out with the client still waiting, false when the client left. */
  hold(res: Response): Promise<boolean> {
    return new Promise((resolve) => {
      this.held.add(res);
      const timer = setTimeout(() => finish(true), this.holdMs);
      timer.unref();
      const finish = (answer: boolean) => {
        clearTimeout(timer);
        this.held.delete(res);
        res.off('close', onClose);
        resolve(answer);
      };
      const onClose = () => finish(false);
      res.on('close', onClose);
    });
  }

  /** Drops every withheld answer's connection (on shutdown), as a dead supplier would. */
  release(): void {
    for (const res of this.held) res.destroy();
  }
}

/**
 * Calls stopped by the `hold` fault: nothing is done until the control API releases them, then the call goes on as
 * any other. A test keeps a call in flight for exactly as long as it needs, however loaded the machine is.
 */
export class CallHolds {
  private readonly held = new Map<Response, { key: string; go: () => void }>();

  /** Resolves true when the call is released, false when the client left first. */
  wait(res: Response, key: string): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (released: boolean) => {
        this.held.delete(res);
        res.off('close', onClose);
        resolve(released);
      };
      const onClose = () => finish(false);
      this.held.set(res, { key, go: () => finish(true) });
      res.on('close', onClose);
    });
  }

  /** Lets every call held under `key` go on: how many were still waiting. */
  release(key: string): number {
    const waiting = [...this.held.values()].filter((h) => h.key === key);
    for (const h of waiting) h.go();
    return waiting.length;
  }

  /** Drops every held call's connection (on shutdown), as a dead supplier would. */
  drop(): void {
    for (const res of this.held.keys()) res.destroy();
  }
}

export function supplierRoutes(sandbox: Sandbox, withholder: Withholder, holds: CallHolds): RouteSpec[] {
  /** Runs a supplier operation under the oldest fault armed for it, if any (DESIGN section 5). */
  async function underFault(
    operation: FaultOperation,
    res: Response,
    run: (priceDelta: number, currency?: string) => Reply,
  ): Promise<Reply | undefined> {
    const fault = sandbox.faults.take(operation);
    switch (fault?.outcome) {
      case 'error':
        throw sandboxErrors.unavailable();
      case 'rate_limited':
        throw sandboxErrors.rateLimited(fault.retry_after_s ?? 1);
      case 'reject':
        throw sandboxErrors.rejected(REJECTIONS[operation]);
      case 'offer_expired':
        throw sandboxErrors.offerExpired();
      case 'price_change':
        return run(fault.price_delta ?? 0, fault.currency);
      case 'hold':
        return (await holds.wait(res, operation)) ? run(0) : undefined;
      case 'timeout': {
        let answer: () => Reply;
        try {
          const reply = run(0);
          answer = () => reply;
        } catch (err) {
          answer = () => {
            throw err;
          };
        }
        return (await withholder.hold(res)) ? answer() : undefined;
      }
      default:
        return run(0);
    }
  }

  const base = { tags: [SUPPLIER_TAG], auth: 'none' };
  return [
    route({
      ...base,
      method: 'get',
      path: '/airports',
      operationId: 'listAirports',
      summary: 'Airports with GDS hotel inventory',
      responses: { 200: { description: '{airports}' } },
      handler: () => ({
        status: 200,
        body: { airports: AIRPORTS.map(({ code, city, country, timezone }) => ({ code, city, country, timezone })) },
      }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/hotels',
      operationId: 'searchHotels',
      summary: 'Search hotels by name, city or airport (union of the filters, ordered by property_id)',
      query: HotelSearchQuery,
      responses: {
        200: { description: '{hotels, next_after}', schema: Type.Object({ hotels: Type.Array(HotelProperty) }) },
        ...errors(400),
      },
      handler: ({ query }) => ({ status: 200, body: sandbox.searchHotels(query) }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/hotels/:property_id',
      operationId: 'getHotel',
      summary: 'One property',
      params: PropertyParams,
      responses: { 200: { description: 'the property', schema: HotelProperty }, ...errors(404) },
      handler: ({ params }) => ({ status: 200, body: sandbox.getProperty(params.property_id) }),
    }),
    route({
      ...base,
      method: 'post',
      path: '/hotel-reservations',
      operationId: 'bookHotel',
      summary: 'Book a room; idempotent on reference (201 new, 200 the existing reservation)',
      body: HotelBookingBody,
      responses: {
        201: { description: 'booked', schema: HotelReservation },
        200: { description: 'replayed', schema: HotelReservation },
        ...errors(409, 422, 503),
      },
      handler: ({ body, res }) =>
        underFault('hotel.book', res, (delta, currency) => {
          const { reservation, created } = sandbox.bookHotel(body, delta, currency);
          return { status: created ? 201 : 200, body: reservation };
        }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/hotel-reservations',
      operationId: 'findHotelReservations',
      summary: "Find the reservation made with a caller's reference",
      query: ReferenceQuery,
      responses: { 200: { description: '{reservations} (0 or 1)' }, ...errors(400) },
      handler: ({ query }) => ({ status: 200, body: { reservations: sandbox.findHotelReservations(query.reference) } }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/hotel-reservations/:supplier_ref',
      operationId: 'getHotelReservation',
      summary: 'One reservation',
      params: ReservationParams,
      responses: { 200: { description: 'the reservation', schema: HotelReservation }, ...errors(404) },
      handler: ({ params }) => ({ status: 200, body: sandbox.getHotelReservation(params.supplier_ref) }),
    }),
    route({
      ...base,
      method: 'patch',
      path: '/hotel-reservations/:supplier_ref',
      operationId: 'amendHotelReservation',
      summary: 'Change the stay dates; idempotent on reference',
      params: ReservationParams,
      body: HotelAmendBody,
      responses: { 200: { description: 'amended', schema: HotelReservation }, ...errors(404, 409, 422, 503) },
      handler: ({ params, body, res }) =>
        underFault('hotel.amend', res, () => ({ status: 200, body: sandbox.amendHotel(params.supplier_ref, body) })),
    }),
    route({
      ...base,
      method: 'post',
      path: '/hotel-reservations/:supplier_ref/cancel',
      operationId: 'cancelHotelReservation',
      summary: 'Cancel; cancelling a cancelled reservation is a no-op success',
      params: ReservationParams,
      body: CancelBody,
      responses: { 200: { description: 'cancelled', schema: HotelReservation }, ...errors(404, 409, 503) },
      handler: ({ params, res }) =>
        underFault('hotel.cancel', res, () => ({ status: 200, body: sandbox.cancelHotel(params.supplier_ref) })),
    }),
    route({
      ...base,
      method: 'get',
      path: '/flights/search',
      operationId: 'searchFlights',
      summary: 'Offers for a route and date (local at the origin), valid 20 minutes',
      query: FlightSearchQuery,
      responses: {
        200: { description: '{offers}', schema: Type.Object({ offers: Type.Array(FlightOffer) }) },
        ...errors(400, 409, 503),
      },
      handler: ({ query, res }) =>
        underFault('flight.search', res, () => ({ status: 200, body: { offers: sandbox.searchFlights(query) } })),
    }),
    route({
      ...base,
      method: 'get',
      path: '/flights/offers/:flight_option_id',
      operationId: 'getFlightOffer',
      summary:
        'The offer a flight_option_id names (route, date, carrier, flight, cabin, price, expires_at), also once expired',
      params: Type.Object({ flight_option_id: Type.String({ minLength: 1, maxLength: 2000 }) }),
      responses: { 200: { description: 'the offer', schema: FlightOffer }, ...errors(404) },
      handler: ({ params }) => {
        const offer = sandbox.getFlightOffer(params.flight_option_id);
        if (!offer) throw ApiError.notFound('Flight offer');
        return { status: 200, body: offer };
      },
    }),
    route({
      ...base,
      method: 'post',
      path: '/flight-orders',
      operationId: 'bookFlight',
      summary: 'Book and ticket an offer; idempotent on reference (201 new, 200 the existing order)',
      body: FlightOrderBody,
      responses: {
        201: { description: 'ticketed', schema: FlightOrder },
        200: { description: 'replayed', schema: FlightOrder },
        ...errors(409, 422, 503),
      },
      handler: ({ body, res }) =>
        underFault('flight.book', res, (delta, currency) => {
          const { order, created } = sandbox.bookFlight(body, delta, currency);
          return { status: created ? 201 : 200, body: order };
        }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/flight-orders',
      operationId: 'findFlightOrders',
      summary: "Find the order made with a caller's reference",
      query: ReferenceQuery,
      responses: { 200: { description: '{orders} (0 or 1)' }, ...errors(400) },
      handler: ({ query }) => ({ status: 200, body: { orders: sandbox.findFlightOrders(query.reference) } }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/flight-orders/:supplier_ref',
      operationId: 'getFlightOrder',
      summary: 'One order with its live PNR, ticket, transaction and trip-session ids',
      params: ReservationParams,
      responses: { 200: { description: 'the order', schema: FlightOrder }, ...errors(404) },
      handler: ({ params }) => ({ status: 200, body: sandbox.getFlightOrder(params.supplier_ref) }),
    }),
    route({
      ...base,
      method: 'post',
      path: '/flight-orders/:supplier_ref/cancel',
      operationId: 'cancelFlightOrder',
      summary: 'Cancel (void) the ticket; cancelling a cancelled order is a no-op success',
      params: ReservationParams,
      body: CancelBody,
      responses: { 200: { description: 'cancelled', schema: FlightOrder }, ...errors(404, 409, 503) },
      handler: ({ params, res }) =>
        underFault('flight.cancel', res, () => ({ status: 200, body: sandbox.cancelFlight(params.supplier_ref) })),
    }),
  ];
}

/** The control API of DESIGN section 5 (tests only), plus the clock. */
export function controlRoutes(sandbox: Sandbox, holds: CallHolds): RouteSpec[] {
  const base = { tags: [CONTROL_TAG], auth: 'none' };
  return [
    route({
      ...base,
      method: 'post',
      path: '/_control/faults',
      operationId: 'armFault',
      summary: 'Arm a fault for the next count calls of an operation',
      body: FaultBody,
      responses: { 201: { description: 'armed', schema: Fault }, ...errors(422) },
      handler: ({ body }) => ({ status: 201, body: sandbox.faults.arm(body) }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/_control/faults',
      operationId: 'listFaults',
      summary: 'Faults still armed, with their remaining count',
      responses: { 200: { description: '{faults}', schema: Type.Object({ faults: Type.Array(Fault) }) } },
      handler: () => ({ status: 200, body: { faults: sandbox.faults.list() } }),
    }),
    route({
      ...base,
      method: 'delete',
      path: '/_control/faults',
      operationId: 'clearFaults',
      summary: 'Disarm every fault',
      responses: { 204: { description: 'cleared' } },
      handler: () => {
        sandbox.faults.clear();
        return { status: 204 };
      },
    }),
    route({
      ...base,
      method: 'post',
      path: '/_control/holds/release',
      operationId: 'releaseHolds',
      summary: 'Let the calls a hold fault stopped go on',
      body: HoldReleaseBody,
      responses: { 200: { description: '{released}' }, ...errors(422) },
      handler: ({ body }) => ({ status: 200, body: { released: holds.release(body.operation) } }),
    }),
    route({
      ...base,
      method: 'post',
      path: '/_control/reset',
      operationId: 'reset',
      summary: 'Forget all reservations, orders, faults and the clock offset',
      responses: { 204: { description: 'reset' } },
      handler: () => {
        sandbox.reset();
        return { status: 204 };
      },
    }),
    route({
      ...base,
      method: 'get',
      path: '/_control/reservations',
      operationId: 'listReservations',
      summary: 'Every hotel reservation and flight order, oldest first',
      query: ReservationsQuery,
      responses: {
        200: { description: '{reservations}', schema: Type.Object({ reservations: Type.Array(ControlReservation) }) },
      },
      handler: ({ query }) => ({ status: 200, body: { reservations: sandbox.listReservations(query) } }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/_control/calls',
      operationId: 'listCalls',
      summary: 'Supplier calls received since the start or the last reset, by operation',
      responses: {
        200: { description: '{calls}', schema: Type.Object({ calls: Type.Record(Type.String(), Type.Integer()) }) },
      },
      handler: () => ({ status: 200, body: { calls: sandbox.callCounts() } }),
    }),
    route({
      ...base,
      method: 'post',
      path: '/_control/clock',
      operationId: 'advanceClock',
      summary: 'Move the sandbox clock forward (ages offers)',
      body: ClockBody,
      responses: { 200: { description: '{now}' }, ...errors(422) },
      handler: ({ body }) => ({
        status: 200,
        body: { now: new Date(sandbox.advanceClock(body.advance_ms)).toISOString() },
      }),
    }),
  ];
}

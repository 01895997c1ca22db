/**
 * The sandbox's supplier behaviour, independent of HTTP: inventory look-ups, hotel reservations and flight
 * orders kept in memory, idempotent on the caller's reference, and a clock tests can move forward.
 */
import { FaultStore } from './faults';
import { FlightOrders } from './flight-orders';
import { HotelReservations } from './hotel-reservations';
import type { Ledger } from './ledger';
import type {
  ControlReservation,
  FlightOffer,
  FlightOrder,
  FlightOrderBody,
  FlightSearchQuery,
  HotelAmendBody,
  HotelBookingBody,
  HotelProperty,
  HotelReservation,
  HotelSearchQuery,
  ReservationsQuery,
} from './schemas';

export interface SandboxCoreOptions {
  /** Wall clock in epoch ms; `POST /_control/clock` adds an offset on top. */
  clock?: () => number;
  /** HMAC secret of offer ids; random per process when absent. */
  offerSecret?: string;
}

export class Sandbox {
  readonly faults: FaultStore;
  private readonly clock: () => number;
  private offsetMs = 0;
  private seq = 0;
  private readonly hotels: HotelReservations;
  private readonly flights: FlightOrders;
  /** Supplier calls answered, by operation (the control API's `/_control/calls`; benchmarks count round trips). */
  private calls = new Map<string, number>();

  constructor(options: SandboxCoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.faults = new FaultStore(() => this.isoNow());
    const ledger: Ledger = { now: () => this.now(), isoNow: () => this.isoNow(), nextSeq: () => ++this.seq };
    this.hotels = new HotelReservations(ledger);
    this.flights = new FlightOrders(ledger, options.offerSecret);
  }

  now(): number {
    return this.clock() + this.offsetMs;
  }

  isoNow(): string {
    return new Date(this.now()).toISOString();
  }

  advanceClock(ms: number): number {
    this.offsetMs += ms;
    return this.now();
  }

  /** Forgets every reservation, order and fault, and the clock offset. */
  reset(): void {
    this.offsetMs = 0;
    this.seq = 0;
    this.hotels.clear();
    this.flights.clear();
    this.faults.clear();
    this.calls.clear();
  }

  countCall(operation: string): void {
    this.calls.set(operation, (this.calls.get(operation) ?? 0) + 1);
  }

  /** Supplier calls received since the start (or the last reset), by operation id. */
  callCounts(): Record<string, number> {
    return Object.fromEntries([...this.calls].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  // ---- hotels ({@link HotelReservations}) ----

  searchHotels(query: HotelSearchQuery): { hotels: HotelProperty[]; next_after: string | null } {
    return this.hotels.searchHotels(query);
  }

  getProperty(propertyId: string): HotelProperty {
    return this.hotels.getProperty(propertyId);
  }

  /** `created` is false when the reference had already booked: the same reservation is returned. */
  /** `currency`: a price_change fault's quoting currency (the amount is not converted). */
  bookHotel(
    body: HotelBookingBody,
    priceDelta = 0,
    currency?: string,
  ): { reservation: HotelReservation; created: boolean } {
    return this.hotels.bookHotel(body, priceDelta, currency);
  }

  amendHotel(supplierRef: string, body: HotelAmendBody): HotelReservation {
    return this.hotels.amendHotel(supplierRef, body);
  }

  /** Cancelling a cancelled reservation is a successful no-op, so a cancel needs no reference bookkeeping. */
  cancelHotel(supplierRef: string): HotelReservation {
    return this.hotels.cancelHotel(supplierRef);
  }

  getHotelReservation(supplierRef: string): HotelReservation {
    return this.hotels.getHotelReservation(supplierRef);
  }

  findHotelReservations(reference: string): HotelReservation[] {
    return this.hotels.findHotelReservations(reference);
  }

  // ---- flights ({@link FlightOrders}) ----

  searchFlights(query: FlightSearchQuery): FlightOffer[] {
    return this.flights.searchFlights(query);
  }

  /** The offer an id names, as the search gave it (also once expired: `expires_at` says so); undefined for ids not issued here. */
  getFlightOffer(flightOptionId: string): FlightOffer | undefined {
    return this.flights.getFlightOffer(flightOptionId);
  }

  /** `created` is false when the reference had already ordered: the same order is returned. */
  bookFlight(body: FlightOrderBody, priceDelta = 0, currency?: string): { order: FlightOrder; created: boolean } {
    return this.flights.bookFlight(body, priceDelta, currency);
  }

  /** Cancelling a cancelled order is a successful no-op. */
  cancelFlight(supplierRef: string): FlightOrder {
    return this.flights.cancelFlight(supplierRef);
  }

  getFlightOrder(supplierRef: string): FlightOrder {
    return this.flights.getFlightOrder(supplierRef);
  }

  findFlightOrders(reference: string): FlightOrder[] {
    return this.flights.findFlightOrders(reference);
  }

  // ---- control view ----

  /** Every reservation and order, oldest first, flattened for `GET /_control/reservations`. */
  listReservations(filter: ReservationsQuery = {}): ControlReservation[] {
    const rows = [...this.hotels.controlRows(), ...this.flights.controlRows()];
    const email = filter.traveller_email?.toLowerCase();
    return rows
      .filter(
        ({ row }) =>
          (filter.kind === undefined || row.kind === filter.kind) &&
          (filter.status === undefined || row.status === filter.status) &&
          (filter.reference === undefined || row.reference === filter.reference) &&
          (email === undefined || row.traveller_email.toLowerCase() === email),
      )
      .sort((a, b) => a.seq - b.seq)
      .map(({ row }) => row);
  }
}

/**
 * The sandbox's supplier behaviour, independent of HTTP: inventory look-ups, hotel reservations and flight
 * orders kept in memory, idempotent on the caller's reference, and a clock tests can move forward.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { ApiError } from '@crew/platform';
import { MAX_NIGHTS, sandboxErrors } from './errors';
import { FaultStore } from './faults';
import { findCarrier, flightOffersFor } from './flights';
import { findHotel, searchHotels } from './hotels';
import { OFFER_TTL_MS, OfferCodec } from './offers';
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
import { daysBetween } from './time';

interface HotelRecord {
  seq: number;
  reservation: HotelReservation;
  /** What the booking call asked for, to spot a reference reused for something else. */
  fingerprint: string;
  /** Amend references already applied, with the dates each asked for. */
  amends: Map<string, string>;
}

interface FlightRecord {
  seq: number;
  order: FlightOrder;
  fingerprint: string;
}

export interface SandboxCoreOptions {
  /** Wall clock in epoch ms; `POST /_control/clock` adds an offset on top. */
  clock?: () => number;
  /** HMAC secret of offer ids; random per process when absent. */
  offerSecret?: string;
}

const PNR_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function moved(amount: number, delta: number): number {
  return Math.max(0, Math.round((amount + delta) * 100) / 100);
}

function stayNights(checkIn: string, checkOut: string): number {
  const nights = daysBetween(checkIn, checkOut);
  if (nights < 1) throw ApiError.validation([{ field: '/check_out_date', issue: 'must be after check_in_date' }]);
  if (nights > MAX_NIGHTS)
    throw sandboxErrors.noAvailability(`Stays longer than ${MAX_NIGHTS} nights cannot be booked`);
  return nights;
}

export class Sandbox {
  readonly faults: FaultStore;
  private readonly clock: () => number;
  private readonly offers: OfferCodec;
  private offsetMs = 0;
  private seq = 0;
  private hotels = new Map<string, HotelRecord>();
  private hotelRefByReference = new Map<string, string>();
  private flights = new Map<string, FlightRecord>();
  private flightRefByReference = new Map<string, string>();
  private pnrs = new Set<string>();
  /** Supplier calls answered, by operation (the control API's `/_control/calls`; benchmarks count round trips). */
  private calls = new Map<string, number>();

  constructor(options: SandboxCoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.offers = new OfferCodec(options.offerSecret);
    this.faults = new FaultStore(() => this.isoNow());
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
    this.hotelRefByReference.clear();
    this.flights.clear();
    this.flightRefByReference.clear();
    this.pnrs.clear();
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

  // ---- hotels ----

  searchHotels(query: HotelSearchQuery): { hotels: HotelProperty[]; next_after: string | null } {
    if (query.name === undefined && query.city === undefined && query.airport_code === undefined) {
      throw ApiError.invalid('Give at least one of name, city, airport_code', [
        { field: 'query', issue: 'needs name, city or airport_code' },
      ]);
    }
    const limit = query.limit ?? 50;
    const matches = searchHotels(query, query.after);
    const page = matches.slice(0, limit);
    return {
      hotels: page.map((h) => structuredClone(h)),
      next_after: matches.length > limit ? (page[page.length - 1]?.property_id ?? null) : null,
    };
  }

  getProperty(propertyId: string): HotelProperty {
    const hotel = findHotel(propertyId);
    if (!hotel) throw ApiError.notFound('Property');
    return structuredClone(hotel);
  }

  /** `created` is false when the reference had already booked: the same reservation is returned. */
  /** `currency`: a price_change fault's quoting currency (the amount is not converted). */
  bookHotel(
    body: HotelBookingBody,
    priceDelta = 0,
    currency?: string,
  ): { reservation: HotelReservation; created: boolean } {
    const fingerprint = [
      body.property_id,
      body.check_in_date,
      body.check_out_date,
      body.traveller.email.toLowerCase(),
    ].join('|');
    const existing = this.hotelByReference(body.reference);
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw sandboxErrors.referenceReused();
      return { reservation: structuredClone(existing.reservation), created: false };
    }
    const property = findHotel(body.property_id);
    if (!property) throw sandboxErrors.unknownProperty();
    const nights = stayNights(body.check_in_date, body.check_out_date);
    // A negotiated rate is honoured as sent (GDS negotiated rate); otherwise the public rate applies.
    const base = body.rate ?? property.nightly_rate;
    const nightly = { amount: moved(base.amount, priceDelta), currency: currency ?? base.currency };
    const now = this.isoNow();
    const reservation: HotelReservation = {
      supplier_ref: this.newRef('HR', this.hotels),
      reference: body.reference,
      status: 'CONFIRMED',
      property_id: property.property_id,
      property_name: property.name,
      airport_code: property.airport_code,
      check_in_date: body.check_in_date,
      check_out_date: body.check_out_date,
      nights,
      traveller: { ...body.traveller },
      booker_email: body.booker_email,
      nightly_rate: nightly,
      total_price: { amount: moved(nightly.amount * nights, 0), currency: nightly.currency },
      rate_source: body.rate ? 'NEGOTIATED' : 'PUBLIC',
      amendments: 0,
      created_at: now,
      updated_at: now,
      cancelled_at: null,
    };
    this.hotels.set(reservation.supplier_ref, { seq: ++this.seq, reservation, fingerprint, amends: new Map() });
    this.hotelRefByReference.set(body.reference, reservation.supplier_ref);
    return { reservation: structuredClone(reservation), created: true };
  }

  amendHotel(supplierRef: string, body: HotelAmendBody): HotelReservation {
    const record = this.hotelRecord(supplierRef);
    const dates = `${body.check_in_date}|${body.check_out_date}`;
    const applied = record.amends.get(body.reference);
    if (applied !== undefined) {
      if (applied !== dates) throw sandboxErrors.referenceReused();
      return structuredClone(record.reservation);
    }
    const r = record.reservation;
    if (r.status === 'CANCELLED') throw sandboxErrors.cancelled();
    const nights = stayNights(body.check_in_date, body.check_out_date);
    if (body.rate) {
      r.nightly_rate = { ...body.rate };
      r.rate_source = 'NEGOTIATED';
    }
    r.check_in_date = body.check_in_date;
    r.check_out_date = body.check_out_date;
    r.nights = nights;
    r.total_price = { amount: moved(r.nightly_rate.amount * nights, 0), currency: r.nightly_rate.currency };
    r.amendments += 1;
    r.updated_at = this.isoNow();
    record.amends.set(body.reference, dates);
    return structuredClone(r);
  }

  /** Cancelling a cancelled reservation is a successful no-op, so a cancel needs no reference bookkeeping. */
  cancelHotel(supplierRef: string): HotelReservation {
    const r = this.hotelRecord(supplierRef).reservation;
    if (r.status !== 'CANCELLED') {
      r.status = 'CANCELLED';
      r.cancelled_at = r.updated_at = this.isoNow();
    }
    return structuredClone(r);
  }

  getHotelReservation(supplierRef: string): HotelReservation {
    return structuredClone(this.hotelRecord(supplierRef).reservation);
  }

  findHotelReservations(reference: string): HotelReservation[] {
    const record = this.hotelByReference(reference);
    return record ? [structuredClone(record.reservation)] : [];
  }

  // ---- flights ----

  searchFlights(query: FlightSearchQuery): FlightOffer[] {
    if (query.from === query.to)
      throw ApiError.invalid('from and to must differ', [{ field: 'query.to', issue: 'must differ from from' }]);
    const issuedAt = this.now();
    const expiresAt = new Date(issuedAt + OFFER_TTL_MS).toISOString();
    return flightOffersFor(query.from, query.to, query.date)
      .filter((o) => query.cabin === undefined || o.cabin === query.cabin)
      .map((o) => ({
        flight_option_id: this.offers.encode({
          from: o.from_airport,
          to: o.to_airport,
          date: query.date,
          flightNumber: o.flight_number,
          cabin: o.cabin,
          issuedAt,
        }),
        ...o,
        expires_at: expiresAt,
      }));
  }

  /** The offer an id names, as the search gave it (also once expired: `expires_at` says so); undefined for ids not issued here. */
  getFlightOffer(flightOptionId: string): FlightOffer | undefined {
    const key = this.offers.decode(flightOptionId);
    if (!key) return undefined;
    const offer = flightOffersFor(key.from, key.to, key.date).find(
      (o) => o.flight_number === key.flightNumber && o.cabin === key.cabin,
    );
    return (
      offer && {
        flight_option_id: flightOptionId,
        ...offer,
        expires_at: new Date(key.issuedAt + OFFER_TTL_MS).toISOString(),
      }
    );
  }

  /** `created` is false when the reference had already ordered: the same order is returned. */
  bookFlight(body: FlightOrderBody, priceDelta = 0, currency?: string): { order: FlightOrder; created: boolean } {
    const key = this.offers.decode(body.flight_option_id);
    if (!key) throw sandboxErrors.invalidOffer();
    const fingerprint = [
      key.from,
      key.to,
      key.date,
      key.flightNumber,
      key.cabin,
      body.traveller.email.toLowerCase(),
    ].join('|');
    // A repeated call returns the order it made, even once the offer has expired since.
    const existing = this.flightByReference(body.reference);
    if (existing) {
      if (existing.fingerprint !== fingerprint) throw sandboxErrors.referenceReused();
      return { order: structuredClone(existing.order), created: false };
    }
    if (this.now() >= key.issuedAt + OFFER_TTL_MS) throw sandboxErrors.offerExpired();
    const offer = flightOffersFor(key.from, key.to, key.date).find(
      (o) => o.flight_number === key.flightNumber && o.cabin === key.cabin,
    );
    if (!offer) throw sandboxErrors.invalidOffer();
    const { price, ...flight } = offer;
    const now = this.isoNow();
    const order: FlightOrder = {
      supplier_ref: this.newRef('FO', this.flights),
      reference: body.reference,
      status: 'CONFIRMED',
      pnr: this.newPnr(),
      ticket_id: `${findCarrier(flight.airline_code)?.ticketPrefix ?? '999'}${String(randomInt(0, 1e10)).padStart(10, '0')}`,
      transaction_id: randomUUID(),
      trip_session_id: randomUUID(),
      flight,
      price: { amount: moved(price.amount, priceDelta), currency: currency ?? price.currency },
      traveller: { ...body.traveller },
      booker_email: body.booker_email,
      created_at: now,
      updated_at: now,
      cancelled_at: null,
    };
    this.flights.set(order.supplier_ref, { seq: ++this.seq, order, fingerprint });
    this.flightRefByReference.set(body.reference, order.supplier_ref);
    return { order: structuredClone(order), created: true };
  }

  /** Cancelling a cancelled order is a successful no-op. */
  cancelFlight(supplierRef: string): FlightOrder {
    const o = this.flightRecord(supplierRef).order;
    if (o.status !== 'CANCELLED') {
      o.status = 'CANCELLED';
      o.cancelled_at = o.updated_at = this.isoNow();
    }
    return structuredClone(o);
  }

  getFlightOrder(supplierRef: string): FlightOrder {
    return structuredClone(this.flightRecord(supplierRef).order);
  }

  findFlightOrders(reference: string): FlightOrder[] {
    const record = this.flightByReference(reference);
    return record ? [structuredClone(record.order)] : [];
  }

  // ---- control view ----

  /** Every reservation and order, oldest first, flattened for `GET /_control/reservations`. */
  listReservations(filter: ReservationsQuery = {}): ControlReservation[] {
    const rows: Array<{ seq: number; row: ControlReservation }> = [];
    for (const { seq, reservation: r } of this.hotels.values()) {
      rows.push({
        seq,
        row: {
          supplier_ref: r.supplier_ref,
          kind: 'hotel',
          status: r.status,
          reference: r.reference,
          traveller_email: r.traveller.email,
          booker_email: r.booker_email,
          price: { ...r.total_price },
          created_at: r.created_at,
          updated_at: r.updated_at,
          cancelled_at: r.cancelled_at,
          property_id: r.property_id,
          property_name: r.property_name,
          airport_code: r.airport_code,
          check_in_date: r.check_in_date,
          check_out_date: r.check_out_date,
          nightly_rate: { ...r.nightly_rate },
          rate_source: r.rate_source,
          amendments: r.amendments,
        },
      });
    }
    for (const { seq, order: o } of this.flights.values()) {
      rows.push({
        seq,
        row: {
          supplier_ref: o.supplier_ref,
          kind: 'flight',
          status: o.status,
          reference: o.reference,
          traveller_email: o.traveller.email,
          booker_email: o.booker_email,
          price: { ...o.price },
          created_at: o.created_at,
          updated_at: o.updated_at,
          cancelled_at: o.cancelled_at,
          airline_code: o.flight.airline_code,
          flight_number: o.flight.flight_number,
          from_airport: o.flight.from_airport,
          to_airport: o.flight.to_airport,
          dep_time: o.flight.dep_time,
          arr_time: o.flight.arr_time,
          cabin: o.flight.cabin,
          pnr: o.pnr,
          ticket_id: o.ticket_id,
        },
      });
    }
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

  // ---- helpers ----

  private hotelRecord(supplierRef: string): HotelRecord {
    const record = this.hotels.get(supplierRef);
    if (!record) throw ApiError.notFound('Hotel reservation');
    return record;
  }

  private flightRecord(supplierRef: string): FlightRecord {
    const record = this.flights.get(supplierRef);
    if (!record) throw ApiError.notFound('Flight order');
    return record;
  }

  private hotelByReference(reference: string): HotelRecord | undefined {
    const ref = this.hotelRefByReference.get(reference);
    return ref === undefined ? undefined : this.hotels.get(ref);
  }

  private flightByReference(reference: string): FlightRecord | undefined {
    const ref = this.flightRefByReference.get(reference);
    return ref === undefined ? undefined : this.flights.get(ref);
  }

  /** A fresh supplier reference such as `HR-3F9A0C12B7`, unique within `taken`. */
  private newRef(prefix: string, taken: Map<string, unknown>): string {
    for (;;) {
      const ref = `${prefix}-${randomBytes(5).toString('hex').toUpperCase()}`;
      if (!taken.has(ref)) return ref;
    }
  }

  private newPnr(): string {
    for (;;) {
      const pnr = [...randomBytes(6)].map((b) => PNR_ALPHABET[b % PNR_ALPHABET.length]).join('');
      if (!this.pnrs.has(pnr)) {
        this.pnrs.add(pnr);
        return pnr;
      }
    }
  }
}

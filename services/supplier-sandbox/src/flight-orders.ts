/** The sandbox's flight offers and orders, kept in memory, idempotent on the caller's reference. */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { ApiError } from '@crew/platform';
import { sandboxErrors } from './errors';
import { findCarrier, flightOffersFor } from './flights';
import { moved, newRef, type Ledger } from './ledger';
import { OFFER_TTL_MS, OfferCodec } from './offers';
import type { ControlReservation, FlightOffer, FlightOrder, FlightOrderBody, FlightSearchQuery } from './schemas';

interface FlightRecord {
  seq: number;
  order: FlightOrder;
  fingerprint: string;
}

const PNR_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export class FlightOrders {
  private readonly offers: OfferCodec;
  private flights = new Map<string, FlightRecord>();
  private flightRefByReference = new Map<string, string>();
  private pnrs = new Set<string>();

  constructor(
    private readonly ledger: Ledger,
    offerSecret: string | undefined,
  ) {
    this.offers = new OfferCodec(offerSecret);
  }

  clear(): void {
    this.flights.clear();
    this.flightRefByReference.clear();
    this.pnrs.clear();
  }

  searchFlights(query: FlightSearchQuery): FlightOffer[] {
    if (query.from === query.to)
      throw ApiError.invalid('from and to must differ', [{ field: 'query.to', issue: 'must differ from from' }]);
    const issuedAt = this.ledger.now();
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
    if (this.ledger.now() >= key.issuedAt + OFFER_TTL_MS) throw sandboxErrors.offerExpired();
    const offer = flightOffersFor(key.from, key.to, key.date).find(
      (o) => o.flight_number === key.flightNumber && o.cabin === key.cabin,
    );
    if (!offer) throw sandboxErrors.invalidOffer();
    const { price, ...flight } = offer;
    const now = this.ledger.isoNow();
    const order: FlightOrder = {
      supplier_ref: newRef('FO', this.flights),
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
    this.flights.set(order.supplier_ref, { seq: this.ledger.nextSeq(), order, fingerprint });
    this.flightRefByReference.set(body.reference, order.supplier_ref);
    return { order: structuredClone(order), created: true };
  }

  /** Cancelling a cancelled order is a successful no-op. */
  cancelFlight(supplierRef: string): FlightOrder {
    const o = this.flightRecord(supplierRef).order;
    if (o.status !== 'CANCELLED') {
      o.status = 'CANCELLED';
      o.cancelled_at = o.updated_at = this.ledger.isoNow();
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

  /** The control view's rows, each with its place in the sequence. */
  controlRows(): Array<{ seq: number; row: ControlReservation }> {
    const rows: Array<{ seq: number; row: ControlReservation }> = [];
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
    return rows;
  }

  private flightRecord(supplierRef: string): FlightRecord {
    const record = this.flights.get(supplierRef);
    if (!record) throw ApiError.notFound('Flight order');
    return record;
  }

  private flightByReference(reference: string): FlightRecord | undefined {
    const ref = this.flightRefByReference.get(reference);
    return ref === undefined ? undefined : this.flights.get(ref);
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

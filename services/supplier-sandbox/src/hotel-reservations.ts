/** The sandbox's hotel reservations, kept in memory, idempotent on the caller's reference. */
import { ApiError } from '@crew/platform';
import { MAX_NIGHTS, sandboxErrors } from './errors';
import { findHotel, searchHotels } from './hotels';
import { moved, newRef, type Ledger } from './ledger';
import type {
  ControlReservation,
  HotelAmendBody,
  HotelBookingBody,
  HotelProperty,
  HotelReservation,
  HotelSearchQuery,
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

function stayNights(checkIn: string, checkOut: string): number {
  const nights = daysBetween(checkIn, checkOut);
  if (nights < 1) throw ApiError.validation([{ field: '/check_out_date', issue: 'must be after check_in_date' }]);
  if (nights > MAX_NIGHTS)
    throw sandboxErrors.noAvailability(`Stays longer than ${MAX_NIGHTS} nights cannot be booked`);
  return nights;
}

export class HotelReservations {
  private hotels = new Map<string, HotelRecord>();
  private hotelRefByReference = new Map<string, string>();

  constructor(private readonly ledger: Ledger) {}

  clear(): void {
    this.hotels.clear();
    this.hotelRefByReference.clear();
  }

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
    const now = this.ledger.isoNow();
    const reservation: HotelReservation = {
      supplier_ref: newRef('HR', this.hotels),
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
    this.hotels.set(reservation.supplier_ref, {
      seq: this.ledger.nextSeq(),
      reservation,
      fingerprint,
      amends: new Map(),
    });
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
    r.updated_at = this.ledger.isoNow();
    record.amends.set(body.reference, dates);
    return structuredClone(r);
  }

  /** Cancelling a cancelled reservation is a successful no-op, so a cancel needs no reference bookkeeping. */
  cancelHotel(supplierRef: string): HotelReservation {
    const r = this.hotelRecord(supplierRef).reservation;
    if (r.status !== 'CANCELLED') {
      r.status = 'CANCELLED';
      r.cancelled_at = r.updated_at = this.ledger.isoNow();
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

  /** The control view's rows, each with its place in the sequence. */
  controlRows(): Array<{ seq: number; row: ControlReservation }> {
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
    return rows;
  }

  private hotelRecord(supplierRef: string): HotelRecord {
    const record = this.hotels.get(supplierRef);
    if (!record) throw ApiError.notFound('Hotel reservation');
    return record;
  }

  private hotelByReference(reference: string): HotelRecord | undefined {
    const ref = this.hotelRefByReference.get(reference);
    return ref === undefined ? undefined : this.hotels.get(ref);
  }
}

/**
 * Duffel Stays as a HotelSupplier, on the airline's contracted terms. A stay is searched at the contracted
 * accommodation (by id, with the contract's negotiated rates when it has a rate access code: Duffel matches
 * those best effort), its rates fetched (a search result carries no rooms until then), one rate chosen, quoted
 * and booked. Only rates the airline pays at booking from its Duffel balance are booked, and among those the
 * contract decides (the request's judge: base amount night by night, under the airline's lever). Stays has
 * no amendment: a later check-out is an adjoining second booking, any other change is refused. Duffel keeps
 * no idempotency key, so our reference rides in the booking's metadata and `findReservation` finds it there.
 */
import type { Duffel } from '@duffel/api';
import type { StaysBooking } from '@duffel/api/types';
import { SupplierError, SupplierErrorCode } from '../errors';
import type {
  CancelRequest,
  ContractedStay,
  HotelAmendRequest,
  HotelBookingRequest,
  HotelGuest,
  HotelLookupHint,
  HotelProperty,
  HotelReservation,
  HotelSearchPage,
  HotelSearchQuery,
  HotelSupplier,
} from '../types';
import { duffelCall } from './client';
import { guestOf, sameStay, type StayGuest } from './stays-guests';
import {
  baseOf,
  bookingIds,
  nightsBetween,
  propertyNear,
  STAY_META,
  stayMetadata,
  toReservation,
} from './stays-mapping';
import { amountsOf, chooseRate, refusal } from './stays-rates';

export interface DuffelHotelOptions {
  /** Whether the token is live (real rooms, real money); stamped on every reservation we map. */
  liveMode: boolean;
  /** Deadline of each Duffel call. */
  timeoutMs: number;
  /** Most bookings `findReservation` reads before giving up (default 1000). */
  findScanLimit?: number;
}

interface StayOrder {
  reference: string;
  booker: string;
  property_id: string;
  check_in_date: string;
  check_out_date: string;
  guest: StayGuest;
  contract?: ContractedStay | undefined;
}

const isCode = (err: unknown, code: string) => err instanceof SupplierError && err.code === code;

export class DuffelHotelSupplier implements HotelSupplier {
  constructor(
    private readonly duffel: Duffel,
    private readonly options: DuffelHotelOptions,
  ) {}

  private call<T>(operation: string, run: () => Promise<T>, creates = false): Promise<T> {
    return duffelCall(operation, run, { timeoutMs: this.options.timeoutMs, creates });
  }

  /**
   * The accommodation the account knows near an airport (Stays lists by position only, so the airport is
   * placed through Duffel's Places first), optionally narrowed by a part of the name. Without an airport, or
   * for one Duffel cannot place, nothing: Stays has no directory by name or city alone.
   */
  async searchHotels(query: HotelSearchQuery): Promise<HotelSearchPage> {
    const code = query.airport_code?.toUpperCase();
    const airport = code ? await this.airportPosition(code) : null;
    if (!code || !airport) return { hotels: [], next_after: null };
    const name = query.name?.toLowerCase();
    const found: HotelProperty[] = [];
    let scanned = 0;
    let after: string | null | undefined;
    do {
      const params = {
        latitude: airport.latitude,
        longitude: airport.longitude,
        radius: STAYS_SEARCH_RADIUS_KM,
        limit: 200,
        ...(after ? { after } : {}),
      };
      const page = await this.call('hotel.search_properties', () => this.duffel.stays.accommodation.list(params));
      for (const acc of page.data) {
        scanned++;
        if (!name || acc.name.toLowerCase().includes(name)) found.push(propertyNear(acc, code, airport));
      }
      after = page.meta?.after;
    } while (after && scanned < SEARCH_SCAN_LIMIT);
    // Ordered by property_id, as the port promises, so `after` is a keyset cursor across calls.
    const ordered = found
      .filter((h) => !query.after || h.property_id > query.after)
      .sort((a, b) => (a.property_id < b.property_id ? -1 : 1));
    const limit = query.limit ?? 50;
    const hotels = ordered.slice(0, limit);
    return { hotels, next_after: ordered.length > limit ? (hotels[hotels.length - 1]?.property_id ?? null) : null };
  }

  /** The airport's position from Duffel's Places (null when Duffel names no airport with that code). */
  private async airportPosition(code: string): Promise<{ latitude: number; longitude: number } | null> {
    const { data } = await this.call('hotel.place_airport', () => this.duffel.suggestions.list({ name: code }));
    for (const place of data) {
      const airports = place.type === 'airport' ? [place] : (place.airports ?? []);
      const hit = airports.find((a) => a.iata_code === code && a.latitude !== null && a.longitude !== null);
      if (hit) return { latitude: hit.latitude!, longitude: hit.longitude! };
    }
    return null;
  }

  /** The accommodation an `acc_…` id names in the account's Stays; null when Duffel does not know it. */
  async getProperty(propertyId: string): Promise<HotelProperty | null> {
    if (!propertyId.startsWith('acc_')) return null;
    try {
      const { data } = await this.call('hotel.get_property', () => this.duffel.stays.accommodation.get(propertyId));
      return propertyNear(data);
    } catch (err) {
      if (isCode(err, SupplierErrorCode.NOT_FOUND)) return null;
      throw err;
    }
  }

  async bookHotel(request: HotelBookingRequest): Promise<HotelReservation> {
    const booking = await this.book({
      reference: request.reference,
      booker: request.booker_email,
      property_id: request.property_id,
      check_in_date: request.check_in_date,
      check_out_date: request.check_out_date,
      guest: guestOf(request.traveller, request.phone_number),
      contract: request.contract,
    });
    return toReservation([booking], this.options.liveMode);
  }

  /** Search, fetch rates, choose, quote, book: one Stays booking for the order's dates. */
  private async book(order: StayOrder): Promise<StaysBooking> {
    const op = 'hotel.book';
    if (!order.property_id.startsWith('acc_'))
      throw refusal(op, SupplierErrorCode.UNKNOWN_PROPERTY, `${order.property_id} is not a Duffel accommodation`);
    const negotiated = order.contract?.rate_access_code
      ? await this.negotiatedRateIds(order.contract.rate_access_code, order.property_id)
      : [];
    const { data: found } = await this.call('hotel.search', () =>
      this.duffel.stays.search({
        accommodation: { ids: [order.property_id], fetch_rates: false },
        check_in_date: order.check_in_date,
        check_out_date: order.check_out_date,
        rooms: 1,
        guests: [{ type: 'adult' }],
        ...(negotiated.length > 0 ? { negotiated_rate_ids: negotiated } : {}),
      }),
    );
    const result = found.results.find((r) => r.accommodation.id === order.property_id);
    if (!result)
      throw refusal(
        op,
        SupplierErrorCode.NO_AVAILABILITY,
        `no room at ${order.property_id} for ${order.check_in_date}..${order.check_out_date}`,
      );
    const { data: withRates } = await this.call('hotel.fetch_rates', () =>
      this.duffel.stays.searchResults.fetchAllRates(result.id),
    );
    const rates = withRates.accommodation.rooms.flatMap((room) => room.rates);
    const nights = nightsBetween(order.check_in_date, order.check_out_date);
    const chosen = chooseRate(rates, nights, order.contract);
    let quote;
    try {
      quote = (await this.call('hotel.quote', () => this.duffel.stays.quotes.create(chosen.rate.id))).data;
    } catch (err) {
      if (err instanceof SupplierError && err.kind === 'refusal')
        throw refusal(op, SupplierErrorCode.NO_AVAILABILITY, `the rate is no longer available (${err.message})`);
      throw err;
    }
    // The quote is the price booked: it must still be paid at booking and still pass the contract.
    if (Number(quote.due_at_accommodation_amount ?? 0) > 0 || Number(quote.deposit_amount ?? 0) > 0)
      throw refusal(op, 'NO_PREPAID_RATE', 'the quote leaves an amount to pay at the hotel');
    const verdict =
      order.contract && quote.base_amount !== chosen.rate.base_amount
        ? order.contract.judge(baseOf(quote), nights)
        : chosen.verdict;
    if (verdict && !verdict.ok)
      throw refusal(op, 'RATE_MISMATCH', verdict.reason ?? 'the quoted rate is not the contract’s');
    const metadata = stayMetadata(
      order.reference,
      order.booker,
      { ...chosen.rate, ...amountsOf(quote) },
      verdict?.flag ?? null,
    );
    const { data } = await this.call(
      op,
      () =>
        this.duffel.stays.bookings.create({
          quote_id: quote.id,
          guests: [{ given_name: order.guest.given_name, family_name: order.guest.family_name }],
          email: order.guest.email,
          phone_number: order.guest.phone_number,
          metadata,
        }),
      true,
    );
    return data;
  }

  /** The account's negotiated rates for this access code that cover the accommodation (best effort: none on failure). */
  private async negotiatedRateIds(code: string, accommodationId: string): Promise<string[]> {
    try {
      const { data } = await this.call('hotel.negotiated_rates', () =>
        this.duffel.stays.negotiatedRates.list({ limit: 200 }),
      );
      return data
        .filter((r) => r.rate_access_code === code && (r.accommodation_ids ?? []).includes(accommodationId))
        .map((r) => r.id);
    } catch (err) {
      if (err instanceof SupplierError && err.kind === 'refusal') return [];
      throw err;
    }
  }

  private async bookingsOf(supplierRef: string): Promise<StaysBooking[] | null> {
    const ids = bookingIds(supplierRef);
    if (ids.length === 0 || !ids.every((id) => id.startsWith('bok_'))) return null;
    const bookings: StaysBooking[] = [];
    for (const id of ids) {
      try {
        bookings.push((await this.call('hotel.get_reservation', () => this.duffel.stays.bookings.get(id))).data);
      } catch (err) {
        if (isCode(err, SupplierErrorCode.NOT_FOUND)) return null;
        throw err;
      }
    }
    return bookings;
  }

  async getReservation(supplierRef: string): Promise<HotelReservation | null> {
    const bookings = await this.bookingsOf(supplierRef);
    return bookings ? toReservation(bookings, this.options.liveMode) : null;
  }

  /**
   * An extension (same check-in, later check-out) is a second booking for the added nights at the same
   * accommodation, for the same guest; any other change is refused (the room is kept). A repeat of an
   * extension already made finds it by its reference instead of booking again.
   */
  async amendHotel(request: HotelAmendRequest): Promise<HotelReservation> {
    const op = 'hotel.amend';
    const bookings = await this.bookingsOf(request.supplier_ref);
    if (!bookings) throw refusal(op, SupplierErrorCode.NOT_FOUND, `no Stays booking ${request.supplier_ref}`);
    const current = toReservation(bookings, this.options.liveMode);
    if (current.status === 'CANCELLED')
      throw refusal(op, SupplierErrorCode.RESERVATION_CANCELLED, 'the reservation is cancelled');
    if (request.check_in_date === current.check_in_date && request.check_out_date === current.check_out_date)
      return current;
    if (request.check_in_date !== current.check_in_date || request.check_out_date < current.check_out_date) {
      throw refusal(
        op,
        'AMEND_NOT_SUPPORTED',
        'Duffel Stays cannot change a booking’s dates; only a later check-out is booked, as an adjoining reservation',
      );
    }
    const last = bookings[bookings.length - 1]!;
    const hint = {
      property_id: current.property_id,
      check_in_date: current.check_out_date,
      check_out_date: request.check_out_date,
    };
    const earlier = await this.findBooking(request.reference, hint);
    const added =
      earlier ??
      (await this.book({
        reference: request.reference,
        booker: current.booker_email,
        ...hint,
        guest: {
          given_name: last.guests[0]?.given_name ?? '',
          family_name: last.guests[0]?.family_name ?? '',
          email: last.email,
          phone_number: last.phone_number,
        },
        contract: request.contract,
      }));
    return toReservation([...bookings, added], this.options.liveMode);
  }

  /** Cancels every booking of the stay; one already cancelled is a repeat and succeeds. */
  async cancelHotel({ supplier_ref }: CancelRequest): Promise<HotelReservation> {
    const ids = bookingIds(supplier_ref);
    if (ids.length === 0) throw refusal('hotel.cancel', SupplierErrorCode.NOT_FOUND, 'no supplier_ref');
    const bookings: StaysBooking[] = [];
    for (const id of ids) bookings.push(await this.cancelOne(id));
    return toReservation(bookings, this.options.liveMode);
  }

  private async cancelOne(id: string): Promise<StaysBooking> {
    try {
      return (await this.call('hotel.cancel', () => this.duffel.stays.bookings.cancel(id), true)).data;
    } catch (err) {
      if (!(err instanceof SupplierError) || err.kind !== 'refusal' || err.code === SupplierErrorCode.NOT_FOUND)
        throw err;
      const { data } = await this.call('hotel.get_reservation', () => this.duffel.stays.bookings.get(id));
      if (data.status === 'cancelled') return data;
      throw new SupplierError('refusal', SupplierErrorCode.CANCEL_REFUSED, err.message, {
        operation: 'hotel.cancel',
        ...(err.status === undefined ? {} : { status: err.status }),
        details: err.details,
      });
    }
  }

  async findReservation(reference: string, hint?: HotelLookupHint): Promise<HotelReservation | null> {
    const booking = await this.findBooking(reference, hint);
    return booking ? toReservation([booking], this.options.liveMode) : null;
  }

  /**
   * The account's bookings, matched on the reference we put in the metadata; else (a booking whose metadata
   * did not keep it) a confirmed one at the hint's accommodation and dates, for the hint's guest, that names
   * no other reference of ours.
   */
  private async findBooking(
    reference: string,
    hint?: Omit<HotelLookupHint, 'traveller'> & { traveller?: HotelGuest },
  ): Promise<StaysBooking | null> {
    const limit = this.options.findScanLimit ?? 1000;
    let fallback: StaysBooking | null = null;
    let scanned = 0;
    let after: string | null | undefined;
    do {
      const page = await this.call('hotel.find_reservation', () =>
        this.duffel.stays.bookings.list({ limit: 200, ...(after ? { after } : {}) }),
      );
      for (const b of page.data) {
        scanned++;
        const ours = b.metadata?.[STAY_META.reference];
        if (ours === reference) return b;
        if (!fallback && !ours && hint && sameStay(b, hint)) fallback = b;
      }
      after = page.meta?.after;
    } while (after && scanned < limit);
    return fallback;
  }
}

/** How far from the airport an accommodation still counts as a layover hotel there. */
export const STAYS_SEARCH_RADIUS_KM = 15;
/** Most accommodation one search reads (a dense city centre has more within the radius than a crew would scroll). */
const SEARCH_SCAN_LIMIT = 1000;

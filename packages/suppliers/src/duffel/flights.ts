/**
 * Duffel Air as a FlightSupplier. Our FlightOffer is one segment, so only nonstop offers are returned (one
 * slice, one segment; a technical stop inside a segment is kept). Orders are instant, paid from the Duffel
 * balance at exactly the offer's current total; Duffel keeps no idempotency key, so our reference rides in
 * the order's metadata and `findOrder` finds it there.
 *
 * An offer this adapter found in its own search moments ago is ordered as the search gave it: search → order
 * is two calls, as at any supplier. Duffel checks the payment against the offer's current total and refuses
 * `price_changed` when it moved; only then is the offer read again and the price rules decide. Whatever the
 * mode, a total above the request's fare ceiling is never ordered.
 */
import type { Duffel } from '@duffel/api';
import type { CreateOrderPassenger, Offer, Order, OrderCancellation } from '@duffel/api/types';
import { SupplierError, SupplierErrorCode } from '../errors';
import type {
  CancelRequest,
  FlightBookingRequest,
  FlightOffer,
  FlightOrder,
  FlightSearchQuery,
  FlightSupplier,
  FlightTraveller,
  OrderLookupHint,
} from '../types';
import { duffelCall } from './client';
import {
  META,
  OFFER_WINDOW_MS,
  nonstopSegment,
  parseOptionId,
  toCabinClass,
  toFlightOffer,
  toFlightOrder,
  toSegment,
} from './mapping';

export interface DuffelFlightOptions {
  /** Whether the token is live (real tickets, real money); stamped on every order we map. */
  liveMode: boolean;
  /** Deadline of each Duffel call. */
  timeoutMs: number;
  now?: () => Date;
  /** Most orders `findOrder` reads before giving up (default 1000). */
  findOrderScanLimit?: number;
  /** How long an offer of our own search is ordered without reading it again (default 60 s; 0: always read). */
  searchedOfferMs?: number;
}

/** An offer as a search answers it: everything an order needs (total, passenger ids, documents), no services. */
type SearchedOffer = Omit<Offer, 'available_services'>;

/** Offers of recent searches kept per adapter; the oldest go first (a booking orders within a second of its search). */
const SEARCHED_OFFERS_KEPT = 2000;
const DEFAULT_SEARCHED_OFFER_MS = 60_000;

/** Ours under STRICT before ordering, and Duffel's `price_changed` (upper-snaked) when the payment no longer matches. */
const PRICE_CHANGED = 'PRICE_CHANGED';

const isCode = (err: unknown, code: string) => err instanceof SupplierError && err.code === code;

/** Our order: it carries our reference, and departs on the hint's date when one is given (checked on our side). */
function isOurOrder(order: Order, reference: string, date?: string): boolean {
  if (order.metadata?.[META.reference] !== reference) return false;
  const departure = order.slices[0]?.segments[0]?.departing_at.slice(0, 10);
  return !date || !departure || departure === date;
}

export class DuffelFlightSupplier implements FlightSupplier {
  private readonly now: () => Date;
  private readonly searchedOfferMs: number;
  /** Offer id → the offer, its offer request and when we received it. */
  private readonly searched = new Map<string, { offer: SearchedOffer; offerRequestId: string; at: number }>();

  constructor(
    private readonly duffel: Duffel,
    private readonly options: DuffelFlightOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.searchedOfferMs = options.searchedOfferMs ?? DEFAULT_SEARCHED_OFFER_MS;
  }

  private call<T>(operation: string, run: () => Promise<T>, creates = false): Promise<T> {
    return duffelCall(operation, run, { timeoutMs: this.options.timeoutMs, creates });
  }

  async searchFlights(query: FlightSearchQuery): Promise<FlightOffer[]> {
    const { data } = await this.call('flight.search', () =>
      this.duffel.offerRequests.create({
        slices: [
          {
            origin: query.from_airport,
            destination: query.to_airport,
            departure_date: query.date,
            departure_time: null,
            arrival_time: null,
          },
        ],
        passengers: [{ type: 'adult' }],
        ...(query.cabin ? { cabin_class: toCabinClass(query.cabin) } : {}),
        max_connections: 0,
        return_offers: true,
      }),
    );
    const offers: FlightOffer[] = [];
    const at = this.now().getTime();
    for (const offer of data.offers) {
      const mapped = toFlightOffer(offer, data.id);
      if (mapped && mapped.from_airport === query.from_airport && mapped.to_airport === query.to_airport) {
        offers.push(mapped);
        this.keepSearched(offer, data.id, at);
      }
    }
    return offers.sort((a, b) => a.dep_time.localeCompare(b.dep_time) || a.price.amount - b.price.amount);
  }

  private keepSearched(offer: SearchedOffer, offerRequestId: string, at: number): void {
    if (this.searchedOfferMs <= 0) return;
    this.searched.set(offer.id, { offer, offerRequestId, at });
    if (this.searched.size > SEARCHED_OFFERS_KEPT) this.searched.delete(this.searched.keys().next().value!);
  }

  /** The offer as our own recent search gave it (taken: used once), when it came from the same offer request. */
  private takeSearched(offerId: string, offerRequestId: string | undefined): SearchedOffer | null {
    const kept = this.searched.get(offerId);
    if (!kept) return null;
    this.searched.delete(offerId);
    const fresh = this.now().getTime() - kept.at < this.searchedOfferMs;
    return fresh && kept.offerRequestId === offerRequestId ? kept.offer : null;
  }

  /** The raw offer; null when Duffel does not know the id. */
  private async fetchOffer(offerId: string): Promise<Offer | null> {
    try {
      return (await this.call('flight.get_offer', () => this.duffel.offers.get(offerId))).data;
    } catch (err) {
      if (isCode(err, SupplierErrorCode.NOT_FOUND)) return null;
      throw err;
    }
  }

  async getOffer(flightOptionId: string): Promise<FlightOffer | null> {
    const { offerId, offerRequestId } = parseOptionId(flightOptionId);
    if (!offerId.startsWith('off_')) return null;
    const offer = await this.fetchOffer(offerId);
    return offer ? toFlightOffer(offer, offerRequestId) : null;
  }

  async bookFlight(request: FlightBookingRequest): Promise<FlightOrder> {
    const { offerId, offerRequestId } = parseOptionId(request.flight_option_id);
    const searched = this.takeSearched(offerId, offerRequestId);
    if (searched) {
      try {
        return await this.orderOrRenew(request, searched, offerRequestId);
      } catch (err) {
        // Duffel's total moved since our search: the offer is read as it is now, and the price rules decide.
        if (!isCode(err, PRICE_CHANGED)) throw err;
      }
    }
    const offer = offerId.startsWith('off_') ? await this.fetchOffer(offerId) : null;
    if (!offer || !nonstopSegment(offer)) {
      throw new SupplierError(
        'refusal',
        SupplierErrorCode.INVALID_OFFER,
        'flight.book: Duffel did not issue this flight_option_id',
        { operation: 'flight.book' },
      );
    }
    return this.orderOrRenew(request, offer, offerRequestId);
  }

  /** Orders the offer; one Duffel retired while our 20 minutes still run is bought from a fresh search. */
  private async orderOrRenew(
    request: FlightBookingRequest,
    offer: SearchedOffer,
    offerRequestId: string | undefined,
  ): Promise<FlightOrder> {
    try {
      return await this.createOrder(request, offer, offerRequestId);
    } catch (err) {
      if (!isCode(err, SupplierErrorCode.OFFER_EXPIRED)) throw err;
      if (this.now().getTime() >= Date.parse(offer.created_at) + OFFER_WINDOW_MS) throw err;
      const fresh = await this.findSameFlight(offer);
      if (!fresh) throw err;
      return this.createOrder(request, fresh.offer, fresh.offerRequestId);
    }
  }

  /** The offer for the same flight (marketing flight number and departure) and cabin in a new search. */
  private async findSameFlight(offer: SearchedOffer): Promise<{ offer: SearchedOffer; offerRequestId: string } | null> {
    const segment = nonstopSegment(offer);
    if (!segment) return null;
    const old = toSegment(segment);
    const { data } = await this.call('flight.search', () =>
      this.duffel.offerRequests.create({
        slices: [
          {
            origin: old.from_airport,
            destination: old.to_airport,
            departure_date: segment.departing_at.slice(0, 10),
            departure_time: null,
            arrival_time: null,
          },
        ],
        passengers: [{ type: 'adult' }],
        cabin_class: toCabinClass(old.cabin),
        max_connections: 0,
        return_offers: true,
      }),
    );
    for (const candidate of data.offers) {
      const mapped = toFlightOffer(candidate, data.id);
      if (
        mapped &&
        mapped.flight_number === old.flight_number &&
        mapped.dep_time === old.dep_time &&
        mapped.cabin === old.cabin
      )
        return { offer: candidate, offerRequestId: data.id };
    }
    return null;
  }

  private async createOrder(
    request: FlightBookingRequest,
    offer: SearchedOffer,
    offerRequestId: string | undefined,
  ): Promise<FlightOrder> {
    const expected = request.expected_price;
    const moved =
      expected &&
      (expected.currency !== offer.total_currency || Math.abs(Number(offer.total_amount) - expected.amount) >= 0.005);
    // Nothing is bought yet: under STRICT a fare that moved since it was chosen goes to a person, not to a ticket.
    if (moved && request.price_mismatch === 'STRICT') {
      throw new SupplierError(
        'refusal',
        PRICE_CHANGED,
        `the fare moved from ${expected.amount.toFixed(2)} ${expected.currency} to ${offer.total_amount} ${offer.total_currency} since it was chosen`,
        { operation: 'flight.book' },
      );
    }
    // Nor, in either mode, a fare above the airline's ceiling (a moved fare, or a renewed offer's): a person decides.
    const aboveCeiling = request.fare_ceiling?.({ amount: Number(offer.total_amount), currency: offer.total_currency });
    if (aboveCeiling) {
      throw new SupplierError('refusal', SupplierErrorCode.FARE_ABOVE_CEILING, `${aboveCeiling}; nothing was bought`, {
        operation: 'flight.book',
      });
    }
    const passengerId = offer.passengers[0]?.id;
    if (!passengerId)
      throw new SupplierError(
        'transient',
        SupplierErrorCode.BAD_RESPONSE,
        'flight.book: the offer names no passenger',
        { operation: 'flight.book' },
      );
    const passenger = toPassenger(passengerId, request.traveller, offer);
    const metadata: Record<string, string> = {
      [META.reference]: request.reference,
      [META.booker]: request.booker_email,
    };
    if (offerRequestId) metadata[META.offerRequest] = offerRequestId;
    const { data } = await this.call(
      'flight.book',
      () =>
        this.duffel.orders.create({
          type: 'instant',
          selected_offers: [offer.id],
          passengers: [passenger],
          payments: [{ type: 'balance', amount: offer.total_amount, currency: offer.total_currency }],
          metadata,
        }),
      true,
    );
    return this.mapOrder(data);
  }

  private mapOrder(order: Order, cancellation?: OrderCancellation | null): FlightOrder {
    return { ...toFlightOrder(order, cancellation), live_mode: order.live_mode ?? this.options.liveMode };
  }

  async getOrder(supplierRef: string): Promise<FlightOrder | null> {
    if (!supplierRef.startsWith('ord_')) return null;
    try {
      const { data } = await this.call('flight.get_order', () => this.duffel.orders.get(supplierRef));
      return this.mapOrder(data);
    } catch (err) {
      if (isCode(err, SupplierErrorCode.NOT_FOUND)) return null;
      throw err;
    }
  }

  /**
   * Duffel's order list, narrowed by the traveller's name when the hint has it, matched on the reference we
   * put in the metadata. The departure date of the hint is checked on our side (Duffel filters on instants).
   */
  async findOrder(reference: string, hint?: OrderLookupHint): Promise<FlightOrder | null> {
    for (const id of hint?.sighted ?? []) {
      const order = await this.announcedOrder(id, reference, hint?.date);
      if (order) return order;
    }
    const name = hint?.traveller ? `${hint.traveller.first_name} ${hint.traveller.last_name}` : undefined;
    const params = name ? { 'passenger_name[]': [name], limit: 200 } : { limit: 200 };
    const limit = this.options.findOrderScanLimit ?? 1000;
    let scanned = 0;
    let after: string | null | undefined;
    do {
      const page = await this.call('flight.find_order', () =>
        this.duffel.orders.list({ ...params, ...(after ? { after } : {}) }),
      );
      for (const order of page.data) {
        scanned++;
        if (isOurOrder(order, reference, hint?.date)) return this.mapOrder(order);
      }
      after = page.meta?.after;
    } while (after && scanned < limit);
    return null;
  }

  /** An order Duffel announced, when it is the one our reference names (an unknown or foreign id is not). */
  private async announcedOrder(id: string, reference: string, date?: string): Promise<FlightOrder | null> {
    if (!id.startsWith('ord_')) return null;
    try {
      const { data } = await this.call('flight.find_order', () => this.duffel.orders.get(id));
      return isOurOrder(data, reference, date) ? this.mapOrder(data) : null;
    } catch (err) {
      if (isCode(err, SupplierErrorCode.NOT_FOUND)) return null;
      throw err;
    }
  }

  /**
   * A cancellation quote, then its confirmation. A refusal on an order that is already cancelled is a
   * repeat and succeeds; any other refusal is CANCEL_REFUSED, never a silent "cancelled".
   */
  async cancelFlight({ supplier_ref }: CancelRequest): Promise<FlightOrder> {
    let confirmed: OrderCancellation;
    try {
      const quote = await this.call('flight.cancel', () =>
        this.duffel.orderCancellations.create({ order_id: supplier_ref }),
      );
      confirmed = (await this.call('flight.cancel', () => this.duffel.orderCancellations.confirm(quote.data.id), true))
        .data;
    } catch (err) {
      if (!(err instanceof SupplierError) || err.kind !== 'refusal') throw err;
      if (err.code === SupplierErrorCode.NOT_FOUND) throw err;
      const order = await this.getOrder(supplier_ref);
      if (order?.status === 'CANCELLED') return order;
      throw new SupplierError('refusal', SupplierErrorCode.CANCEL_REFUSED, err.message, {
        operation: 'flight.cancel',
        ...(err.status === undefined ? {} : { status: err.status }),
        details: err.details,
      });
    }
    const { data } = await this.call('flight.get_order', () => this.duffel.orders.get(supplier_ref));
    return this.mapOrder(data, confirmed);
  }
}

/** Duffel needs title, gender and phone number; we refuse before calling when the profile lacks them. */
function toPassenger(id: string, t: FlightTraveller, offer: SearchedOffer): CreateOrderPassenger {
  const missing: string[] = (['title', 'gender', 'phone_number'] as const).filter((f) => !t[f]);
  const docType = t.identity_document?.type.toLowerCase();
  const supported = (offer.supported_passenger_identity_document_types ?? []) as string[];
  if (offer.passenger_identity_documents_required && !t.identity_document) missing.push('identity_document');
  if (missing.length > 0) {
    throw new SupplierError(
      'refusal',
      SupplierErrorCode.INVALID_TRAVELLER,
      `flight.book: Duffel needs the traveller's ${missing.join(', ')}`,
      {
        operation: 'flight.book',
        details: missing.map((field) => ({ field: `/traveller/${field}`, issue: 'is required by Duffel' })),
      },
    );
  }
  const doc = t.identity_document;
  return {
    id,
    given_name: t.first_name,
    family_name: t.last_name,
    born_on: t.date_of_birth,
    email: t.email,
    phone_number: t.phone_number!,
    title: t.title!,
    gender: t.gender!,
    // Duffel refuses documents of a type the offer does not take.
    ...(doc && docType && supported.includes(docType)
      ? {
          identity_documents: [
            {
              type: docType as 'passport',
              unique_identifier: doc.number,
              issuing_country_code: doc.issuing_country,
              expires_on: doc.expires_on,
            },
          ],
        }
      : {}),
  };
}

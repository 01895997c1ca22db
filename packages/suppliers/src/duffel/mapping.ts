/** Duffel's offer and order shapes mapped onto the product's flight types. */
import type {
  Offer,
  Order,
  OrderCancellation,
  OrderSliceSegment,
  OfferSliceSegment,
  FlightsCondition,
} from '@duffel/api/types';
import type { Cabin, FlightOffer, FlightOrder, FlightRefund, FlightSegment } from '../types';
import { zoned } from './time';

/** Our offers stay bookable this long after the search, or less when Duffel says so. */
export const OFFER_WINDOW_MS = 20 * 60 * 1000;

/**
 * The offer id we hand out: Duffel's offer id and the offer request it came from, because Duffel's offer does
 * not name its request and the order's trip_session_id is that request. `~` never occurs in Duffel ids.
 */
export function optionId(offerId: string, offerRequestId: string | undefined): string {
  return offerRequestId ? `${offerId}~${offerRequestId}` : offerId;
}

export function parseOptionId(flightOptionId: string): { offerId: string; offerRequestId: string | undefined } {
  const [offerId = '', offerRequestId] = flightOptionId.split('~');
  return { offerId, offerRequestId: offerRequestId || undefined };
}

const CABINS: Record<string, Cabin> = {
  economy: 'ECONOMY',
  premium_economy: 'PREMIUM_ECONOMY',
  business: 'BUSINESS',
  first: 'FIRST',
};

function toCabin(cabinClass: string | undefined): Cabin {
  return CABINS[cabinClass ?? ''] ?? 'ECONOMY';
}

export function toCabinClass(cabin: Cabin): 'economy' | 'premium_economy' | 'business' | 'first' {
  return cabin.toLowerCase() as 'economy' | 'premium_economy' | 'business' | 'first';
}

/** Money in our product is a number; Duffel sends decimal strings. */
export function money(amount: string, currency: string): { amount: number; currency: string } {
  return { amount: Number(amount), currency };
}

type AnySegment = OfferSliceSegment | OrderSliceSegment;

/** One Duffel segment as ours: offset timestamps from local times and zones, the marketing flight number. */
export function toSegment(segment: AnySegment): FlightSegment {
  const dep = zoned(segment.departing_at, segment.origin.time_zone);
  const arr = zoned(segment.arriving_at, segment.destination.time_zone);
  const marketing = segment.marketing_carrier.iata_code ?? '';
  const passengers: Array<{ cabin_class?: string }> = segment.passengers;
  return {
    airline_code: marketing,
    flight_number: `${marketing}${segment.marketing_carrier_flight_number}`,
    from_airport: segment.origin.iata_code ?? '',
    to_airport: segment.destination.iata_code ?? '',
    dep_time: dep.iso,
    arr_time: arr.iso,
    duration_minutes: Math.round((arr.utcMs - dep.utcMs) / 60000),
    cabin: toCabin(passengers[0]?.cabin_class),
  };
}

/** The only segment of a one-slice offer; undefined for a connection (our FlightOffer is one segment). */
export function nonstopSegment(offer: Pick<Offer, 'slices'>): OfferSliceSegment | undefined {
  const [slice, ...more] = offer.slices;
  if (!slice || more.length > 0 || slice.segments.length !== 1) return undefined;
  return slice.segments[0];
}

const allowed = (c: FlightsCondition | null | undefined) => (c ? c.allowed : undefined);

/** Expiry: the earlier of 20 minutes after the offer was made and Duffel's own expiry. */
export function offerExpiry(offer: Pick<Offer, 'created_at' | 'expires_at'>): string {
  const ours = Date.parse(offer.created_at) + OFFER_WINDOW_MS;
  const theirs = Date.parse(offer.expires_at);
  return new Date(Number.isFinite(theirs) ? Math.min(ours, theirs) : ours).toISOString();
}

/** null for an offer that is not nonstop. */
export function toFlightOffer(
  offer: Offer | Omit<Offer, 'available_services'>,
  offerRequestId: string | undefined,
): FlightOffer | null {
  const segment = nonstopSegment(offer);
  if (!segment) return null;
  const flight = toSegment(segment);
  const operating = segment.operating_carrier.iata_code;
  const refundable = allowed(offer.conditions.refund_before_departure);
  const changeable = allowed(offer.conditions.change_before_departure);
  return {
    ...flight,
    flight_option_id: optionId(offer.id, offerRequestId),
    price: money(offer.total_amount, offer.total_currency),
    expires_at: offerExpiry(offer),
    supplier: 'DUFFEL',
    ...(operating && operating !== flight.airline_code ? { operating_airline_code: operating } : {}),
    ...(refundable === undefined ? {} : { refundable }),
    ...(changeable === undefined ? {} : { changeable }),
  };
}

/** What our orders keep in Duffel's metadata (string values only). */
export const META = { reference: 'crew_reference', offerRequest: 'offer_request_id', booker: 'booker_email' } as const;

const REFUND_TO: Record<string, FlightRefund['destination']> = {
  original_form_of_payment: 'ORIGINAL_FORM_OF_PAYMENT',
  card: 'ORIGINAL_FORM_OF_PAYMENT',
  arc_bsp_cash: 'ORIGINAL_FORM_OF_PAYMENT',
  balance: 'BALANCE',
  airline_credits: 'AIRLINE_CREDITS',
  voucher: 'VOUCHER',
};

/** Where the money of a confirmed cancellation went; null when nothing is refunded (or not yet known). */
export function toRefund(cancellation: OrderCancellation | null | undefined): FlightRefund | null {
  if (!cancellation?.confirmed_at) return null;
  const destination = REFUND_TO[cancellation.refund_to];
  if (!destination) return null;
  if (cancellation.refund_amount !== null && cancellation.refund_currency !== null) {
    return { amount: money(cancellation.refund_amount, cancellation.refund_currency), destination };
  }
  // Airline credits carry their value per credit rather than as a refund amount.
  const credits = cancellation.airline_credits ?? [];
  const first = credits[0];
  if (destination !== 'AIRLINE_CREDITS' || !first) return null;
  const total = credits.reduce((sum, c) => sum + Number(c.credit_amount), 0);
  return { amount: { amount: Math.round(total * 100) / 100, currency: first.credit_currency }, destination };
}

export function toFlightOrder(order: Order, cancellation?: OrderCancellation | null): FlightOrder {
  const segment = order.slices[0]?.segments[0];
  if (!segment) throw new Error(`order ${order.id} has no segment`);
  const passenger = order.passengers[0];
  const ticket = (order.documents ?? []).find((d) => d.type === 'electronic_ticket');
  const metadata = order.metadata ?? {};
  const cancelledAt = order.cancelled_at ?? null;
  const refund = toRefund(cancellation ?? order.cancellation);
  return {
    supplier_ref: order.id,
    reference: metadata[META.reference] ?? '',
    status: cancelledAt ? 'CANCELLED' : 'CONFIRMED',
    pnr: order.booking_reference,
    // Duffel may issue the ticket after the order: empty until a document appears.
    ticket_id: ticket?.unique_identifier ?? '',
    transaction_id: order.id,
    trip_session_id: metadata[META.offerRequest] ?? '',
    flight: toSegment(segment),
    price: money(order.total_amount, order.total_currency),
    traveller: {
      email: passenger?.email ?? '',
      first_name: passenger?.given_name ?? '',
      last_name: passenger?.family_name ?? '',
      date_of_birth: passenger?.born_on ?? '',
      ...(passenger?.title ? { title: passenger.title } : {}),
      ...(passenger?.gender ? { gender: passenger.gender } : {}),
      ...(passenger?.phone_number ? { phone_number: passenger.phone_number } : {}),
    },
    booker_email: metadata[META.booker] ?? '',
    created_at: order.created_at,
    updated_at: order.synced_at ?? order.created_at,
    cancelled_at: cancelledAt,
    supplier: 'DUFFEL',
    live_mode: order.live_mode,
    ...(cancelledAt ? { refund } : {}),
  };
}

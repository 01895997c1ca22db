/**
 * The supplier domain as the rest of the product sees it (API hotel directory and flight options, the
 * worker's booking engine). Field names follow the product's snake_case; an adapter maps its supplier's
 * wire format into these.
 */
import type { Cabin, Money } from '@crew/contracts';

export { CABINS, type Cabin } from '@crew/contracts';

/**
 * The suppliers an airline may put in its order (operator `PUT /ops/v1/airlines/{id}/suppliers`): the
 * sandbox, Duffel (flights and stays), and the airline's own reservation system (flights only).
 */
export const SUPPLIER_NAMES = ['SANDBOX', 'DUFFEL', 'OWN_AIRLINE'] as const;
export type SupplierName = (typeof SUPPLIER_NAMES)[number];

/** CONFIRMED until cancelled; an amended hotel reservation stays CONFIRMED (with `amendments` > 0). */
export type ReservationStatus = 'CONFIRMED' | 'CANCELLED';

// ---- hotels ----

/** A GDS-bookable property. Found here means handler_type GDS; not found means DIRECT (spec 4.3 rule 2). */
export interface HotelProperty {
  property_id: string;
  name: string;
  /** 2-letter GDS chain code. */
  chain: string;
  chain_name: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  airport_code: string;
  /** IANA time zone of the hotel. */
  timezone: string;
  distance_km: number;
  /** Public nightly rate, in the country's currency. */
  nightly_rate: Money;
}

/** Hotels matching any of the filters (name and city partial, case-insensitive; at least one filter). */
export interface HotelSearchQuery {
  name?: string;
  city?: string;
  airport_code?: string;
  /** 1..200, default 50. */
  limit?: number;
  /** Keyset cursor: the `next_after` of the previous page. */
  after?: string;
}

export interface HotelSearchPage {
  /** Ordered by property_id. */
  hotels: HotelProperty[];
  next_after: string | null;
}

export interface HotelGuest {
  email: string;
  name: string;
}

export interface HotelBookingRequest {
  /** The caller's idempotency reference: a repeat returns the same reservation, never a second one. */
  reference: string;
  property_id: string;
  check_in_date: string;
  check_out_date: string;
  traveller: HotelGuest;
  /** The account the booking is placed under (company config `crew_booker_email`). */
  booker_email: string;
  /** Negotiated nightly rate; the supplier confirms at its public rate when absent. */
  rate?: Money;
  /** The traveller's phone, E.164 (a supplier that needs one, Duffel Stays, refuses the booking without it). */
  phone_number?: string;
  /** The airline's contract for the stay: a supplier that offers several rates books only one it accepts. */
  contract?: ContractedStay;
}

/** A rate's verdict under the airline's contract (the engine's stayRateCheck under its lever and exchange rates). */
export interface StayRateJudgement {
  /** Bookable under the airline's lever. */
  ok: boolean;
  /** The base amount equals the contract's rate night by night. */
  exact: boolean;
  /** What differs (a LOOSE mismatch is booked with this flag). */
  flag: string | null;
  reason: string | null;
}

export interface ContractedStay {
  /** The contract's rate periods covering the stay. */
  rate_periods: ReadonlyArray<{ effective_from: string; effective_to: string; rate: Money }>;
  /** The hotel's negotiated-rate access code, when the contract has one (Duffel matches it best effort). */
  rate_access_code?: string;
  /** Judges a rate's base amount (before tax and fees) for these nights. */
  judge: (base: Money, nights: readonly string[]) => StayRateJudgement;
}

/** Narrows the search for a reservation made under a reference, for a supplier that keeps no idempotency key. */
export interface HotelLookupHint {
  property_id: string;
  check_in_date: string;
  check_out_date: string;
  traveller?: HotelGuest;
}

/** Until when cancelling refunds how much (a supplier's cancellation timeline; empty: not refundable). */
export interface CancellationStep {
  before: string;
  refund: Money;
}

export interface HotelAmendRequest {
  supplier_ref: string;
  /** Idempotency reference of this amendment. */
  reference: string;
  check_in_date: string;
  check_out_date: string;
  /** Negotiated nightly rate for the new dates; the confirmed rate is kept when absent. */
  rate?: Money;
  /** The contract for the new nights (a supplier that books an extension as a second room judges its rate). */
  contract?: ContractedStay;
}

export interface CancelRequest {
  supplier_ref: string;
  /** Idempotency reference of this cancellation. */
  reference: string;
}

export interface HotelReservation {
  /** The supplier's confirmation reference. */
  supplier_ref: string;
  reference: string;
  status: ReservationStatus;
  property_id: string;
  property_name: string;
  airport_code: string;
  check_in_date: string;
  check_out_date: string;
  nights: number;
  traveller: HotelGuest;
  booker_email: string;
  /** The nightly rate the supplier confirmed: compare with the contracted rate. */
  nightly_rate: Money;
  total_price: Money;
  rate_source: 'NEGOTIATED' | 'PUBLIC';
  amendments: number;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
  /** The supplier that holds the reservation, and whether it is real (absent: the sandbox, not live). */
  supplier?: SupplierName;
  live_mode?: boolean;
  /** The hotel's confirmation number when the supplier gives one apart from supplier_ref (null: not yet). */
  confirmation_number?: string | null;
  /** The supplier's booking ids behind supplier_ref (an extension booked as an adjoining second reservation adds one). */
  supplier_booking_ids?: string[];
  /** Until when cancelling refunds how much, per booking in supplier_booking_ids order. */
  cancellation_timeline?: CancellationStep[];
  /** The contract's verdict on the rate booked (set when a request carried a contract and the rate differs). */
  rate_flag?: string | null;
}

// ---- flights ----

export interface FlightSearchQuery {
  from_airport: string;
  to_airport: string;
  /** Departure date, local at the origin. */
  date: string;
  cabin?: Cabin;
}

export interface FlightSegment {
  airline_code: string;
  /** Carrier code and number, e.g. `BA117`. */
  flight_number: string;
  from_airport: string;
  to_airport: string;
  /** ISO 8601 with the local offset of the airport. */
  dep_time: string;
  arr_time: string;
  duration_minutes: number;
  cabin: Cabin;
}

export interface FlightOffer extends FlightSegment {
  /** Opaque supplier offer id, valid until `expires_at` (20 minutes after the search, or the supplier's own expiry if earlier). */
  flight_option_id: string;
  price: Money;
  expires_at: string;
  /** The supplier that made the offer (absent: the sandbox). */
  supplier?: SupplierName;
  /** The carrier flying the segment when it is not the marketing carrier of `flight_number`. */
  operating_airline_code?: string;
  /** Fare conditions as the supplier states them; absent when it does not say. */
  refundable?: boolean;
  changeable?: boolean;
}

export interface FlightTraveller {
  email: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  /** From the traveller profile the airline keeps; a supplier that needs one refuses the booking without it. */
  title?: 'mr' | 'ms' | 'mrs' | 'miss' | 'dr';
  gender?: 'm' | 'f';
  /** E.164. */
  phone_number?: string;
  identity_document?: TravelDocument;
}

export interface TravelDocument {
  type: 'PASSPORT' | 'TAX_ID' | 'KNOWN_TRAVELER_NUMBER' | 'PASSENGER_REDRESS_NUMBER';
  number: string;
  /** ISO 3166-1 alpha-2. */
  issuing_country: string;
  /** YYYY-MM-DD. */
  expires_on: string;
}

/** Where a cancelled order's money went. */
export interface FlightRefund {
  amount: Money;
  destination: 'ORIGINAL_FORM_OF_PAYMENT' | 'BALANCE' | 'AIRLINE_CREDITS' | 'VOUCHER';
}

/** What narrows a supplier's order list when an order must be found by our reference (Duffel keeps no idempotency key). */
export interface OrderLookupHint {
  traveller?: Pick<FlightTraveller, 'first_name' | 'last_name' | 'email'>;
  /** Departure date, local at the origin. */
  date?: string;
  flight_option_id?: string;
  /**
   * Orders the supplier announced that may be this one (Duffel's order.created), read before any list scan;
   * each is checked against the reference.
   */
  sighted?: readonly string[];
}

export interface FlightBookingRequest {
  /** The caller's idempotency reference: a repeat returns the same order, never a second ticket. */
  reference: string;
  flight_option_id: string;
  /** The fare when the option was chosen; a supplier that prices at ordering compares it (the sandbox does not). */
  expected_price?: Money;
  /** A moved fare: STRICT refuses before ordering (PRICE_CHANGED, a person decides), LOOSE orders at the new fare. */
  price_mismatch?: 'STRICT' | 'LOOSE';
  /**
   * The engine's fare ceiling (auto_book_max_price, in its currency at the flight's rates): the reason a fare is
   * above it, else null. A supplier that prices at ordering asks it of the fare it is about to pay, whatever the
   * mode, and refuses before buying (FARE_ABOVE_CEILING). Absent: no ceiling (or an option the airline chose).
   */
  fare_ceiling?: (fare: Money) => string | null;
  traveller: FlightTraveller;
  booker_email: string;
}

export interface FlightOrder {
  supplier_ref: string;
  reference: string;
  status: ReservationStatus;
  pnr: string;
  ticket_id: string;
  transaction_id: string;
  trip_session_id: string;
  flight: FlightSegment;
  price: Money;
  traveller: FlightTraveller;
  booker_email: string;
  created_at: string;
  updated_at: string;
  cancelled_at: string | null;
  /** The supplier that holds the order, and whether it is real (absent: the sandbox, not live). */
  supplier?: SupplierName;
  live_mode?: boolean;
  /** Set on a cancelled order when the supplier refunded something. */
  refund?: FlightRefund | null;
}

// ---- the supplier ports ----

/**
 * Every method rejects with a `SupplierError` on failure: `transient` (may be retried, the booking ends
 * FAILED) or `refusal` (the supplier said no, the booking needs review).
 */
export interface HotelSupplier {
  searchHotels(query: HotelSearchQuery): Promise<HotelSearchPage>;
  /** null when the property is not in the inventory. */
  getProperty(propertyId: string): Promise<HotelProperty | null>;
  bookHotel(request: HotelBookingRequest): Promise<HotelReservation>;
  amendHotel(request: HotelAmendRequest): Promise<HotelReservation>;
  /** Cancelling a cancelled reservation succeeds without change. */
  cancelHotel(request: CancelRequest): Promise<HotelReservation>;
  getReservation(supplierRef: string): Promise<HotelReservation | null>;
  /**
   * The reservation a booking call with this reference made, if any (e.g. after a timeout). A supplier without
   * an idempotency key finds it by the reference it was given to keep, else by the hint's property and dates.
   */
  findReservation(reference: string, hint?: HotelLookupHint): Promise<HotelReservation | null>;
}

export interface FlightSupplier {
  searchFlights(query: FlightSearchQuery): Promise<FlightOffer[]>;
  /** The offer an id names (route, date, flight; `expires_at` tells whether it is still bookable); null when the supplier never issued it. */
  getOffer(flightOptionId: string): Promise<FlightOffer | null>;
  bookFlight(request: FlightBookingRequest): Promise<FlightOrder>;
  /** Cancelling a cancelled order succeeds without change. */
  cancelFlight(request: CancelRequest): Promise<FlightOrder>;
  /** The live order: current status, PNR, ticket, transaction and trip-session ids. */
  getOrder(supplierRef: string): Promise<FlightOrder | null>;
  /**
   * The order a booking call with this reference made, if any (e.g. after a timeout). A supplier without an
   * idempotency key finds it by the reference it was given to keep, narrowed by the hint.
   */
  findOrder(reference: string, hint?: OrderLookupHint): Promise<FlightOrder | null>;
}

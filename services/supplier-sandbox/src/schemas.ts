/**
 * The sandbox's wire contract, as TypeBox schemas: request schemas are enforced by `mountRoutes`, response
 * schemas document the answers. The sandbox stands in for an external supplier, so it does not share these
 * with `@crew/suppliers` (our adapter); the HTTP contract in docs/supplier-sandbox.md is what binds them.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Airport, Cabin, CABINS, Carrier, DateString, Email, Money, StringEnum, Timestamp } from '@crew/contracts';

// The cabin vocabulary is the industry's, shared with the product rather than restated.
export { Cabin, CABINS };

export const RESERVATION_STATUSES = ['CONFIRMED', 'CANCELLED'] as const;
export const ReservationStatus = StringEnum(RESERVATION_STATUSES);
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** The caller's idempotency reference: one reservation (or one amend, one cancel) per value. */
const Reference = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:/-]+$' });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const SearchText = Type.String({ minLength: 2, maxLength: 100 });
const SupplierRefParams = Type.Object({ supplier_ref: Type.String({ pattern: '^[A-Z0-9-]{4,40}$' }) });

// ---- hotels ----

export const HotelProperty = Type.Object(
  {
    property_id: Type.String(),
    name: Type.String(),
    chain: Type.String({ description: '2-letter GDS chain code' }),
    chain_name: Type.String(),
    city: Type.String(),
    country: Type.String({ description: 'ISO 3166-1 alpha-2' }),
    airport_code: Airport,
    timezone: Type.String({ description: 'IANA time zone' }),
    distance_km: Type.Number(),
    nightly_rate: Money,
  },
  { additionalProperties: false },
);
export type HotelProperty = Static<typeof HotelProperty>;

export const HotelSearchQuery = Type.Object(
  {
    name: Type.Optional(SearchText),
    city: Type.Optional(SearchText),
    airport_code: Type.Optional(Airport),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    /** Keyset cursor: answers start after this property_id. */
    after: Type.Optional(Type.String({ maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type HotelSearchQuery = Static<typeof HotelSearchQuery>;

export const PropertyParams = Type.Object({ property_id: Type.String({ minLength: 1, maxLength: 64 }) });

const HotelGuest = Type.Object({ email: Email, name: Name }, { additionalProperties: false });

export const HotelBookingBody = Type.Object(
  {
    reference: Reference,
    property_id: Type.String({ minLength: 1, maxLength: 64 }),
    check_in_date: DateString,
    check_out_date: DateString,
    traveller: HotelGuest,
    booker_email: Email,
    /** Negotiated nightly rate; the public rate applies when absent. */
    rate: Type.Optional(Money),
  },
  { additionalProperties: false },
);
export type HotelBookingBody = Static<typeof HotelBookingBody>;

export const HotelAmendBody = Type.Object(
  {
    reference: Reference,
    check_in_date: DateString,
    check_out_date: DateString,
    rate: Type.Optional(Money),
  },
  { additionalProperties: false },
);
export type HotelAmendBody = Static<typeof HotelAmendBody>;

export const CancelBody = Type.Object({ reference: Reference }, { additionalProperties: false });
export type CancelBody = Static<typeof CancelBody>;

export const ReservationParams = SupplierRefParams;
export const ReferenceQuery = Type.Object({ reference: Reference }, { additionalProperties: false });

export const HotelReservation = Type.Object(
  {
    supplier_ref: Type.String(),
    reference: Type.String(),
    status: ReservationStatus,
    property_id: Type.String(),
    property_name: Type.String(),
    airport_code: Airport,
    check_in_date: DateString,
    check_out_date: DateString,
    nights: Type.Integer(),
    traveller: HotelGuest,
    booker_email: Email,
    nightly_rate: Money,
    total_price: Money,
    rate_source: StringEnum(['NEGOTIATED', 'PUBLIC'] as const),
    amendments: Type.Integer(),
    created_at: Timestamp,
    updated_at: Timestamp,
    cancelled_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type HotelReservation = Static<typeof HotelReservation>;

// ---- flights ----

export const FlightSearchQuery = Type.Object(
  {
    from: Airport,
    to: Airport,
    /** Departure date, local at the origin. */
    date: DateString,
    cabin: Type.Optional(Cabin),
  },
  { additionalProperties: false },
);
export type FlightSearchQuery = Static<typeof FlightSearchQuery>;

const FlightFields = {
  airline_code: Carrier,
  flight_number: Type.String({ description: 'carrier code and number, e.g. BA117' }),
  from_airport: Airport,
  to_airport: Airport,
  dep_time: Timestamp,
  arr_time: Timestamp,
  duration_minutes: Type.Integer(),
  cabin: Cabin,
};

export const FlightOffer = Type.Object(
  { flight_option_id: Type.String(), ...FlightFields, price: Money, expires_at: Timestamp },
  { additionalProperties: false },
);
export type FlightOffer = Static<typeof FlightOffer>;

export const FlightTraveller = Type.Object(
  { email: Email, first_name: Name, last_name: Name, date_of_birth: DateString },
  { additionalProperties: false },
);

export const FlightOrderBody = Type.Object(
  {
    reference: Reference,
    flight_option_id: Type.String({ minLength: 1, maxLength: 1024 }),
    traveller: FlightTraveller,
    booker_email: Email,
  },
  { additionalProperties: false },
);
export type FlightOrderBody = Static<typeof FlightOrderBody>;

export const FlightSegment = Type.Object(FlightFields, { additionalProperties: false });
export type FlightSegment = Static<typeof FlightSegment>;

export const FlightOrder = Type.Object(
  {
    supplier_ref: Type.String(),
    reference: Type.String(),
    status: ReservationStatus,
    pnr: Type.String(),
    ticket_id: Type.String(),
    transaction_id: Type.String(),
    trip_session_id: Type.String(),
    flight: FlightSegment,
    price: Money,
    traveller: FlightTraveller,
    booker_email: Email,
    created_at: Timestamp,
    updated_at: Timestamp,
    cancelled_at: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);
export type FlightOrder = Static<typeof FlightOrder>;

// ---- control API (DESIGN section 5) ----

export const FAULT_OPERATIONS = [
  'hotel.book',
  'hotel.amend',
  'hotel.cancel',
  'flight.search',
  'flight.book',
  'flight.cancel',
] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];
export const FAULT_OUTCOMES = [
  'error',
  'reject',
  'timeout',
  'offer_expired',
  'price_change',
  'rate_limited',
  'hold',
] as const;
export type FaultOutcome = (typeof FAULT_OUTCOMES)[number];

export const FaultBody = Type.Object(
  {
    operation: StringEnum(FAULT_OPERATIONS),
    outcome: StringEnum(FAULT_OUTCOMES),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    price_delta: Type.Optional(Type.Number()),
    /** With price_change: the supplier answers in this currency (the moved amount, not converted). */
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    /** With rate_limited: the Retry-After seconds of the 429 (default 1). */
    retry_after_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 600 })),
  },
  { additionalProperties: false },
);
export type FaultBody = Static<typeof FaultBody>;

/** The calls of `operation` a `hold` fault stopped go on. */
export const HoldReleaseBody = Type.Object(
  { operation: StringEnum(FAULT_OPERATIONS) },
  { additionalProperties: false },
);
export type HoldReleaseBody = Static<typeof HoldReleaseBody>;

export const Fault = Type.Object({
  fault_id: Type.String(),
  operation: StringEnum(FAULT_OPERATIONS),
  outcome: StringEnum(FAULT_OUTCOMES),
  count: Type.Integer(),
  remaining: Type.Integer(),
  price_delta: Type.Union([Type.Number(), Type.Null()]),
  currency: Type.Optional(Type.String()),
  retry_after_s: Type.Optional(Type.Integer()),
  created_at: Timestamp,
});
export type Fault = Static<typeof Fault>;

export const ClockBody = Type.Object(
  { advance_ms: Type.Integer({ minimum: 0, maximum: 10 * 365 * 86400000 }) },
  { additionalProperties: false },
);

export const ReservationsQuery = Type.Object(
  {
    kind: Type.Optional(StringEnum(['hotel', 'flight'] as const)),
    status: Type.Optional(ReservationStatus),
    traveller_email: Type.Optional(Type.String({ maxLength: 254 })),
    reference: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type ReservationsQuery = Static<typeof ReservationsQuery>;

/** One row of `GET /_control/reservations`: the common fields plus the kind's own. */
export const ControlReservation = Type.Object({
  supplier_ref: Type.String(),
  kind: StringEnum(['hotel', 'flight'] as const),
  status: ReservationStatus,
  reference: Type.String(),
  traveller_email: Email,
  booker_email: Email,
  price: Money,
  created_at: Timestamp,
  updated_at: Timestamp,
  cancelled_at: Type.Union([Timestamp, Type.Null()]),
  property_id: Type.Optional(Type.String()),
  property_name: Type.Optional(Type.String()),
  airport_code: Type.Optional(Airport),
  check_in_date: Type.Optional(DateString),
  check_out_date: Type.Optional(DateString),
  nightly_rate: Type.Optional(Money),
  rate_source: Type.Optional(Type.String()),
  amendments: Type.Optional(Type.Integer()),
  airline_code: Type.Optional(Carrier),
  flight_number: Type.Optional(Type.String()),
  from_airport: Type.Optional(Airport),
  to_airport: Type.Optional(Airport),
  dep_time: Type.Optional(Timestamp),
  arr_time: Type.Optional(Timestamp),
  cabin: Type.Optional(Cabin),
  pnr: Type.Optional(Type.String()),
  ticket_id: Type.Optional(Type.String()),
});
export type ControlReservation = Static<typeof ControlReservation>;

import { Type, type Static } from '@sinclair/typebox';
import { Airport, Carrier, DateString, Email, Money, PageQuery, Priority, StringEnum, Timestamp } from './common';
import { Cabin } from './config';
import { ActionSource, ActionType, Classification } from './schedules';
import { FLIGHT_SUPPLIERS } from './suppliers';

export const BOOKING_STATUSES = ['PENDING', 'CONFIRMED', 'MODIFIED', 'CANCELLED', 'FAILED', 'NEEDS_REVIEW'] as const;
export const BookingStatusValue = StringEnum(BOOKING_STATUSES);
/** The one definition of a booking's status (contracts, db and engine all use it). */
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** What a booking task does at the supplier; stored with the task (bookings.task_operation, the job's `operation`). */
export const BOOKING_OPERATIONS = ['BOOK', 'AMEND', 'CANCEL'] as const;
export type BookingOperation = (typeof BOOKING_OPERATIONS)[number];

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

const timestamp = (description: string) => Type.String({ format: 'date-time', description });
const date = (description: string) => Type.String({ format: 'date', description });
const SupplierStatus = StringEnum(['CONFIRMED', 'CANCELLED'] as const, {
  description: 'The reservation as the supplier holds it (an amended room stays CONFIRMED)',
});

/**
 * What a HOTEL booking stores in its `hotel` column (jsonb): the configured hotel and contract chosen, and what
 * the supplier (or, for a DIRECT hotel, its rooming list) holds. One schema for the api's view, the db's column
 * type and the engine's writes.
 */
const hotelBlockProperties = {
  property_id: Type.Optional(Type.String({ description: 'The hotel (GDS inventory id or the airline’s own id)' })),
  name: Type.Optional(Nullable(Type.String())),
  handler_type: Type.Optional(StringEnum(['GDS', 'DIRECT'] as const)),
  hotel_config_id: Type.Optional(Type.Integer({ description: 'The configured hotel the engine chose' })),
  contract_id: Type.Optional(Type.Integer({ description: 'The contract whose rate applies' })),
  contracted_rate: Type.Optional(Money),
  rate_access_code: Type.Optional(
    Type.String({
      description:
        "The contract's negotiated-rate access code the supplier is asked for (Duffel matches it best effort)",
    }),
  ),
  supplier_ref: Type.Optional(Type.String({ description: 'The supplier’s reservation reference' })),
  confirmation_number: Type.Optional(
    Nullable(
      Type.String({
        description:
          'The hotel’s confirmation number (Duffel: the Stays booking’s reference; null until the hotel gives one, a status refresh fills it)',
      }),
    ),
  ),
  supplier: Type.Optional(
    StringEnum(['SANDBOX', 'DUFFEL'] as const, { description: 'The hotel supplier holding the reservation' }),
  ),
  live_mode: Type.Optional(
    Type.Boolean({ description: 'True when the reservation is real and paid (a live Duffel account)' }),
  ),
  supplier_booking_id: Type.Optional(
    Type.String({ description: 'Duffel: the Stays booking id (the first one of an extended stay)' }),
  ),
  supplier_booking_ids: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Duffel: every Stays booking of the stay; an extension is an adjoining second booking, cancelled with the first',
    }),
  ),
  cancellation_timeline: Type.Optional(
    Type.Array(
      Type.Object(
        { before: timestamp('Cancelling before this instant refunds `refund`'), refund: Money },
        { additionalProperties: false },
      ),
      {
        description:
          'Until when cancelling refunds how much, as the supplier stated it at booking (empty: not refundable)',
      },
    ),
  ),
  nights: Type.Optional(Type.Integer({ minimum: 1 })),
  nightly_rate: Type.Optional(Money),
  total_price: Type.Optional(Money),
  rate_flag: Type.Optional(
    Nullable(
      Type.String({
        description:
          'Set when the supplier’s rate differs from the contracted rate (LOOSE rate matching booked it anyway)',
      }),
    ),
  ),
  supplier_status: Type.Optional(SupplierStatus),
  rooming_ref: Type.Optional(
    Type.String({ description: 'DIRECT hotel: the stay’s reference on the hotel’s rooming lists' }),
  ),
  rooming_status: Type.Optional(
    StringEnum(['QUEUED', 'SENT', 'CONFIRMED', 'REJECTED', 'EXPIRED'] as const, {
      description:
        'DIRECT hotel: the stay’s latest rooming-list row. QUEUED and SENT: the booking stays PENDING until the hotel answers',
    }),
  ),
  rooming_marking: Type.Optional(
    StringEnum(['NEW', 'AMENDED', 'CANCELLED'] as const, {
      description: 'DIRECT hotel: what the latest row told the hotel',
    }),
  ),
  rooming_list_id: Type.Optional(
    Type.String({ format: 'uuid', description: 'DIRECT hotel: the rooming list carrying the latest row' }),
  ),
  rooming_list_version: Type.Optional(Type.Integer({ description: 'DIRECT hotel: that list’s version' })),
  hotel_confirmed_at: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'DIRECT hotel: when the hotel confirmed the latest row (its number is confirmation_number)',
    }),
  ),
};
export const BookingHotelBlock = Type.Object(
  {
    // The room's dates as the supplier holds them, once reserved (the view shows the stay's until then).
    check_in_date: Type.Optional(date('The room’s first night as the supplier holds it')),
    check_out_date: Type.Optional(date('The room’s departure date as the supplier holds it')),
    ...hotelBlockProperties,
  },
  { additionalProperties: false },
);
export type BookingHotelBlock = Static<typeof BookingHotelBlock>;

/**
 * A HOTEL booking's `hotel` block (spec 2.5 "not shown"): the stay asked for, the configured hotel and contract
 * chosen, and what the supplier holds. The supplier's fields appear once a reservation was made.
 */
export const BookingHotel = Type.Object(
  {
    station: Nullable(Airport),
    checkin_time_local: Nullable(timestamp('Check-in of the stay asked for (the layover or the request)')),
    checkout_time_local: Nullable(timestamp('Check-out of the stay asked for')),
    check_in_date: Nullable(
      date('The room’s first night: as the supplier holds it once reserved, else as the stay asks for it'),
    ),
    check_out_date: Nullable(
      date('The room’s departure date: as the supplier holds it once reserved, else as the stay asks for it'),
    ),
    ...hotelBlockProperties,
  },
  { additionalProperties: false, title: 'BookingHotel' },
);
export type BookingHotel = Static<typeof BookingHotel>;

/** What a FLIGHT booking stores in its `flight` column (jsonb): the choice or search constraints, the flight booked and its ticket. */
const flightBlockProperties = {
  flight_option_id: Type.Optional(
    Nullable(Type.String({ description: 'The offer the airline chose (a commit); null when the engine searches' })),
  ),
  constraints: Type.Optional(
    Type.Object(
      { depart_after: Nullable(Timestamp), arrive_by: Nullable(Timestamp), cabin_class: Nullable(Cabin) },
      { additionalProperties: false, description: 'Search constraints of a request or a PATCH' },
    ),
  ),
  supplier_ref: Type.Optional(Type.String({ description: 'The supplier’s order reference' })),
  airline_code: Type.Optional(Carrier),
  flight_number: Type.Optional(Type.String({ description: 'The flight booked, carrier code and number (e.g. BA117)' })),
  dep_time: Type.Optional(timestamp('Departure of the flight booked, with the origin’s offset')),
  arr_time: Type.Optional(timestamp('Arrival of the flight booked, with the destination’s offset')),
  cabin: Type.Optional(Cabin),
  price: Type.Optional(Money),
  supplier_status: Type.Optional(
    StringEnum(['CONFIRMED', 'CANCELLED', 'REQUESTED', 'REFUSED'] as const, {
      description:
        'The order as the supplier holds it; REQUESTED: the airline’s own system took the request and answers later; REFUSED: it said no',
    }),
  ),
  supplier_reason: Type.Optional(Type.String({ description: 'Why the airline’s own system refused the crew seat' })),
  pnr: Type.Optional(Type.String()),
  ticket_id: Type.Optional(Type.String()),
  transaction_id: Type.Optional(Type.String()),
  trip_session_id: Type.Optional(Type.String()),
  supplier: Type.Optional(
    StringEnum(FLIGHT_SUPPLIERS, {
      description:
        "Who holds the ticket: the sandbox, Duffel (bought at retail), or OWN_AIRLINE, a crew seat in the airline's own reservation system (booked by the engine through it, or committed by the airline with pnr and ticket_id). Absent on a booking made before supplier orders existed: the sandbox.",
    }),
  ),
  live_mode: Type.Optional(
    Type.Boolean({
      description: 'True when the booking is real (a live supplier account); false for the sandbox and test accounts',
    }),
  ),
  operating_airline_code: Type.Optional(Carrier),
  price_flag: Type.Optional(
    Type.String({
      description:
        'Set when the fare moved between the engine’s choice and the order and LOOSE rate matching ordered it anyway',
    }),
  ),
  airline_change_id: Type.Optional(
    Nullable(
      Type.String({
        description:
          'An airline-initiated change to this flight that waits for a person (the booking is NEEDS_REVIEW); null once a change was accepted',
      }),
    ),
  ),
  refund: Type.Optional(
    Type.Object(
      {
        amount: Money,
        destination: StringEnum(['ORIGINAL_FORM_OF_PAYMENT', 'BALANCE', 'AIRLINE_CREDITS', 'VOUCHER'] as const),
      },
      { additionalProperties: false, description: 'What the supplier refunded on cancellation, and where it went' },
    ),
  ),
};
export const BookingFlightBlock = Type.Object(flightBlockProperties, { additionalProperties: false });
export type BookingFlightBlock = Static<typeof BookingFlightBlock>;

/**
 * A FLIGHT booking's `flight` block (spec 2.5): the leg asked for, the choice or search constraints, the
 * flight booked and its ticket. `pnr`, `ticket_id`, `transaction_id`, `trip_session_id` appear once the
 * booking is confirmed and its status was refreshed (GET …/status).
 */
export const BookingFlight = Type.Object(
  {
    from_airport: Nullable(Airport),
    to_airport: Nullable(Airport),
    dep_time_local: Nullable(timestamp('Departure of the leg asked for (the roster’s deadhead leg)')),
    arr_time_local: Nullable(timestamp('Arrival of the leg asked for')),
    ...flightBlockProperties,
  },
  { additionalProperties: false, title: 'BookingFlight' },
);
export type BookingFlight = Static<typeof BookingFlight>;

export const Booking = Type.Object(
  {
    booking_id: Type.String(),
    type: ActionType,
    status: BookingStatusValue,
    source: ActionSource,
    manual_override: Type.Boolean(),
    config_version_used: Nullable(Type.String()),
    retry_count: Type.Integer({ minimum: 0 }),
    hotel: Nullable(BookingHotel),
    flight: Nullable(BookingFlight),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    flight_number: Nullable(Type.String()),
    irop_ref: Nullable(Type.String()),
    schedule_id: Nullable(Type.String()),
    traveller_email: Nullable(Type.String()),
    duty_date: Nullable(DateString),
    action_id: Nullable(Type.String()),
    booked_by: Nullable(Type.String()),
    review_reason: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    next_attempt_at: Nullable(Timestamp),
    replaces_booking_id: Type.Optional(Type.String({ description: 'On the new booking of a cancel-and-rebook' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Booking' },
);
export type Booking = Static<typeof Booking>;

export const BookingIdParams = Type.Object({ booking_id: Type.String({ format: 'uuid' }) });

export const BOOKING_FILTERS = [
  'schedule_id',
  'employee_id',
  'pairing_number',
  'flight_number',
  'irop_ref',
  'source',
  'type',
  'status',
  'from_date',
  'to_date',
] as const;

const bookingFilters = {
  schedule_id: Type.Optional(Type.String({ format: 'uuid' })),
  employee_id: Type.Optional(Type.String({ maxLength: 32 })),
  pairing_number: Type.Optional(Type.String({ maxLength: 32 })),
  flight_number: Type.Optional(Type.String({ maxLength: 8 })),
  irop_ref: Type.Optional(Type.String({ maxLength: 64 })),
  source: Type.Optional(ActionSource),
  type: Type.Optional(ActionType),
  status: Type.Optional(BookingStatusValue),
  from_date: Type.Optional(DateString),
  to_date: Type.Optional(DateString),
};

export const BookingListQuery = Type.Object({ ...bookingFilters, ...PageQuery }, { additionalProperties: false });
export const BookingList = Type.Object(
  { bookings: Type.Array(Booking), next_cursor: Nullable(Type.String()) },
  { title: 'BookingList' },
);

/** The list filters, at least one (POST /crew/bookings/retry-jobs). */
export const RetryJobBody = Type.Object(bookingFilters, { additionalProperties: false, minProperties: 1 });

export const StatusTransition = Type.Object(
  { status: Type.String(), at: Timestamp, reason: Nullable(Type.String()), actor: Type.String() },
  { title: 'StatusTransition' },
);
export const BookingStatusView = Type.Object(
  {
    booking_id: Type.String(),
    current_status: BookingStatusValue,
    history: Type.Array(StatusTransition),
    booking: Booking,
  },
  { title: 'BookingStatus' },
);

export const PatchBookingBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 1000 })),
    manual_override: Type.Optional(Type.Boolean()),
    hotel: Type.Optional(
      Type.Object(
        {
          check_in_date: Type.Optional(DateString),
          check_out_date: Type.Optional(DateString),
          property_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        },
        { additionalProperties: false, minProperties: 1 },
      ),
    ),
    flight: Type.Optional(
      Type.Object(
        {
          flight_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
          desired_arrival_by: Type.Optional(Timestamp),
        },
        {
          additionalProperties: false,
          description: 'flight_option_id OR desired_arrival_by; an empty block means full auto-booking',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type PatchBookingBody = Static<typeof PatchBookingBody>;

export const DeleteBookingQuery = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);

/** DELETE's optional JSON body: the same reason as the query parameter, which wins when both give one. */
export const DeleteBookingBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
export type DeleteBookingBody = Static<typeof DeleteBookingBody>;

export const RetryQueueEntry = Type.Object(
  {
    booking_id: Type.String(),
    type: ActionType,
    status: BookingStatusValue,
    retry_count: Type.Integer(),
    next_attempt_at: Timestamp,
    last_error: Nullable(Type.String()),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    schedule_id: Nullable(Type.String()),
  },
  { title: 'RetryQueueEntry' },
);
export const RetryQueue = Type.Object(
  { retry_queue: Type.Array(RetryQueueEntry), next_cursor: Nullable(Type.String()) },
  { title: 'RetryQueue' },
);

export const RetryJob = Type.Object(
  {
    retry_job_id: Type.String(),
    status: StringEnum(['RUNNING', 'COMPLETED', 'FAILED'] as const),
    total: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    created_at: Timestamp,
  },
  { title: 'RetryJob' },
);
export const RetryJobList = Type.Object({ retry_jobs: Type.Array(RetryJob), next_cursor: Nullable(Type.String()) });
export const RetryJobParams = Type.Object({ retry_job_id: Type.String({ format: 'uuid' }) });
export const PageOnlyQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

// ---- injection and commit (spec 2.7, 4.2, 4.4) ----

export const RequestAnchors = Type.Object(
  {
    traveller_email: Email,
    employee_id: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    pairing_number: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    duty_date: Type.Optional(DateString),
    flight_number: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);
export type RequestAnchors = Static<typeof RequestAnchors>;

export const RequestHotel = Type.Object(
  {
    city: Type.Optional(
      Type.String({
        minLength: 2,
        maxLength: 64,
        description:
          'Where the stay is: the station code (e.g. JFK) or a city name as the hotel directory (GET /hotels) spells it, case-insensitive (e.g. New York). A city with several airports resolves to the airline’s configured base there, else 422 naming the candidates. Optional with property_id, then checked against the property’s station.',
      }),
    ),
    property_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Pins the hotel; omitted: the station’s configured hotel',
      }),
    ),
    check_in_date: DateString,
    check_out_date: Type.Optional(DateString),
    num_nights: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })),
  },
  { additionalProperties: false },
);
export type RequestHotel = Static<typeof RequestHotel>;

const flightConstraints = {
  from_airport: Type.Optional(Airport),
  to_airport: Type.Optional(Airport),
  depart_date: Type.Optional({
    ...DateString,
    description:
      'Required with from_airport and to_airport unless a commit names flight_option_id; a cancellation needs only a date, this or anchors.duty_date, to find the booking',
  }),
  depart_after: Type.Optional(Timestamp),
  arrive_by: Type.Optional(Timestamp),
  cabin_class: Type.Optional(Cabin),
};

/** Commit: a chosen `flight_option_id`, or route and date for the engine to search (spec 2.7). */
export const CommitFlight = Type.Object(
  {
    flight_option_id: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    ...flightConstraints,
    // Additive: the resolution of a BOOK_IN_OWN_SYSTEM review item (the leg is on the airline's own metal).
    pnr: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9]{5,8}$',
        description:
          'The airline booked the crew seat in its own reservation system: its record locator. With ticket_id (one without the other is 422), the booking is recorded CONFIRMED with flight.supplier OWN_AIRLINE and no supplier is called; give the route and date (or anchors.duty_date) of the leg.',
      }),
    ),
    ticket_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'The ticket (or crew-seat document) number of that booking; required with pnr',
      }),
    ),
  },
  { additionalProperties: false },
);
/** Injection: constraints only; the engine searches. */
export const InjectionFlight = Type.Object(flightConstraints, { additionalProperties: false });
export type CommitFlight = Static<typeof CommitFlight>;

const requestFields = {
  type: ActionType,
  classification: Classification,
  source: Type.Optional(StringEnum(['IROP', 'AIRLINE_INJECTED'] as const)),
  irop_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  anchors: RequestAnchors,
  hotel: Type.Optional(RequestHotel),
  manual_override: Type.Optional(Type.Boolean({ default: true })),
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
};

export const ActionInjectionBody = Type.Object(
  { ...requestFields, priority: Type.Optional(Priority), flight: Type.Optional(InjectionFlight) },
  { additionalProperties: false },
);
export type ActionInjectionBody = Static<typeof ActionInjectionBody>;
export const BookingRequestBody = Type.Object(
  { ...requestFields, flight: Type.Optional(CommitFlight) },
  { additionalProperties: false },
);
export type BookingRequestBody = Static<typeof BookingRequestBody>;

export const IDEMPOTENCY_HEADER = {
  'Idempotency-Key': {
    description:
      'Repeating a key (per airline and endpoint, 24 h) replays the first answer; the same key with another body is 422 IDEMPOTENCY_KEY_REUSED',
  },
};

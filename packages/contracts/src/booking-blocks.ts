import { Type, type Static } from '@sinclair/typebox';
import { Airport, Carrier, Money, StringEnum, Timestamp } from './common';
import { Cabin } from './config';
import { FLIGHT_SUPPLIERS } from './suppliers';

/** A hotel block's nights (spec 2.7), in a request and in a PATCH: one shape, one rule (engine numNightsIssue). */
export const NumNights = Type.Integer({
  minimum: 1,
  maximum: 30,
  description:
    'Nights from the check-in date (spec 2.7). Alone it sets the check-out date; with check_out_date it must agree with the dates, else 422 naming num_nights',
});

/* A booking's `hotel` and `flight` blocks (spec 2.5): what was asked for and what the supplier holds. */

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
  cancellation_penalty: Type.Optional({
    ...Money,
    description:
      'The late-cancellation fee the contract charges for this cancellation: recorded when the booking was cancelled after the hotel’s cancellation deadline',
  }),
  cancellation_penalty_avoided: Type.Optional({
    ...Money,
    description:
      'The late fee this timely cancellation avoided: the contract’s late-cancellation fee, recorded when the booking was cancelled by the hotel’s deadline',
  }),
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
  flight_number: Type.Optional(
    Type.String({
      description:
        'The BOOKED flight, carrier code and number (e.g. BA117); the rostered one is the booking’s anchor flight_number',
    }),
  ),
  dep_time: Type.Optional(
    timestamp('Departure of the BOOKED flight, with the origin’s offset (the rostered leg’s is dep_time_local)'),
  ),
  arr_time: Type.Optional(
    timestamp('Arrival of the BOOKED flight, with the destination’s offset (the rostered leg’s is arr_time_local)'),
  ),
  cabin: Type.Optional(Cabin),
  price: Type.Optional(Money),
  supplier_status: Type.Optional(
    StringEnum(['CONFIRMED', 'CANCELLED', 'REQUESTED', 'REFUSED'] as const, {
      description:
        'The order as the supplier holds it; REQUESTED: the airline’s own system took the request and answers later; REFUSED: it said no',
    }),
  ),
  supplier_reason: Type.Optional(Type.String({ description: 'Why the airline’s own system refused the crew seat' })),
  request_reference: Type.Optional(
    Type.String({
      description:
        'Our reference of the latest crew-seat request the airline’s own system answered later (202), or whose answer never came (a timeout, a 5xx: no `supplier_status`; a retry or a cancellation asks again under it): only a callback naming it settles a REQUESTED booking',
    }),
  ),
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
    dep_time_local: Nullable(
      timestamp('Departure of the ROSTERED leg asked for (the roster’s deadhead leg); the booked flight’s is dep_time'),
    ),
    arr_time_local: Nullable(timestamp('Arrival of the ROSTERED leg asked for; the booked flight’s is arr_time')),
    ...flightBlockProperties,
  },
  { additionalProperties: false, title: 'BookingFlight' },
);
export type BookingFlight = Static<typeof BookingFlight>;

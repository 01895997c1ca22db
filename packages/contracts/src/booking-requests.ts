import { Type, type Static } from '@sinclair/typebox';
import { Airport, DateString, Email, Priority, StringEnum, Timestamp } from './common';
import { ActionType } from './action-items';
import { NumNights } from './booking-blocks';
import { Classification } from './classifications';
import { Cabin } from './config';

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
    num_nights: Type.Optional(NumNights),
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

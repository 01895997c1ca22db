import { Type, type Static } from '@sinclair/typebox';
import { Airport, DateString, Money, PageQuery, StringEnum, Timestamp } from './common';
import { Cabin, CABINS } from './config';
import { FLIGHT_SUPPLIERS } from './suppliers';

export const HotelSearchQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100, description: 'Partial, case-insensitive' })),
    city: Type.Optional(Type.String({ minLength: 2, maxLength: 100, description: 'Partial, case-insensitive' })),
    airport_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'Hotels near the airport' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type HotelSearchQuery = Static<typeof HotelSearchQuery>;

export const HotelDirectoryEntry = Type.Object(
  {
    property_id: Type.String(),
    name: Type.String(),
    city: Type.String(),
    airport_code: Type.String(),
    chain: Type.String(),
    country: Type.String(),
    distance_km: Type.Number(),
    nightly_rate: Money,
  },
  { title: 'HotelDirectoryEntry' },
);

export const HotelSearchResult = Type.Object({
  hotels: Type.Array(HotelDirectoryEntry),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

export const FlightOptionsQuery = Type.Object(
  {
    from_airport: Type.Optional(Airport),
    to_airport: Type.Optional(Airport),
    date: Type.Optional(DateString),
    arrive_by: Type.Optional(Timestamp),
    action_id: Type.Optional(Type.String({ maxLength: 64 })),
    employee_id: Type.Optional(Type.String({ maxLength: 32, description: 'Accepted, not applied' })),
    cabin: Type.Optional(
      StringEnum(CABINS, {
        description: "Only this cabin. Without a cabin, options above the airline's preferred_cabin are left out",
      }),
    ),
    cabin_class: Type.Optional(
      StringEnum(CABINS, { description: 'The same as `cabin` (the name POST /crew/bookings/request uses)' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 10 })),
    cursor: Type.Optional(Type.String({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type FlightOptionsQuery = Static<typeof FlightOptionsQuery>;

export const FlightOption = Type.Object(
  {
    flight_option_id: Type.String({
      description: 'Opaque supplier offer id, valid 20 minutes; pass it back unchanged',
    }),
    airline_code: Type.String(),
    flight_number: Type.String(),
    from_airport: Type.String(),
    to_airport: Type.String(),
    dep_time: Type.String({ format: 'date-time' }),
    arr_time: Type.String({ format: 'date-time' }),
    cabin: Cabin,
    price: Money,
    expires_at: Type.String({ format: 'date-time' }),
    auto_bookable: Type.Boolean({
      description:
        "Whether the engine could book this option by itself: an allowed carrier and cabin, and the fare within auto_book_max_price (compared in the ceiling's currency at the departure date's exchange rate)",
    }),
    auto_book_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why not, when auto_bookable is false' }),
    supplier: Type.Optional(
      StringEnum(FLIGHT_SUPPLIERS, {
        description:
          "Additive: the supplier of the airline's order that made the offer (the first in its order with offers for the route); booking the option books it there",
      }),
    ),
  },
  { title: 'FlightOption' },
);
export type FlightOption = Static<typeof FlightOption>;

export const FlightOptionsResult = Type.Object({
  options: Type.Array(FlightOption),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});

/** GET /crew/supplier-hotels: the properties the airline's own hotel supplier account knows near an airport. */
export const SupplierHotelsQuery = Type.Object(
  {
    near: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'IATA airport code: properties within 15 km of it' }),
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 100, description: 'Partial, case-insensitive' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type SupplierHotelsQuery = Static<typeof SupplierHotelsQuery>;

export const SupplierHotel = Type.Object(
  {
    property_id: Type.String({
      description: "The supplier's property id (Duffel: `acc_…`); register it in the hotel config as is",
    }),
    name: Type.String(),
    airport_code: Type.String({ description: 'The `near` airport' }),
    city: Type.String(),
    country: Type.String(),
    distance_km: Type.Number({ description: 'From the airport, great-circle' }),
    supplier: StringEnum(['DUFFEL'] as const),
    chain: Type.Optional(Type.String({ description: "The chain's name, when the supplier names one" })),
  },
  { title: 'SupplierHotel' },
);

export const SupplierHotelsResult = Type.Object(
  {
    hotels: Type.Array(SupplierHotel),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    note: Type.Optional(
      Type.String({
        description:
          "Why the list is empty although nothing failed: no supplier in the airline's hotel order searches its own properties",
      }),
    ),
  },
  { title: 'SupplierHotelsResult' },
);
export type SupplierHotelsResult = Static<typeof SupplierHotelsResult>;

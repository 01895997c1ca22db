import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common';

/** The suppliers an airline may order (flights: all three; hotels: SANDBOX and DUFFEL). */
export const FLIGHT_SUPPLIERS = ['SANDBOX', 'DUFFEL', 'OWN_AIRLINE'] as const;
export const HOTEL_SUPPLIERS = ['SANDBOX', 'DUFFEL'] as const;

const order = <T extends readonly string[]>(names: T, description: string) =>
  Type.Array(StringEnum(names), { minItems: 1, maxItems: names.length, uniqueItems: true, description });

const DuffelConnectionBody = Type.Object(
  {
    access_token: Type.String({
      minLength: 12,
      maxLength: 512,
      pattern: '^duffel_(test|live)_\\S+$',
      description:
        "The airline's Duffel access token (`duffel_test_…` or `duffel_live_…`). Write-only: stored sealed, never answered.",
    }),
  },
  { additionalProperties: false },
);

const OwnAirlineBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: 2048,
      description: "HTTPS endpoint of the airline's crew-booking system (docs/own-airline.md)",
    }),
    carrier: Type.String({
      pattern: '^[A-Z0-9]{2}$',
      description: 'The IATA carrier code whose legs go to that system',
    }),
    signing_secret: Type.Optional(
      Type.String({
        pattern: '^whsec_[A-Za-z0-9+/=]{24,}$',
        description:
          'Standard Webhooks secret signing our requests and the airline’s callbacks. Write-only; omitted keeps the stored one (required the first time).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** `PUT /ops/v1/airlines/{airline_id}/suppliers`: the whole order; an omitted `duffel` keeps the stored token, `null` removes it. */
export const SupplierSettingsBody = Type.Object(
  {
    flights: order(FLIGHT_SUPPLIERS, 'Flight suppliers in priority order'),
    hotels: order(HOTEL_SUPPLIERS, 'Hotel suppliers in priority order'),
    duffel: Type.Optional(Type.Union([DuffelConnectionBody, Type.Null()])),
    own_airline: Type.Optional(Type.Union([OwnAirlineBody, Type.Null()])),
  },
  { additionalProperties: false, title: 'SupplierSettingsBody' },
);
export type SupplierSettingsBody = Static<typeof SupplierSettingsBody>;

/** The setting as answered: no secret, only whether one is set. */
export const SupplierSettings = Type.Object(
  {
    flights: Type.Array(StringEnum(FLIGHT_SUPPLIERS)),
    hotels: Type.Array(StringEnum(HOTEL_SUPPLIERS)),
    duffel: Type.Union([
      Type.Object({
        access_token_set: Type.Boolean(),
        live_mode: Type.Boolean({ description: 'True for a `duffel_live_` token: its bookings are real and paid' }),
        webhook_registered: Type.Boolean({
          description: "Duffel's webhook for airline-initiated changes is registered with this token",
        }),
      }),
      Type.Null(),
    ]),
    own_airline: Type.Union([
      Type.Object({ url: Type.String(), carrier: Type.String(), signing_secret_set: Type.Boolean() }),
      Type.Null(),
    ]),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'SupplierSettings' },
);
export type SupplierSettings = Static<typeof SupplierSettings>;

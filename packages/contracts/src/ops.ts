import { Type, type Static } from '@sinclair/typebox';
import { CurrencyCode, DateString, Email, StringEnum } from './common';

/** The operator levers of spec section 1 with DESIGN section 3's defaults. */
export const AirlineSettings = Type.Object(
  {
    schedules_access: Type.Boolean({ default: false }),
    deadhead_auto_booking: Type.Boolean({ default: false }),
    booking_modification: Type.Boolean({ default: false }),
    swap_execution: Type.Boolean({ default: false }),
    cancellation_execution: Type.Boolean({ default: false }),
    rate_match_mode: StringEnum(['STRICT', 'LOOSE'] as const, {
      description: 'STRICT holds a rate mismatch for review; LOOSE books and flags it',
    }),
    emit_unchanged: Type.Boolean({ default: false }),
    max_retries: Type.Integer({ minimum: 0, maximum: 20, default: 3 }),
  },
  { additionalProperties: false, title: 'AirlineSettings' },
);
export type AirlineSettings = Static<typeof AirlineSettings>;
export const SETTING_NAMES = Object.keys(AirlineSettings.properties) as (keyof AirlineSettings)[];

export const AirlineSettingsPatch = Type.Partial(AirlineSettings, { additionalProperties: false, minProperties: 1 });
export type AirlineSettingsPatch = Static<typeof AirlineSettingsPatch>;

export const CreateAirlineBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    carrier_code: Type.String({ pattern: '^[A-Z0-9]{2}$', description: '2-letter IATA carrier code' }),
  },
  { additionalProperties: false },
);

export const AirlineView = Type.Object(
  {
    airline_id: Type.String(),
    name: Type.String(),
    carrier_code: Type.String(),
    settings: AirlineSettings,
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Airline' },
);
export type AirlineView = Static<typeof AirlineView>;

export const AirlineIdParams = Type.Object({ airline_id: Type.String({ format: 'uuid' }) });

export const CreateUserBody = Type.Object({ email: Email }, { additionalProperties: false });
export const CreatedUser = Type.Object(
  {
    user_id: Type.String(),
    email: Type.String(),
    user_token: Type.String({ description: 'Shown once. The register credential is `<user_id>:<user_token>`' }),
  },
  { title: 'CreatedUser' },
);

export const TravellerParams = Type.Object({ airline_id: Type.String({ format: 'uuid' }), traveller_email: Email });
export const TravellerBody = Type.Object(
  {
    employee_id: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    date_of_birth: Type.Optional(DateString),
    phone_number: Type.Optional(
      Type.String({
        pattern: '^\\+[1-9][0-9]{6,14}$',
        description: 'E.164, e.g. +442080160509 (stored sealed): Duffel needs the traveller’s phone to book',
      }),
    ),
  },
  { additionalProperties: false },
);
export const TravellerView = Type.Object(
  {
    traveller_email: Type.String(),
    employee_id: Type.Union([Type.String(), Type.Null()]),
    first_name: Type.Union([Type.String(), Type.Null()]),
    last_name: Type.Union([Type.String(), Type.Null()]),
    name: Type.Union([Type.String(), Type.Null()]),
    date_of_birth: Type.Union([Type.String(), Type.Null()]),
    phone_number: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'TravellerProfile' },
);
export type TravellerView = Static<typeof TravellerView>;

/** Exchange rates: the operator's table, against the pivot currency USD. */
export const FX_PIVOT_CURRENCY = 'USD';

/** Checked by the handler (a bad code is a 422, not a 404). */
export const FxRateParams = Type.Object({
  currency: Type.String({ maxLength: 16, description: 'ISO 4217 code other than USD, e.g. EUR' }),
});
export const FxRateBody = Type.Object(
  {
    rate: Type.Number({
      exclusiveMinimum: 0,
      maximum: 1e9,
      description: 'USD per one unit of the currency (EUR 1.08 means 1 EUR = 1.08 USD)',
    }),
    as_of: Type.Optional(DateString),
    set_by: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Who set it (free text, e.g. an email)' }),
    ),
  },
  { additionalProperties: false },
);
export type FxRateBody = Static<typeof FxRateBody>;
export const FxRateView = Type.Object(
  {
    currency: Type.String(),
    rate: Type.Number({ description: 'USD per one unit of the currency' }),
    as_of: Type.String({
      format: 'date',
      description: 'The rate holds from this date until the next rate of the currency',
    }),
    set_by: Type.Union([Type.String(), Type.Null()]),
    set_at: Type.String({ format: 'date-time' }),
  },
  { title: 'FxRate' },
);
export const FxRatesQuery = Type.Object({ currency: Type.Optional(CurrencyCode) }, { additionalProperties: false });
export const FxRatesList = Type.Object({
  pivot_currency: Type.Literal(FX_PIVOT_CURRENCY),
  fx_rates: Type.Array(FxRateView, { description: 'Every rate set, by currency, newest as_of first' }),
});

import { Type, type Static } from '@sinclair/typebox';
import { Email, StringEnum } from './common';

export const CompanyConfigBody = Type.Object(
  {
    crew_booker_email: Type.Optional(Email),
    cancellation_lookback_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
  },
  { additionalProperties: false },
);
export type CompanyConfigBody = Static<typeof CompanyConfigBody>;

/** Company config; the automation flags and the rate-matching mode are read-only here (operator levers). */
export const CompanyConfig = Type.Object(
  {
    crew_booker_email: Type.Union([Email, Type.Null()]),
    cancellation_lookback_days: Type.Integer(),
    automation: Type.Object({
      schedules_access: Type.Boolean(),
      deadhead_auto_booking: Type.Boolean(),
      booking_modification: Type.Boolean(),
      swap_execution: Type.Boolean(),
      cancellation_execution: Type.Boolean(),
      emit_unchanged: Type.Boolean(),
    }),
    rate_match_mode: StringEnum(['STRICT', 'LOOSE'] as const),
    max_retries: Type.Integer(),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'CompanyConfig' },
);
export type CompanyConfig = Static<typeof CompanyConfig>;

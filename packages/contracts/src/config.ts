import { Type, type Static } from '@sinclair/typebox';
import { Airport, Carrier, DateString, Email, HhMm, Int64Id, Money, StringEnum } from './common';

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
  { title: 'CompanyConfig' },
);
export type CompanyConfig = Static<typeof CompanyConfig>;

// ---- Hotel config (spec 2.6, 4.3; DESIGN section 4) ----

export const HotelPolicy = StringEnum(['STANDARD', 'FLEXIBLE', 'GUARANTEED'] as const);
export const HandlerType = StringEnum(['GDS', 'DIRECT'] as const);

export const RatePeriod = Type.Object(
  { effective_from: DateString, effective_to: DateString, rate: Money },
  { additionalProperties: false, title: 'RatePeriod' },
);
export type RatePeriod = Static<typeof RatePeriod>;

/** The negotiated terms of a hotel: what may not change while automated booking is on for it. */
const hotelTerms = {
  chain: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Required for a hotel not in the GDS inventory (a DIRECT hotel)',
    }),
  ),
  policy: HotelPolicy,
  standard_check_in_time: Type.Optional(HhMm),
  standard_check_out_time: Type.Optional(HhMm),
  flex_window_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
  guaranteed_early_check_in_time: Type.Optional(HhMm),
  guaranteed_late_check_out_time: Type.Optional(HhMm),
  buffer_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440 })),
  contract_rate: Type.Optional(Money),
};
export const TERM_FIELDS = Object.keys(hotelTerms) as (keyof typeof hotelTerms)[];

export const HotelInput = Type.Object(
  {
    property_id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Display name; for a GDS hotel the inventory name is used',
      }),
    ),
    ...hotelTerms,
    reservations_email: Type.Optional(
      Type.Union([Email, Type.Null()], {
        description:
          'Where a DIRECT hotel’s rooming lists are e-mailed; a DIRECT hotel without it is not booked automatically (its layovers go to review)',
      }),
    ),
    rate_periods: Type.Optional(
      Type.Array(RatePeriod, {
        maxItems: 366,
        description:
          'Omitted: rates untouched; []: clears legacy rates; a non-empty list is refused (rates belong to contracts)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type HotelInput = Static<typeof HotelInput>;

export const HotelConfigBody = Type.Object(
  {
    bases: Type.Array(
      Type.Object(
        {
          base_station: Airport,
          hotels: Type.Array(HotelInput, { minItems: 1, maxItems: 1, description: 'One hotel per base' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 2000 },
    ),
  },
  { additionalProperties: false },
);
export type HotelConfigBody = Static<typeof HotelConfigBody>;

export const Hotel = Type.Object(
  {
    hotel_config_id: Type.Integer({ description: 'int64, stable for a base_station + property_id across versions' }),
    property_id: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    ...hotelTerms,
    rate_periods: Type.Array(RatePeriod, { description: 'Legacy rates; contracted rates live on contracts' }),
    reservations_email: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: 'Where a DIRECT hotel’s rooming lists are e-mailed' }),
    ),
    handler_type: HandlerType,
    automated_booking_enabled: Type.Boolean(),
  },
  { title: 'Hotel' },
);
export type Hotel = Static<typeof Hotel>;

export const HotelConfig = Type.Object(
  {
    bases: Type.Array(Type.Object({ base_station: Type.String(), hotels: Type.Array(Hotel) })),
    version: Type.Union([Type.String({ pattern: '^v[0-9]+$' }), Type.Null()], {
      description: 'null until the first PUT',
    }),
    active: Type.Boolean(),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'HotelConfig' },
);
export type HotelConfig = Static<typeof HotelConfig>;

// ---- Flight config and rules ----

export const CABINS = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'] as const;
export const Cabin = StringEnum(CABINS);
export type Cabin = (typeof CABINS)[number];

export const FlightConfigBody = Type.Object(
  {
    preferred_airlines: Type.Optional(Type.Array(Carrier, { maxItems: 50, uniqueItems: true })),
    blacklisted_airlines: Type.Optional(Type.Array(Carrier, { maxItems: 50, uniqueItems: true })),
    preferred_cabin: Type.Optional(Cabin),
    same_carrier_preference: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type FlightConfigBody = Static<typeof FlightConfigBody>;

export const FlightConfig = Type.Object(
  {
    preferred_airlines: Type.Array(Type.String()),
    blacklisted_airlines: Type.Array(Type.String()),
    preferred_cabin: Cabin,
    same_carrier_preference: Type.Boolean(),
    version: Type.Union([Type.String({ pattern: '^v[0-9]+$' }), Type.Null()]),
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'FlightConfig' },
);
export type FlightConfig = Static<typeof FlightConfig>;

export const FARE_CONDITIONS = ['ANY', 'REFUNDABLE', 'CHANGEABLE'] as const;
export type FareConditions = (typeof FARE_CONDITIONS)[number];
const FareConditionsRule = StringEnum(FARE_CONDITIONS, {
  description:
    'Which fares the engine may book by itself: ANY (the default: the rule is off), REFUNDABLE (refundable before departure) or CHANGEABLE (changeable before departure). A supplier that does not state a fare’s conditions (the sandbox) fits neither REFUNDABLE nor CHANGEABLE.',
});

export const FlightRulesBody = Type.Object(
  {
    auto_book_max_price: Type.Optional(Type.Union([Money, Type.Null()], { description: 'null removes the ceiling' })),
    fare_conditions: Type.Optional(FareConditionsRule),
  },
  { additionalProperties: false },
);
export const FlightRules = Type.Object(
  {
    auto_book_max_price: Type.Union([Money, Type.Null()]),
    fare_conditions: FareConditionsRule,
    updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'FlightRules' },
);
export type FlightRules = Static<typeof FlightRules>;

export const ConfigVersionParams = Type.Object({
  config_type: Type.String({ maxLength: 32 }),
  version: Type.String({ maxLength: 32 }),
});

// ---- Contracts and change requests (DESIGN section 4) ----

export const HotelConfigIdParams = Type.Object({ hotel_config_id: Int64Id() });
export const ContractParams = Type.Object({ hotel_config_id: Int64Id(), contract_id: Int64Id() });

// ---- Cancellation terms of a contract (docs/cost-control.md) ----

/**
 * A fee: AMOUNT with amount, or NIGHTS with nights (at the stay's nightly rate). The schema states the shape;
 * which field a type needs is checked by the engine (cancellationTermsIssues), which names each bad field.
 */
export const CancellationFee = Type.Object(
  {
    type: StringEnum(['AMOUNT', 'NIGHTS'] as const),
    amount: Type.Optional(Money),
    nights: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false, title: 'CancellationFee' },
);
export type CancellationFee = Static<typeof CancellationFee>;

export const CancellationDeadline = Type.Object(
  {
    days_before: Type.Integer({ description: 'Days before the check-in date (0: the day of arrival), 0 to 365' }),
    local_time: Type.String({ description: 'HH:MM, hotel time; "by 18:00" includes 18:00' }),
  },
  {
    additionalProperties: false,
    title: 'CancellationDeadline',
    description:
      'When the hotel must have the cancellation to charge nothing, as hotels write it: "by 18:00 hotel time on the day of arrival" is {"days_before": 0, "local_time": "18:00"}',
  },
);

/** The terms fields of a contract's create and PATCH: omitted keeps (PATCH), null clears. */
const cancellationFields = {
  cancellation_deadline: Type.Optional(Type.Union([CancellationDeadline, Type.Null()])),
  late_cancellation_fee: Type.Optional(
    Type.Union([CancellationFee, Type.Null()], {
      description: 'Charged for a cancellation after the deadline; absent or null: none',
    }),
  ),
  no_show_fee: Type.Optional(
    Type.Union([CancellationFee, Type.Null()], {
      description: 'Charged when the guest does not arrive; absent or null: none',
    }),
  ),
  hotel_time_zone: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
      description:
        "Additive: the hotel's IANA time zone, in which the deadline is read. Omitted: the hotel inventory's zone for the property; required when the inventory does not know the hotel (a DIRECT hotel)",
    }),
  ),
  incidentals_covered: Type.Optional(
    Type.Boolean({
      description:
        'Additive: the airline pays incidentals at this hotel (default false: an invoice’s incidentals are disputed)',
    }),
  ),
};

export const ContractBody = Type.Object(
  {
    contract_number: Type.String({ minLength: 1, maxLength: 64 }),
    contract_from: DateString,
    contract_to: DateString,
    rate_access_code: Type.Optional(
      Type.String({
        pattern: '^[\\x21-\\x7E]{1,64}$',
        description:
          "Additive: the hotel's negotiated-rate access code for this contract (printable, no spaces). Bookings under the contract ask the supplier for the negotiated rates it names (Duffel matches them best effort; without one the rate rules still apply)",
      }),
    ),
    ...cancellationFields,
  },
  { additionalProperties: false },
);
export type ContractBody = Static<typeof ContractBody>;

/** PATCH a contract's cancellation terms: an omitted field keeps its value, null clears it. */
export const ContractPatchBody = Type.Object(cancellationFields, { additionalProperties: false });
export type ContractPatchBody = Static<typeof ContractPatchBody>;
export const ContractRatesBody = Type.Object(
  { rate_periods: Type.Array(RatePeriod, { maxItems: 366 }) },
  { additionalProperties: false },
);

export const Contract = Type.Object(
  {
    contract_id: Type.Integer(),
    hotel_config_id: Type.Integer(),
    contract_number: Type.String(),
    contract_from: DateString,
    contract_to: DateString,
    automated_booking_enabled: Type.Boolean(),
    rate_periods: Type.Array(RatePeriod),
    rate_access_code: Type.Optional(
      Type.String({ description: 'Additive: the negotiated-rate access code given at creation; absent when none was' }),
    ),
    cancellation_deadline: Type.Optional(Type.Union([CancellationDeadline, Type.Null()])),
    late_cancellation_fee: Type.Optional(Type.Union([CancellationFee, Type.Null()])),
    no_show_fee: Type.Optional(Type.Union([CancellationFee, Type.Null()])),
    hotel_time_zone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    incidentals_covered: Type.Optional(Type.Boolean()),
  },
  { title: 'Contract' },
);
export type Contract = Static<typeof Contract>;

export const ChangeRequestIntent = StringEnum(['ENABLE', 'DISABLE', 'DELETE'] as const);
export const ChangeRequestStatus = StringEnum(['OPEN', 'APPROVED', 'DECLINED', 'WITHDRAWN'] as const);

export const ChangeRequestBody = Type.Object(
  { contract_id: Int64Id(), intent: StringEnum(['ENABLE', 'DISABLE'] as const) },
  { additionalProperties: false },
);
export const ChangeRequestListQuery = Type.Object(
  { open_only: Type.Optional(Type.Boolean({ default: true })) },
  { additionalProperties: false },
);
export const ChangeRequestParams = Type.Object({ request_id: Int64Id() });

export const ChangeRequest = Type.Object(
  {
    request_id: Type.Integer(),
    hotel_config_id: Type.Integer(),
    contract_id: Type.Integer(),
    intent: ChangeRequestIntent,
    status: ChangeRequestStatus,
    hotel_name: Type.Union([Type.String(), Type.Null()]),
    station: Type.String(),
    contract_number: Type.String(),
    contract_from: DateString,
    contract_to: DateString,
    requested_by: Type.String(),
    requested_on: Type.String({ format: 'date-time' }),
    decided_by: Type.Union([Type.String(), Type.Null()]),
    decided_on: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    decision_note: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'ChangeRequest' },
);
export type ChangeRequest = Static<typeof ChangeRequest>;

/** The operator's view of a change request: every airline's, so it names the airline. */
export const OpsChangeRequest = Type.Object(
  { ...ChangeRequest.properties, airline_id: Type.String({ format: 'uuid' }), airline_name: Type.String() },
  { title: 'OpsChangeRequest' },
);

export const DecideBody = Type.Object(
  {
    decision: StringEnum(['APPROVED', 'DECLINED'] as const),
    decided_by: Email,
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export const OpsChangeRequestQuery = Type.Object(
  { status: Type.Optional(ChangeRequestStatus) },
  { additionalProperties: false },
);

/** A stored flight config version: every field present. */
export type FlightConfigSnapshot = Required<FlightConfigBody>;

// ---- GET / PUT /crew/config/cost ----

const costFields = {
  cancel_hold_minutes: Type.Integer({
    minimum: 0,
    maximum: 1440,
    description:
      'How long a cancellation caused by a roster change waits in case the roster changes back (0 to 1440; 0: no hold)',
  }),
  after_deadline: StringEnum(['CANCEL', 'REVIEW'] as const, {
    description:
      'A roster cancellation after the hotel’s deadline: CANCEL anyway and record the fee (the default), or REVIEW (a person decides)',
  }),
};
export const CostSettings = Type.Object(costFields, { additionalProperties: false, title: 'CostSettings' });
export type CostSettingsView = Static<typeof CostSettings>;

/** PUT: any subset; an omitted field keeps its value (a fault is 422 naming the field). */
export const CostSettingsBody = Type.Object(
  {
    cancel_hold_minutes: Type.Optional(costFields.cancel_hold_minutes),
    after_deadline: Type.Optional(costFields.after_deadline),
  },
  { additionalProperties: false },
);
export type CostSettingsBody = Static<typeof CostSettingsBody>;

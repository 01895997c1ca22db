import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Airport, DateString, Email, Priority, StringEnum, Timestamp } from './common';
import { Cabin } from './config';
import type { ValidationIssue } from './validation';

/*
 * Schedule submission (spec 2.1) and the schedule / action-item / audit-event records of
 * spec 2.2-2.4 and 6. Required fields and limits the spec leaves "not shown" are documented
 * in docs/roster-rules.md. The schemas carry a `title`, not an `$id`: ajv refuses to
 * compile a schema whose `$id` it already met embedded in another schema.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

// ---------------------------------------------------------------- enums

export const RANKS = ['CA', 'FO', 'FA', 'PU', 'SO'] as const;
export const Rank = StringEnum(RANKS, { description: 'Crew rank' });
export type Rank = Static<typeof Rank>;

export const ACTIVITY_CODES = ['FLT', 'DH', 'TRG', 'OFF', 'RSV', 'SBY', 'SL', 'RST'] as const;
export const ActivityCode = StringEnum(ACTIVITY_CODES, {
  description: 'FLT revenue flight, DH deadhead (FLIGHT booking category), TRG, OFF, RSV, SBY, SL, RST',
});
export type ActivityCode = Static<typeof ActivityCode>;

/** Every classification of spec 2.4. The set may grow; readers must tolerate unknown values. */
export const CLASSIFICATIONS = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CITY_CHANGE',
  'LAYOVER_CANCELLED',
  'LAYOVER_EXTENDED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'DEADHEAD_CANCELLED',
  'PAIRING_NEW',
  'PAIRING_EXTENDED',
  'PAIRING_SHORTENED',
  'PAIRING_CANCELLED',
  'SWAP_OUT',
  'SWAP_IN',
  'STATUS_TRANSITION',
  'IROP_NEW_DEADHEAD',
  'IROP_REROUTE',
  'IROP_HOTEL_EXTEND',
  'IROP_HOTEL_CANCEL',
  'DATA_QUALITY_FLAG',
  'DATA_QUALITY_QUARANTINE',
  'DUPLICATE_ROW',
  'UNCHANGED',
] as const;
/** What requests may send (injection, commit): one of the known values. */
export const Classification = StringEnum(CLASSIFICATIONS);
export type Classification = Static<typeof Classification>;

/**
 * What responses carry: an open set (spec 2.4 and 9.3: new values may appear within v1, clients must handle
 * unknown ones). The known values are listed for generated clients; any other string is allowed.
 */
export const ClassificationValue = Type.Unsafe<Classification | (string & {})>({
  title: 'Classification',
  description:
    'An open set: the known values of spec 2.4, and any other string a later release may add (handle unknown values).',
  anyOf: [{ type: 'string', enum: [...CLASSIFICATIONS] }, { type: 'string' }],
});
export type ClassificationValue = Static<typeof ClassificationValue>;

/** The classifications the schedule-diff path derives (spec 2.4, last paragraph). */
export const DIFF_CLASSIFICATIONS = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CITY_CHANGE',
  'LAYOVER_EXTENDED',
  'LAYOVER_CANCELLED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'DEADHEAD_CANCELLED',
  'SWAP_OUT',
  'SWAP_IN',
  'DUPLICATE_ROW',
  'DATA_QUALITY_FLAG',
  'UNCHANGED',
] as const satisfies readonly Classification[];

/** The classifications recorded as audit events (spec 6) rather than action items. */
export const AUDIT_CLASSIFICATIONS = [
  'DATA_QUALITY_FLAG',
  'DATA_QUALITY_QUARANTINE',
  'DUPLICATE_ROW',
] as const satisfies readonly Classification[];
export const AuditClassification = StringEnum(AUDIT_CLASSIFICATIONS);
export type AuditClassification = Static<typeof AuditClassification>;

export const ACTION_SOURCES = ['SCHEDULE_DIFF', 'AIRLINE_INJECTED', 'IROP'] as const;
export const ActionSource = StringEnum(ACTION_SOURCES);
export type ActionSource = Static<typeof ActionSource>;

export const ACTION_TYPES = ['HOTEL', 'FLIGHT'] as const;
export const ActionType = StringEnum(ACTION_TYPES);
export type ActionType = Static<typeof ActionType>;

export const ACTION_SUBTYPES = ['NEW_BOOKING', 'MODIFY', 'CANCEL'] as const;
export const ActionSubtype = StringEnum(ACTION_SUBTYPES);
export type ActionSubtype = Static<typeof ActionSubtype>;

export const DISPOSITIONS = ['AUTO_BOOKED', 'AUTO_CANCELLED', 'PENDING_REVIEW', 'FAILED'] as const;
export const Disposition = StringEnum(DISPOSITIONS);
export type Disposition = Static<typeof Disposition>;

/** Spec 3.1 values; PARTIAL is named as terminal by the spec. */
export const PROCESSING_STATUSES = ['QUEUED', 'PROCESSING', 'BOOKING', 'COMPLETED', 'FAILED', 'PARTIAL'] as const;
export const ProcessingStatusValue = StringEnum(PROCESSING_STATUSES);
export type ProcessingStatusValue = Static<typeof ProcessingStatusValue>;

// ---------------------------------------------------------------- submission (spec 2.1)

export const Leg = Type.Object(
  {
    leg_sequence: Type.Integer({ minimum: 1 }),
    activity_code: ActivityCode,
    flight_number: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
    from_airport: Airport,
    to_airport: Airport,
    dep_time_local: Timestamp,
    arr_time_local: Timestamp,
    expected_dep_time_local: Type.Optional(Timestamp),
    expected_arr_time_local: Type.Optional(Timestamp),
    aircraft_type: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
    aircraft_tail: Type.Optional(Type.String({ minLength: 1, maxLength: 12 })),
    block_hours: Type.Optional(Type.Number({ minimum: 0 })),
    booking_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, title: 'Leg' },
);
export type Leg = Static<typeof Leg>;

export const Layover = Type.Object(
  {
    station: Airport,
    booking_required: Type.Boolean(),
    checkin_time_local: Timestamp,
    checkout_time_local: Timestamp,
  },
  { additionalProperties: false, title: 'Layover' },
);
export type Layover = Static<typeof Layover>;

export const DutyPeriod = Type.Object(
  {
    duty_period_num: Type.Integer({ minimum: 1 }),
    duty_date: DateString,
    fdp_start_local: Timestamp,
    fdp_end_local: Timestamp,
    // Empty is allowed: a duty period can be a pure layover / rest day.
    legs: Type.Array(Leg, { maxItems: 20 }),
    layover: Type.Optional(Layover),
  },
  { additionalProperties: false, title: 'DutyPeriod' },
);
export type DutyPeriod = Static<typeof DutyPeriod>;

export const CrewMember = Type.Object(
  {
    employee_id: Type.String({ minLength: 1, maxLength: 32 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    rank: Rank,
    home_base: Airport,
    traveller_email: Email,
    union_code: Type.Optional(Type.String({ maxLength: 32 })),
  },
  { additionalProperties: false, title: 'CrewMember' },
);
export type CrewMember = Static<typeof CrewMember>;

export const Pairing = Type.Object(
  {
    pairing_number: Type.String({ minLength: 1, maxLength: 32 }),
    origin_base: Airport,
    terminus_base: Airport,
    check_in_local: Timestamp,
    check_out_local: Timestamp,
    tafb_hours: Type.Optional(Type.Number({ minimum: 0 })),
    crew: Type.Array(CrewMember, { minItems: 1, maxItems: 50 }),
    duty_periods: Type.Array(DutyPeriod, { minItems: 1, maxItems: 31 }),
  },
  { additionalProperties: false, title: 'Pairing' },
);
export type Pairing = Static<typeof Pairing>;

export const ScheduleSubmission = Type.Object(
  {
    external_ref: Type.Optional(Type.String({ maxLength: 128 })),
    as_of: Type.Optional(Timestamp),
    schedule_start_date: DateString,
    schedule_end_date: DateString,
    pairings: Type.Array(Pairing, { minItems: 1, maxItems: 100000 }),
  },
  { additionalProperties: false, title: 'ScheduleSubmission' },
);
export type ScheduleSubmission = Static<typeof ScheduleSubmission>;

/**
 * Cross-field rules JSON Schema cannot express. Only rules about the request itself belong
 * here; impossible data (arrival before departure, ...) is the engine's DATA_QUALITY_FLAG.
 */
export function scheduleSubmissionIssues(body: ScheduleSubmission): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  // YYYY-MM-DD strings order like the dates they name.
  if (body.schedule_end_date < body.schedule_start_date) {
    issues.push({ field: '/schedule_end_date', issue: 'must be on or after schedule_start_date' });
  }
  return issues;
}

// ---------------------------------------------------------------- schedule records (spec 2.2)

export const ScheduleLinks = Type.Object(
  { status: Type.String(), action_items: Type.String() },
  { additionalProperties: false, title: 'ScheduleLinks' },
);
export type ScheduleLinks = Static<typeof ScheduleLinks>;

export const ScheduleSummary = Type.Object(
  {
    action_items_total: Type.Integer({ minimum: 0 }),
    action_items_auto_booked: Type.Integer({ minimum: 0 }),
    action_items_auto_cancelled: Type.Integer({ minimum: 0 }),
    action_items_pending_review: Type.Integer({ minimum: 0 }),
    // The processing-status summary may omit it (spec 2.2).
    action_items_failed: Type.Optional(Type.Integer({ minimum: 0 })),
    audit_events: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'ScheduleSummary' },
);
export type ScheduleSummary = Static<typeof ScheduleSummary>;

export const ScheduleAccepted = Type.Object(
  {
    schedule_id: Type.String(),
    external_ref: Nullable(Type.String()),
    processing_status: ProcessingStatusValue,
    received_at: Timestamp,
    links: ScheduleLinks,
  },
  { additionalProperties: false, title: 'ScheduleAccepted' },
);
export type ScheduleAccepted = Static<typeof ScheduleAccepted>;

/** The 202 answer plus when processing started and ended and what it produced. */
export const ScheduleDetail = Type.Object(
  {
    ...ScheduleAccepted.properties,
    started_at: Nullable(Timestamp),
    completed_at: Nullable(Timestamp),
    summary: ScheduleSummary,
  },
  { additionalProperties: false, title: 'ScheduleDetail' },
);
export type ScheduleDetail = Static<typeof ScheduleDetail>;

export const ProcessingStatus = Type.Object(
  {
    schedule_id: Type.String(),
    status: ProcessingStatusValue,
    received_at: Timestamp,
    started_at: Nullable(Timestamp),
    completed_at: Nullable(Timestamp),
    error: Nullable(Type.String()),
    flight_tasks_pending: Type.Integer({ minimum: 0 }),
    poll_recommended: Type.Boolean(),
    summary: ScheduleSummary,
  },
  { additionalProperties: false, title: 'ProcessingStatus' },
);
export type ProcessingStatus = Static<typeof ProcessingStatus>;

// ---------------------------------------------------------------- action item (spec 2.3) and audit event (spec 6)

export const ActionAnchors = Type.Object(
  {
    // Null on injected items that name only the traveller.
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    duty_date: Nullable(DateString),
    traveller_email: Type.Optional(Email),
  },
  { additionalProperties: false, title: 'ActionAnchors' },
);
export type ActionAnchors = Static<typeof ActionAnchors>;

export const SourceRows = Type.Object(
  {
    day1_row: Nullable(Type.Integer({ minimum: 1 })),
    day2_row: Nullable(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, title: 'SourceRows' },
);
export type SourceRows = Static<typeof SourceRows>;

const StayBefore = Type.Object(
  { station: Airport, checkin_time_local: Timestamp, checkout_time_local: Timestamp },
  { additionalProperties: false },
);
const LegBefore = Type.Object(
  {
    from_airport: Airport,
    to_airport: Airport,
    flight_number: Nullable(Type.String()),
    dep_time_local: Timestamp,
    arr_time_local: Timestamp,
  },
  { additionalProperties: false },
);

/**
 * What the booking of an action item needs (spec 2.3 "not shown"). A diff-derived HOTEL item carries the stay
 * (`station`, `checkin_time_local`, `checkout_time_local`), a FLIGHT item the leg (`from_airport` …
 * `scheduled_arr_time_local`), both the crew member and the roster row; a MODIFY item the `previous` stay or
 * leg; a swap the crew `swap`. An injected item carries the request's `hotel` (and its resolved `station`) or
 * `flight` block.
 */
export const ActionItemDetails = Type.Object(
  {
    row_key: Type.Optional(Type.String({ description: 'The roster row (layover or leg key) the item derives from' })),
    duty_period_num: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
    leg_sequence: Type.Optional(Type.Integer({ minimum: 1 })),
    station: Type.Optional(Airport),
    checkin_time_local: Type.Optional(Timestamp),
    checkout_time_local: Type.Optional(Timestamp),
    from_airport: Type.Optional(Airport),
    to_airport: Type.Optional(Airport),
    flight_number: Type.Optional(Nullable(Type.String())),
    dep_time_local: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Departure the booking aims at: the expected time when the roster gives one',
      }),
    ),
    arr_time_local: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'Arrival the booking aims at: the expected time when the roster gives one',
      }),
    ),
    scheduled_dep_time_local: Type.Optional(Nullable(Timestamp)),
    scheduled_arr_time_local: Type.Optional(Nullable(Timestamp)),
    traveller_email: Type.Optional(Nullable(Email)),
    name: Type.Optional(Nullable(Type.String())),
    rank: Type.Optional(Nullable(Rank)),
    home_base: Type.Optional(Nullable(Airport)),
    previous: Type.Optional(
      Type.Union([StayBefore, LegBefore], { description: 'The booked stay or leg before the change (MODIFY items)' }),
    ),
    swap: Type.Optional(
      Type.Object(
        { removed: Type.Array(Type.String()), added: Type.Array(Type.String()) },
        {
          additionalProperties: false,
          description: 'Crew employee_ids removed from and added to an unchanged pairing',
        },
      ),
    ),
    hotel: Type.Optional(
      Type.Object(
        {
          city: Type.Optional(Type.String()),
          property_id: Type.Optional(Type.String()),
          check_in_date: Type.Optional(DateString),
          check_out_date: Type.Optional(DateString),
          num_nights: Type.Optional(Type.Integer()),
        },
        { additionalProperties: false, description: 'The hotel block of the injection' },
      ),
    ),
    flight: Type.Optional(
      Type.Object(
        {
          flight_option_id: Type.Optional(Type.String()),
          from_airport: Type.Optional(Airport),
          to_airport: Type.Optional(Airport),
          depart_date: Type.Optional(DateString),
          depart_after: Type.Optional(Timestamp),
          arrive_by: Type.Optional(Timestamp),
          cabin_class: Type.Optional(Cabin),
        },
        { additionalProperties: false, description: 'The flight block of the injection or request' },
      ),
    ),
  },
  { additionalProperties: false, title: 'ActionItemDetails' },
);
export type ActionItemDetails = Static<typeof ActionItemDetails>;

export const ActionItem = Type.Object(
  {
    action_id: Type.String(),
    // Present for diff-derived items, null otherwise.
    schedule_id: Nullable(Type.String()),
    source: ActionSource,
    type: ActionType,
    subtype: ActionSubtype,
    classification: ClassificationValue,
    priority: Priority,
    // Null until the booking engine has handled the item.
    disposition: Nullable(Disposition),
    auto_eligible: Type.Boolean(),
    anchors: ActionAnchors,
    source_rows: SourceRows,
    booking_id: Nullable(Type.String()),
    flight_options_url: Nullable(Type.String()),
    recommended_action: Nullable(Type.String()),
    created_at: Timestamp,
    // "Not shown" extras: free text of an injection, the reason shown to a reviewer, the data the booking needs.
    notes: Nullable(Type.String()),
    message: Nullable(Type.String()),
    details: ActionItemDetails,
  },
  { additionalProperties: false, title: 'ActionItem' },
);
export type ActionItem = Static<typeof ActionItem>;

export const AuditEvent = Type.Object(
  {
    event_id: Type.String(),
    schedule_id: Type.String(),
    classification: ClassificationValue,
    message: Type.String(),
    anchors: ActionAnchors,
    source_rows: SourceRows,
    details: Type.Object(
      {
        row_key: Type.String({ description: 'The roster row (leg or layover key)' }),
        first_row: Type.Optional(Type.Integer({ minimum: 1, description: 'DUPLICATE_ROW: the row that wins' })),
        reason: Type.Optional(Type.String({ description: 'DATA_QUALITY_FLAG: what is wrong with the row' })),
      },
      { additionalProperties: false, title: 'AuditEventDetails' },
    ),
    created_at: Timestamp,
  },
  { additionalProperties: false, title: 'AuditEvent' },
);
export type AuditEvent = Static<typeof AuditEvent>;

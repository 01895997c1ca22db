import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Airport, DateString, Email, StringEnum, Timestamp } from './common';
import type { ValidationIssue } from './validation';

/*
 * Schedule submission (spec 2.1) and the schedule records of spec 2.2; action items and audit events (spec 2.3, 6)
 * are in action-items.ts, their classifications (spec 2.4) in classifications.ts. Required fields and limits the
 * spec leaves "not shown" are documented in docs/roster-rules.md. The schemas carry a `title`, not an `$id`: ajv refuses to
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
    as_of: Type.Optional(
      Type.String({
        ...Timestamp,
        description:
          'UTC time the snapshot was captured. A snapshot captured before one already applied over an overlapping ' +
          'window is not applied: the schedule ends FAILED with an error naming the later schedule.',
      }),
    ),
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
    action_items_resolved_by_person: Type.Integer({
      minimum: 0,
      description:
        'Items a person resolved, from the review queue or by a commit that fulfilled their booking (action_taken, not a dismissal); each is also counted under its disposition (a chosen deadhead that booked is in action_items_auto_booked too)',
    }),
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

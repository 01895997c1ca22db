import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Airport, DateString, Email, Priority, StringEnum, Timestamp } from './common';
import { ClassificationValue } from './classifications';
import { Cabin } from './config';
import { Rank } from './schedules';

/*
 * The action-item (spec 2.3) and audit-event (spec 6) records, and the enums of an action item. The schemas carry a
 * `title`, not an `$id` (see schedules.ts).
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

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

/** The review queue (docs/review-queue.md): where an item stands with the travel desk. */
export const REVIEW_STATUS_VALUES = ['OPEN', 'RESOLVED', 'DISMISSED'] as const;
export const ReviewStatusValue = StringEnum(REVIEW_STATUS_VALUES);

/** The fixed set of actions a person can take on an action item (the engine's REVIEW_ACTIONS, same order). */
export const REVIEW_ACTION_VALUES = [
  'BOOK_FLIGHT_OPTION',
  'BOOK_HOTEL',
  'ACCEPT_PRICE',
  'ACCEPT_CHANGE',
  'RECORD_PNR',
  'RETRY',
  'CANCEL_BOOKING',
  'DISMISS',
  'ASSIGN',
] as const;
export const ReviewActionValue = StringEnum(REVIEW_ACTION_VALUES);

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
    flight_options_url: Nullable(
      Type.String({
        description:
          'On FLIGHT items awaiting a manual choice: the flight-options search for the item (GET /crew/flight-options?action_id=). Present while the item is OPEN and a person may book an option (BOOK_FLIGHT_OPTION in available_actions: a deadhead left for a person, or one whose automatic booking failed or was refused), or it waits with recommended_action BOOK_MANUALLY; null once the choice is made or dismissed, and on any other item.',
      }),
    ),
    recommended_action: Nullable(Type.String()),
    created_at: Timestamp,
    // "Not shown" extras: free text of an injection, the reason shown to a reviewer, the data the booking needs.
    notes: Nullable(Type.String()),
    message: Nullable(Type.String()),
    details: ActionItemDetails,
    // The review queue (additive): where the item stands with the travel desk.
    review_status: Type.Optional(
      Nullable({
        ...ReviewStatusValue,
        description:
          'OPEN: waits for a person (disposition PENDING_REVIEW or FAILED, or a recommendation for a person not yet settled) and nobody has acted since. RESOLVED: a person acted (action_taken), or it no longer needs one. DISMISSED: a person dismissed it; the disposition and recommendation stay as they were. Null: no person was ever needed. Ask GET /crew/action-items?review_status=OPEN for what still waits.',
      }),
    ),
    due_by: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          description:
            'OPEN items only: the latest instant a person’s action still helps, the earlier of the event (check-in, departure) less lead_time_minutes and the creation plus the priority’s review target (GET /crew/config/review); a roster cancellation left for a person is due at the hotel’s cancellation deadline instead, which no setting moves. May lie in the past (overdue). Null when nothing is due.',
        }),
      ),
    ),
    held_until: Type.Optional(
      Nullable(
        Type.String({
          format: 'date-time',
          description:
            'Additive: a cancellation caused by a roster change held until then, in case a later roster brings the layover back (GET /crew/config/cost). Nothing has gone to the supplier and the disposition is null meanwhile; when the hold ends the item is cancelled as usual, or AUTO_BOOKED if the layover came back. Null otherwise.',
        }),
      ),
    ),
    available_actions: Type.Optional(
      Type.Array(ReviewActionValue, {
        description:
          'What a person may do now (POST /crew/action-items/{action_id}/actions), decided by the engine from the item and its booking; empty when nothing is (any item that is not OPEN)',
      }),
    ),
    action_taken: Type.Optional(
      Nullable({
        ...ReviewActionValue,
        description:
          'The last action a person took on the item (ASSIGN is not one): from the review queue, or a commit (POST /crew/bookings/request) that fulfilled the booking the item waited on',
      }),
    ),
    action_taken_at: Type.Optional(
      Nullable(Type.String({ format: 'date-time', description: 'When action_taken was taken' })),
    ),
    action_taken_by: Type.Optional(
      Nullable(
        Type.String({
          description:
            'Who took it: a console user’s e-mail, the acting_user an integration named, or the caller of a commit (its token’s e-mail, else its client id)',
        }),
      ),
    ),
    action_reason: Type.Optional(
      Nullable(Type.String({ description: 'The reason given with the action (why it was dismissed)' })),
    ),
    assignee: Type.Optional(
      Nullable(Type.String({ description: 'Who works the item (an e-mail, set by ASSIGN), or null' })),
    ),
    superseded_by: Type.Optional(
      Nullable(
        Type.String({
          format: 'uuid',
          description:
            'The action item of a later roster that took this item’s booking over (a changed or dropped layover or deadhead). The item then no longer waits: review_status RESOLVED (DISMISSED if a person had dismissed it), and that later item is the one to work. Null otherwise.',
        }),
      ),
    ),
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

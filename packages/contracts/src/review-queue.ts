import { Type, type Static } from '@sinclair/typebox';
import { Airport, Email, PageQuery, Priority, StringEnum, Timestamp } from './common';
import { ActionSubtype, ActionType, Disposition, ReviewActionValue, ReviewStatusValue } from './action-items';

/*
 * The review queue a travel desk works (docs/review-queue.md): the airline's one list of action items, the one
 * place to act on an item, and the review settings behind due_by and the due-soon warning.
 */

// ---- GET /crew/action-items ----

export const QUEUE_SORTS = ['due_by', 'created_at'] as const;

export const ActionItemQueueQuery = Type.Object(
  {
    type: Type.Optional(ActionType),
    subtype: Type.Optional(ActionSubtype),
    priority: Type.Optional(Priority),
    disposition: Type.Optional(Disposition),
    review_status: Type.Optional({
      ...ReviewStatusValue,
      description: 'OPEN: what still waits for a person',
    }),
    schedule_id: Type.Optional(Type.String({ format: 'uuid', description: 'Items of this schedule only' })),
    station: Type.Optional({ ...Airport, description: 'A layover’s station, or a deadhead’s origin or destination' }),
    due_before: Type.Optional({ ...Timestamp, description: 'Items whose due_by is before this instant' }),
    assignee: Type.Optional({ ...Email, description: 'Items assigned to this person' }),
    sort: Type.Optional(
      StringEnum(QUEUE_SORTS, {
        description:
          'due_by (soonest first, items without one last) is the default with disposition=PENDING_REVIEW or review_status=OPEN; created_at (oldest first) otherwise',
      }),
    ),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ActionItemQueueQuery = Static<typeof ActionItemQueueQuery>;

// ---- POST /crew/action-items/{action_id}/actions ----

export const ActionItemIdParams = Type.Object({ action_id: Type.String({ format: 'uuid' }) });

export const ReviewActionBody = Type.Object(
  {
    action: { ...ReviewActionValue, description: 'One of the item’s available_actions' },
    flight_option_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'BOOK_FLIGHT_OPTION: the option (GET /crew/flight-options?action_id=…)',
      }),
    ),
    property_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'BOOK_HOTEL: the hotel to book; without it, the hotel contracted at the booking’s station (422 when there is none)',
      }),
    ),
    pnr: Type.Optional(
      Type.String({
        pattern: '^[A-Za-z0-9]{5,8}$',
        description: 'RECORD_PNR: the record locator of the seat the airline booked in its own system',
      }),
    ),
    ticket_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'RECORD_PNR: the ticket of that seat' }),
    ),
    reason: Type.Optional(
      Type.String({ maxLength: 1000, description: 'Why (kept on the item; a cancellation’s reason too)' }),
    ),
    assignee: Type.Optional({ ...Email, description: 'ASSIGN: who works the item' }),
    acting_user: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description: 'The person acting, as the integration knows them; default: the caller’s e-mail',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ReviewActionBody = Static<typeof ReviewActionBody>;

// ---- GET / PUT /crew/config/review ----

/** The longest review setting: a leap year of minutes. Anything longer is a typo, and would date items past any roster. */
export const MAX_REVIEW_MINUTES = 366 * 24 * 60;
const Minutes = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_REVIEW_MINUTES, description });
const Targets = Type.Object(
  {
    P1: Type.Optional(Minutes('P1 review target (minutes from creation)')),
    P2: Type.Optional(Minutes('P2 review target')),
    P3: Type.Optional(Minutes('P3 review target')),
  },
  {
    additionalProperties: false,
    description: 'Rule 13’s review targets by priority; P4 waits for the next batch window and has none',
  },
);
const settingsFields = {
  lead_time_minutes: Minutes('How long before the event (check-in, departure) a person’s action must be done'),
  due_soon_minutes: Minutes('How long before due_by action_item.due_soon warns the desk'),
  priority_targets_minutes: Targets,
};

export const ReviewSettings = Type.Object(settingsFields, { additionalProperties: false, title: 'ReviewSettings' });
export type ReviewSettingsView = Static<typeof ReviewSettings>;

/** PUT: any subset; an omitted field (or priority) keeps its value. */
export const ReviewSettingsBody = Type.Object(
  {
    lead_time_minutes: Type.Optional(settingsFields.lead_time_minutes),
    due_soon_minutes: Type.Optional(settingsFields.due_soon_minutes),
    priority_targets_minutes: Type.Optional(Targets),
  },
  { additionalProperties: false },
);
export type ReviewSettingsBody = Static<typeof ReviewSettingsBody>;

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageQuery, StringEnum, Timestamp } from './common';
import { BookingStatusValue } from './bookings';
import { ScheduleSummary } from './schedules';
import { ReviewActionValue, ReviewStatusValue } from './action-items';
import { InvoiceReconciledData } from './invoices';

/**
 * Outbound webhooks. Event types an endpoint can subscribe to; new types may be added within v1
 * (additive), so receivers must ignore types they do not know.
 */
export const WEBHOOK_EVENT_TYPES = [
  'schedule.processing_completed',
  'schedule.failed',
  'action_item.pending_review',
  'action_item.resolved',
  'action_item.due_soon',
  'booking.confirmed',
  'booking.modified',
  'booking.cancelled',
  'booking.needs_review',
  'booking.failed',
  'irop.completed',
  'coverage.at_risk',
  'invoice.reconciled',
  'endpoint.disabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test';

/**
 * Endpoints an airline may have (enabled or not): each one is drained on its own, so a cap keeps one airline's
 * deliveries from taking every drain slot of the workers. One endpoint can subscribe to every event type.
 */
export const MAX_WEBHOOK_ENDPOINTS = 10;
export const WebhookEventTypeValue = StringEnum(WEBHOOK_EVENT_TYPES);

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

const EndpointUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  description:
    'HTTPS URL the events are POSTed to (http only to a loopback host, outside production). Redirects are never followed.',
});

export const WebhookEndpointBody = Type.Object(
  {
    url: EndpointUrl,
    event_types: Type.Array(WebhookEventTypeValue, {
      minItems: 1,
      uniqueItems: true,
      description: 'The event types delivered to this endpoint',
    }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false, title: 'WebhookEndpointBody' },
);
export type WebhookEndpointBody = Static<typeof WebhookEndpointBody>;

export const WebhookEndpointPatch = Type.Object(
  {
    url: Type.Optional(EndpointUrl),
    event_types: Type.Optional(Type.Array(WebhookEventTypeValue, { minItems: 1, uniqueItems: true })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'false pauses deliveries (events are not recorded while disabled); true re-enables a disabled endpoint',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'WebhookEndpointPatch' },
);
export type WebhookEndpointPatch = Static<typeof WebhookEndpointPatch>;

export const WebhookEndpoint = Type.Object(
  {
    endpoint_id: Uuid(),
    url: Type.String(),
    description: Nullable(Type.String()),
    event_types: Type.Array(WebhookEventTypeValue),
    enabled: Type.Boolean(),
    disabled_reason: Nullable(
      Type.String({ description: 'Why the service disabled the endpoint (failing for too long)' }),
    ),
    failing_since: Nullable(
      Type.String({ format: 'date-time', description: 'Start of the current run of failed attempts' }),
    ),
    previous_secret_expires_at: Nullable(
      Type.String({
        format: 'date-time',
        description: 'Until then deliveries carry a signature with the previous secret too',
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, title: 'WebhookEndpoint' },
);

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({
      pattern: '^whsec_',
      description: 'The signing secret (Standard Webhooks `whsec_…`), shown only in this answer',
    }),
  },
  { additionalProperties: false, title: 'WebhookEndpointWithSecret' },
);

export const WebhookEndpointParams = Type.Object({ endpoint_id: Uuid() });
export const WebhookDeliveryParams = Type.Object({ endpoint_id: Uuid(), delivery_id: Uuid() });
export const WebhookListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });
export const WebhookDeliveryQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(StringEnum(['PENDING', 'SUCCEEDED', 'FAILED'] as const)) },
  { additionalProperties: false },
);

export const RotateSecretBody = Type.Object(
  {
    grace_period_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 7 * 24 * 3600,
        description: 'How long the previous secret keeps signing too (default WEBHOOK_ROTATION_GRACE_SECONDS, 24 h)',
      }),
    ),
  },
  { additionalProperties: false, title: 'RotateSecretBody' },
);

export const WebhookAttempt = Type.Object(
  {
    at: Timestamp,
    response_code: Nullable(Type.Integer({ description: 'The HTTP status the endpoint answered (null: no answer)' })),
    error: Nullable(Type.String()),
    duration_ms: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false, title: 'WebhookAttempt' },
);

export const WebhookDelivery = Type.Object(
  {
    delivery_id: Uuid(),
    endpoint_id: Uuid(),
    event_id: Uuid('Also the `webhook-id` header: a redelivery carries the same id'),
    event_type: Type.String(),
    status: StringEnum(['PENDING', 'SUCCEEDED', 'FAILED'] as const, {
      description: 'FAILED: every attempt of the backoff schedule failed',
    }),
    attempts: Type.Integer({ minimum: 0 }),
    last_response_code: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    next_attempt_at: Nullable(
      Type.String({ format: 'date-time', description: 'When the next attempt is due (PENDING only)' }),
    ),
    delivered_at: Nullable(Type.String({ format: 'date-time' })),
    created_at: Timestamp,
    attempt_log: Type.Array(WebhookAttempt, { description: 'Every attempt, oldest first' }),
  },
  { additionalProperties: false, title: 'WebhookDelivery' },
);

// ---- the events (the document's `webhooks`) ----

const scheduleLinks = Type.Object(
  { schedule: Type.String(), processing_status: Type.String(), action_items: Type.String() },
  { additionalProperties: false, title: 'WebhookScheduleLinks' },
);
const bookingLinks = Type.Object(
  { booking: Type.String(), status: Type.String() },
  { additionalProperties: false, title: 'WebhookBookingLinks' },
);

function envelope<T extends string, D extends TSchema, L extends TSchema>(
  type: T,
  title: string,
  description: string,
  data: D,
  links: L,
) {
  return Type.Object(
    {
      id: Uuid('The event id (the `webhook-id` header); a redelivery carries the same id: deduplicate on it'),
      type: Type.Literal(type),
      created_at: Type.String({ format: 'date-time', description: 'When the change was committed' }),
      data,
      links,
    },
    { additionalProperties: false, title, description },
  );
}

const BookingEventData = Type.Object(
  {
    booking_id: Uuid(),
    type: StringEnum(['HOTEL', 'FLIGHT'] as const),
    status: BookingStatusValue,
    source: Type.String(),
    schedule_id: Nullable(Uuid()),
    action_id: Nullable(Uuid()),
    irop_ref: Nullable(Type.String()),
    employee_id: Nullable(Type.String()),
    pairing_number: Nullable(Type.String()),
    traveller_email: Nullable(Type.String()),
    duty_date: Nullable(Type.String({ format: 'date' })),
    review_reason: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    updated_at: Timestamp,
  },
  { additionalProperties: false, title: 'WebhookBookingData' },
);

/** One action item as the review queue sees it (action_item.resolved, action_item.due_soon). */
const ActionItemEventData = Type.Object(
  {
    action_id: Uuid(),
    schedule_id: Nullable(Uuid()),
    type: StringEnum(['HOTEL', 'FLIGHT'] as const),
    classification: Type.String(),
    priority: Type.String(),
    disposition: Nullable(Type.String()),
    review_status: Nullable(ReviewStatusValue),
    due_by: Nullable(Timestamp),
    booking_id: Nullable(Uuid()),
    action_taken: Nullable(ReviewActionValue),
    action_taken_at: Nullable(Timestamp),
    action_taken_by: Nullable(Type.String()),
    action_reason: Nullable(Type.String()),
    assignee: Nullable(Type.String()),
  },
  { additionalProperties: false, title: 'WebhookActionItemData' },
);
const actionItemLinks = Type.Object(
  { action_items: Type.String(), booking: Nullable(Type.String()) },
  { additionalProperties: false, title: 'WebhookActionItemLinks' },
);

const bookingEvent = <T extends string>(type: T, title: string, description: string) =>
  envelope(type, title, description, BookingEventData, bookingLinks);

export const WEBHOOK_EVENT_SCHEMAS = {
  'schedule.processing_completed': envelope(
    'schedule.processing_completed',
    'ScheduleProcessingCompletedEvent',
    'A schedule reached COMPLETED: diffed, and every booking task of its action items settled.',
    Type.Object(
      {
        schedule_id: Uuid(),
        external_ref: Nullable(Type.String()),
        processing_status: Type.Literal('COMPLETED'),
        completed_at: Timestamp,
        summary: ScheduleSummary,
      },
      { additionalProperties: false, title: 'WebhookScheduleCompletedData' },
    ),
    scheduleLinks,
  ),
  'schedule.failed': envelope(
    'schedule.failed',
    'ScheduleFailedEvent',
    'A schedule could not be processed (FAILED); `error` says why.',
    Type.Object(
      {
        schedule_id: Uuid(),
        external_ref: Nullable(Type.String()),
        processing_status: Type.Literal('FAILED'),
        error: Nullable(Type.String()),
        completed_at: Nullable(Timestamp),
      },
      { additionalProperties: false, title: 'WebhookScheduleFailedData' },
    ),
    scheduleLinks,
  ),
  'action_item.pending_review': envelope(
    'action_item.pending_review',
    'ActionItemsPendingReviewEvent',
    'One event per processed schedule with its PENDING_REVIEW action items: `count` of them, and the first 1000 ids (`truncated` when there are more: page through the `action_items` link).',
    Type.Object(
      {
        schedule_id: Uuid(),
        count: Type.Integer({ minimum: 1 }),
        action_ids: Type.Array(Uuid(), { maxItems: 1000 }),
        truncated: Type.Boolean(),
      },
      { additionalProperties: false, title: 'WebhookPendingReviewData' },
    ),
    Type.Object(
      { schedule: Type.String(), action_items: Type.String() },
      { additionalProperties: false, title: 'WebhookPendingReviewLinks' },
    ),
  ),
  'action_item.resolved': envelope(
    'action_item.resolved',
    'ActionItemResolvedEvent',
    'A person acted on an action item from the review queue (POST /crew/action-items/{action_id}/actions): `review_status` RESOLVED (the booking operation it started reports through the booking.* events) or DISMISSED, with who acted, what they did and why.',
    ActionItemEventData,
    actionItemLinks,
  ),
  'action_item.due_soon': envelope(
    'action_item.due_soon',
    'ActionItemDueSoonEvent',
    'An OPEN action item’s due_by is within due_soon_minutes (GET /crew/config/review), or already past; once per item.',
    ActionItemEventData,
    actionItemLinks,
  ),
  'booking.confirmed': bookingEvent('booking.confirmed', 'BookingConfirmedEvent', 'A booking task ended CONFIRMED.'),
  'booking.modified': bookingEvent('booking.modified', 'BookingModifiedEvent', 'An amendment ended MODIFIED.'),
  'booking.cancelled': bookingEvent('booking.cancelled', 'BookingCancelledEvent', 'A cancellation ended CANCELLED.'),
  'booking.needs_review': bookingEvent(
    'booking.needs_review',
    'BookingNeedsReviewEvent',
    'A booking task ended NEEDS_REVIEW (`review_reason` says why).',
  ),
  'booking.failed': bookingEvent(
    'booking.failed',
    'BookingFailedEvent',
    'A booking task ended FAILED (`last_error`); an automatic retry may follow.',
  ),
  'irop.completed': envelope(
    'irop.completed',
    'IropCompletedEvent',
    'Every booking of an `irop_ref` reached a terminal status (CONFIRMED, MODIFIED, CANCELLED, NEEDS_REVIEW, or FAILED with no automatic retry left).',
    Type.Object(
      {
        irop_ref: Type.String(),
        bookings: Type.Array(
          Type.Object(
            { booking_id: Uuid(), type: StringEnum(['HOTEL', 'FLIGHT'] as const), status: BookingStatusValue },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false, title: 'WebhookIropCompletedData' },
    ),
    Type.Object({ bookings: Type.String() }, { additionalProperties: false, title: 'WebhookIropLinks' }),
  ),
  'coverage.at_risk': envelope(
    'coverage.at_risk',
    'CoverageAtRiskEvent',
    'A layover checking in within 24 h became AT_RISK (its booking is PENDING, FAILED, NEEDS_REVIEW, awaits cancellation review, or no longer matches the roster); `reason` says which. Found by the worker’s periodic coverage pass (about a minute), once per layover until it is no longer at risk.',
    Type.Object(
      {
        employee_id: Nullable(Type.String()),
        pairing_number: Nullable(Type.String()),
        duty_date: Nullable(Type.String({ format: 'date' })),
        duty_period_num: Nullable(Type.Integer()),
        traveller_email: Nullable(Type.String()),
        station: Type.String(),
        checkin_time_local: Type.String({ format: 'date-time' }),
        checkout_time_local: Type.String({ format: 'date-time' }),
        origin: StringEnum(['ROSTERED', 'DROPPED', 'INJECTED'] as const),
        booking_id: Nullable(Uuid()),
        booking_status: Nullable(BookingStatusValue),
        status: Type.Literal('AT_RISK'),
        reason: Type.String(),
      },
      { additionalProperties: false, title: 'WebhookCoverageAtRiskData' },
    ),
    Type.Object(
      { coverage: Type.String(), booking: Nullable(Type.String()) },
      { additionalProperties: false, title: 'WebhookCoverageLinks' },
    ),
  ),
  'invoice.reconciled': envelope(
    'invoice.reconciled',
    'InvoiceReconciledEvent',
    'A hotel invoice posted to POST /crew/invoices was matched against the bookings (RECONCILED): its counts per line status and its totals; the lines are at the `lines` link.',
    InvoiceReconciledData,
    Type.Object(
      { invoice: Type.String(), lines: Type.String() },
      { additionalProperties: false, title: 'WebhookInvoiceLinks' },
    ),
  ),
  'endpoint.disabled': envelope(
    'endpoint.disabled',
    'EndpointDisabledEvent',
    "Another endpoint of the airline failed for WEBHOOK_DISABLE_AFTER_DAYS and was disabled. Sent to the airline's other enabled endpoints, subscribed or not.",
    Type.Object(
      { endpoint_id: Uuid(), url: Type.String(), failing_since: Timestamp, reason: Type.String() },
      { additionalProperties: false, title: 'WebhookEndpointDisabledData' },
    ),
    Type.Object({ endpoint: Type.String() }, { additionalProperties: false, title: 'WebhookEndpointLinks' }),
  ),
  'webhook.test': envelope(
    'webhook.test',
    'WebhookTestEvent',
    'Sent on request (POST …/webhooks/{endpoint_id}/test) to the one endpoint, whatever its subscriptions.',
    Type.Object(
      { endpoint_id: Uuid(), message: Type.String() },
      { additionalProperties: false, title: 'WebhookTestData' },
    ),
    Type.Object({ endpoint: Type.String() }, { additionalProperties: false, title: 'WebhookTestLinks' }),
  ),
} as const;

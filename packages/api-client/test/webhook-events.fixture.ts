/**
 * Type-checked by webhook-events.test.ts (and by the repository's typecheck): compiles only while the typed
 * client's `WebhookEvent` has exactly the events of the catalog (`WEBHOOK_EVENT_SCHEMAS`, which the served
 * document's `webhooks` are made from), each with its own data.
 */
import type { WebhookEvent } from '@crew/api-client';
import type { WEBHOOK_EVENT_SCHEMAS } from '@crew/contracts';

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The client's event types are the catalog's: no more, no fewer. */
export const SAME_EVENT_TYPES: Same<WebhookEvent['type'], keyof typeof WEBHOOK_EVENT_SCHEMAS> = true;

/** Every event type of the client, once (a missing or unknown key does not compile). */
export const CLIENT_EVENT_TYPES = {
  'schedule.processing_completed': true,
  'schedule.failed': true,
  'action_item.pending_review': true,
  'action_item.resolved': true,
  'action_item.due_soon': true,
  'booking.confirmed': true,
  'booking.modified': true,
  'booking.cancelled': true,
  'booking.needs_review': true,
  'booking.failed': true,
  'irop.completed': true,
  'coverage.at_risk': true,
  'invoice.reconciled': true,
  'endpoint.disabled': true,
  'webhook.test': true,
} as const satisfies Record<WebhookEvent['type'], true>;

/** What a receiver writes: a switch over `type` narrows each event to its own data, and misses none. */
export function subjectOf(event: WebhookEvent): string | null {
  switch (event.type) {
    case 'schedule.processing_completed':
    case 'schedule.failed':
    case 'action_item.pending_review':
      return event.data.schedule_id;
    case 'action_item.resolved':
    case 'action_item.due_soon':
      return event.data.action_id;
    case 'booking.confirmed':
    case 'booking.modified':
    case 'booking.cancelled':
    case 'booking.needs_review':
    case 'booking.failed':
      return event.data.booking_id;
    case 'irop.completed':
      return event.data.irop_ref;
    case 'coverage.at_risk':
      return event.data.booking_id;
    case 'invoice.reconciled':
      return event.data.invoice_id;
    case 'endpoint.disabled':
    case 'webhook.test':
      return event.data.endpoint_id;
    default: {
      const missed: never = event;
      return missed;
    }
  }
}

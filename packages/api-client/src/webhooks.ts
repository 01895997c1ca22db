import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema';

type Schemas = components['schemas'];

/** Every event the service may POST to a webhook endpoint (the document's `webhooks`). Ignore types you do not know: new ones are added within v1. */
export type WebhookEvent =
  | Schemas['ScheduleProcessingCompletedEvent']
  | Schemas['ScheduleFailedEvent']
  | Schemas['ActionItemsPendingReviewEvent']
  | Schemas['BookingConfirmedEvent']
  | Schemas['BookingModifiedEvent']
  | Schemas['BookingCancelledEvent']
  | Schemas['BookingNeedsReviewEvent']
  | Schemas['BookingFailedEvent']
  | Schemas['IropCompletedEvent']
  | Schemas['EndpointDisabledEvent']
  | Schemas['WebhookTestEvent'];

export { WebhookVerificationError };

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const v = headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
  return (Array.isArray(v) ? v[0] : v) ?? '';
}

/**
 * Verifies a webhook request (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) against
 * the endpoint's secret(s) and returns its event; throws WebhookVerificationError when no signature matches or
 * the timestamp is more than 5 minutes from this clock. Pass the raw body, exactly as received. During your own
 * secret rotation pass both secrets. Deduplicate on `event.id` (a redelivery carries the same id).
 */
export function verifyWebhook(
  secret: string | readonly string[],
  rawBody: string | Buffer,
  headers: HeaderSource,
): WebhookEvent {
  const h = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  let last: unknown;
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    try {
      return new Webhook(s).verify(rawBody, h) as WebhookEvent;
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new WebhookVerificationError('No matching signature found');
}

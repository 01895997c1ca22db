import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { webhooks } from './schema';

/** The body the document's `webhooks` entry for event type K POSTs. */
type EventBody<K extends keyof webhooks> = webhooks[K]['post'] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/**
 * Every event the service may POST to a webhook endpoint: one per entry of the document's `webhooks` (made from the
 * service's event catalog), so none is left out. Switch on `type` to narrow `data`. Ignore types you do not know:
 * new ones are added within v1.
 */
export type WebhookEvent = { [K in keyof webhooks]: EventBody<K> }[keyof webhooks];

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

/**
 * Airline-initiated changes on Duffel orders, and the webhook that tells us of them. Duffel's webhook event
 * names a change; we never act on what an event carries, only on the change fetched again with the
 * airline's token, so a forged or replayed event can at most make us look.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Duffel } from '@duffel/api';
import type { AirlineInitiatedChange, OrderSlice } from '@duffel/api/types';
import { createDuffelClient, duffelCall } from './client';
import { isSupplierError, SupplierErrorCode } from '../errors';
import { META, toSegment } from './mapping';
import type { FlightSegment } from '../types';

/** The event types we register for: only what we act on (every other delivery would be read and dropped). */
// order.created: an order Duffel made, also one whose creating call timed out on our side (a lookup source).
export const DUFFEL_WEBHOOK_EVENTS = ['order.airline_initiated_change_detected', 'order.created'] as const;

/** The header Duffel signs its deliveries with: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const DUFFEL_SIGNATURE_HEADER = 'x-duffel-signature';

/** A delivery older (or newer) than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_S = 300;

/** One flight of a change, as our FlightSegment without cabin and duration (the engine's ChangedFlight). */
export type DuffelChangedFlight = Omit<FlightSegment, 'cabin' | 'duration_minutes'>;

export interface DuffelAirlineChange {
  id: string;
  order_id: string;
  added: DuffelChangedFlight[];
  removed: DuffelChangedFlight[];
  available_actions: string[];
  action_taken: string | null;
  created_at: string;
}

export interface DuffelWebhookEvent {
  id: string;
  type: string;
  /** The change (or order) the event names; its content is not trusted. */
  object_id: string | null;
  order_id: string | null;
  /** order.created: our reference from the order's metadata, when the event carries the order. */
  reference: string | null;
}

function flightsOf(slices: readonly OrderSlice[]): DuffelChangedFlight[] {
  return slices.flatMap((slice) =>
    slice.segments.map((segment) => {
      const s = toSegment(segment);
      return {
        airline_code: s.airline_code,
        flight_number: s.flight_number,
        from_airport: s.from_airport,
        to_airport: s.to_airport,
        dep_time: s.dep_time,
        arr_time: s.arr_time,
      };
    }),
  );
}

export function toAirlineChange(c: AirlineInitiatedChange): DuffelAirlineChange {
  return {
    id: c.id,
    order_id: c.order_id,
    added: flightsOf(c.added),
    removed: flightsOf(c.removed),
    available_actions: [...c.available_actions],
    action_taken: c.action_taken,
    created_at: c.created_at,
  };
}

/**
 * Whether a delivery is Duffel's: the signature over `t.body` with the webhook's secret, within the
 * tolerance of our clock. The raw body must be the exact bytes received (a re-serialised JSON differs).
 */
export function verifyDuffelSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  nowMs = Date.now(),
): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/i.exec((header ?? '').trim());
  if (!match?.[1] || !match[2]) return false;
  const t = Number(match[1]);
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_S) return false;
  const expected = duffelSignatureDigest(rawBody, secret, match[1]);
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(match[2].toLowerCase(), 'hex'));
}

/** The hex digest Duffel sends as v1 (also what the simulation signs with). */
export function duffelSignatureDigest(rawBody: Buffer | string, secret: string, timestamp: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

export function duffelSignatureHeader(rawBody: Buffer | string, secret: string, nowMs = Date.now()): string {
  const t = String(Math.floor(nowMs / 1000));
  return `t=${t},v1=${duffelSignatureDigest(rawBody, secret, t)}`;
}

/** The parts of a verified event we route on; null for a body that is not an event. */
export function parseDuffelEvent(rawBody: Buffer | string): DuffelWebhookEvent | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString());
  } catch {
    return null;
  }
  const e = parsed as {
    id?: unknown;
    type?: unknown;
    data?: { object?: { id?: unknown; order_id?: unknown; metadata?: Record<string, unknown> | null } };
  };
  if (typeof e?.id !== 'string' || typeof e.type !== 'string') return null;
  const object = e.data?.object;
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 100 ? v : null);
  return {
    id: e.id,
    type: e.type,
    object_id: str(object?.id),
    order_id: str(object?.order_id),
    reference: str(object?.metadata?.[META.reference]),
  };
}

export class DuffelChanges {
  constructor(
    private readonly duffel: Duffel,
    private readonly options: { timeoutMs: number },
  ) {}

  /** Registers our callback URL; the secret is shown once, in this answer. */
  async registerWebhook(url: string): Promise<{ id: string; secret: string }> {
    const { data } = await duffelCall(
      'webhook.register',
      () => this.duffel.webhooks.create({ url, events: [...DUFFEL_WEBHOOK_EVENTS] }),
      {
        timeoutMs: this.options.timeoutMs,
        creates: true,
      },
    );
    return { id: data.id, secret: data.secret };
  }

  /**
   * Deletes a webhook of this token's account; one Duffel no longer lists counts as deleted. Duffel answers 204 with
   * no body, which @duffel/api's client fails to read (it looks for `errors` in the empty text), so a failed
   * deletion is judged by the account's list after it (the client's `webhooks.get` reads webhook events, not
   * webhooks).
   */
  async deleteWebhook(id: string): Promise<void> {
    const timeoutMs = this.options.timeoutMs;
    try {
      await duffelCall('webhook.delete', () => this.duffel.webhooks.delete(id), { timeoutMs });
    } catch (err) {
      if (isSupplierError(err) && err.code === SupplierErrorCode.NOT_FOUND) return;
      if (!(await this.listsWebhook(id).catch(() => true))) return;
      throw err;
    }
  }

  private async listsWebhook(id: string): Promise<boolean> {
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const { data, meta } = await duffelCall(
        'webhook.list',
        () => this.duffel.webhooks.list({ limit: 200, ...(after ? { after } : {}) }),
        { timeoutMs: this.options.timeoutMs },
      );
      if (data.some((h) => h.id === id)) return true;
      after = meta?.after ?? undefined;
      if (!after) return false;
    }
    return true;
  }

  async listChanges(orderId: string): Promise<DuffelAirlineChange[]> {
    const { data } = await duffelCall('flight.list_changes', () => this.duffel.airlineInitiatedChanges.list(orderId), {
      timeoutMs: this.options.timeoutMs,
    });
    return (data ?? []).map(toAirlineChange);
  }

  /** The change, read from its order's list (the client has no single read); null when the order has no such change. */
  async getChange(orderId: string, changeId: string): Promise<DuffelAirlineChange | null> {
    return (await this.listChanges(orderId)).find((c) => c.id === changeId) ?? null;
  }

  async acceptChange(changeId: string): Promise<DuffelAirlineChange> {
    const { data } = await duffelCall(
      'flight.accept_change',
      () => this.duffel.airlineInitiatedChanges.accept(changeId),
      { timeoutMs: this.options.timeoutMs },
    );
    return toAirlineChange(data);
  }
}

/** Where Duffel sends an airline's events: the api's public address, one path per airline. */
export function duffelCallbackUrl(publicApiUrl: string, airlineId: string): string {
  return `${publicApiUrl.replace(/\/+$/, '')}/callbacks/duffel/${airlineId}`;
}

/** Registers the callback of an airline with its token against a Duffel base path (the deployment's DUFFEL_API_URL). */
export function registerDuffelWebhook(
  basePath: string | undefined,
  token: string,
  url: string,
  timeoutMs = 10_000,
): Promise<{ id: string; secret: string }> {
  return new DuffelChanges(createDuffelClient({ token, ...(basePath === undefined ? {} : { basePath }) }), {
    timeoutMs,
  }).registerWebhook(url);
}

/**
 * Deletes a webhook the airline's token registered (one replaced by a new token's, or one a concurrent registration
 * made that was not recorded): left at Duffel, it posts events signed with a secret we no longer hold.
 */
export function deleteDuffelWebhook(
  basePath: string | undefined,
  token: string,
  id: string,
  timeoutMs = 10_000,
): Promise<void> {
  return new DuffelChanges(createDuffelClient({ token, ...(basePath === undefined ? {} : { basePath }) }), {
    timeoutMs,
  }).deleteWebhook(id);
}

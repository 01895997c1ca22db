/**
 * Duffel's webhooks and airline-initiated changes in the simulation: webhooks registered per token (the
 * secret answered once), changes made on an order by the control API (a retime, a new flight number, a new
 * destination), and the signed `order.airline_initiated_change_detected` event sent to the token's webhooks.
 * Accepting a change applies its new slices to the order, as Duffel does.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AirlineInitiatedChange } from '@duffel/api/types';
import type { DuffelSim } from './sim';
import { notFound, validation, DuffelSimError } from './sim-errors';

interface SimWebhook {
  id: string;
  url: string;
  events: string[];
  secret: string;
  active: boolean;
  created_at: string;
}

interface ChangeAccount {
  webhooks: SimWebhook[];
  changes: Map<string, AirlineInitiatedChange>;
}

export interface ChangeRequest {
  order_id: string;
  /** Minutes added to departure and arrival (negative: earlier). */
  shift_minutes?: number;
  /** Minutes added to the arrival on top of the shift (a longer flight). */
  extend_minutes?: number;
  /** The new marketing flight number, digits only (e.g. `119`). */
  flight_number?: string;
  /** A new destination airport (IATA code); its time zone is kept, the simulation's airports share none. */
  destination?: string;
}

/** Local wall-clock times as Duffel sends them (`YYYY-MM-DDTHH:MM:SS`), moved by whole minutes. */
const shiftLocal = (local: string, minutes: number) =>
  new Date(Date.parse(`${local.slice(0, 19)}Z`) + minutes * 60_000).toISOString().slice(0, 19);

export class DuffelChangeSim {
  private readonly accounts = new Map<string, ChangeAccount>();
  private seq = 0;

  constructor(private readonly sim: DuffelSim) {}

  reset(): void {
    this.accounts.clear();
    this.seq = 0;
  }

  private account(token: string): ChangeAccount {
    let a = this.accounts.get(token);
    if (!a) {
      a = { webhooks: [], changes: new Map() };
      this.accounts.set(token, a);
    }
    return a;
  }

  private id(prefix: string): string {
    return `${prefix}_0000${String(++this.seq).padStart(18, '0')}`;
  }

  private stamp(): string {
    return new Date(this.sim.now()).toISOString();
  }

  createWebhook(token: string, body: { url?: unknown; events?: unknown }) {
    if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
      throw validation('url', 'url must be an http(s) URL');
    if (!Array.isArray(body.events) || body.events.length === 0 || !body.events.every((e) => typeof e === 'string'))
      throw validation('events', 'events must list event types');
    const hook: SimWebhook = {
      id: this.id('sev'),
      url: body.url,
      events: body.events,
      secret: randomBytes(24).toString('base64url'),
      active: true,
      created_at: this.stamp(),
    };
    this.account(token).webhooks.push(hook);
    return { ...hook, updated_at: hook.created_at, live_mode: token.startsWith('duffel_live_') };
  }

  /** The token's webhooks as Duffel shows them (the secret only ever in the creation's answer). */
  webhooks(token: string) {
    return this.account(token).webhooks.map(({ secret: _secret, ...hook }) => ({
      ...hook,
      updated_at: hook.created_at,
      live_mode: token.startsWith('duffel_live_'),
    }));
  }

  deleteWebhook(token: string, id: string): void {
    const hooks = this.account(token).webhooks;
    const at = hooks.findIndex((h) => h.id === id);
    if (at < 0) throw notFound();
    hooks.splice(at, 1);
  }

  list(token: string, orderId: string): AirlineInitiatedChange[] {
    this.sim.getOrder(token, orderId);
    return [...this.account(token).changes.values()]
      .filter((c) => c.order_id === orderId)
      .map((c) => structuredClone(c));
  }

  get(token: string, id: string): AirlineInitiatedChange {
    const change = this.account(token).changes.get(id);
    if (!change) throw notFound();
    return structuredClone(change);
  }

  accept(token: string, id: string): AirlineInitiatedChange {
    const change = this.account(token).changes.get(id);
    if (!change) throw notFound();
    if (change.action_taken !== null)
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'already_actioned',
        'Already actioned',
        `This change was already ${change.action_taken}`,
      );
    const order = this.sim.account(token).orders.get(change.order_id);
    if (!order) throw notFound();
    order.slices = structuredClone(change.added);
    change.action_taken = 'accepted';
    change.action_taken_at = this.stamp();
    change.available_actions = [];
    change.updated_at = change.action_taken_at;
    return structuredClone(change);
  }

  /** The control API's change on an order: its first slice moved as asked. */
  create(token: string, request: ChangeRequest): AirlineInitiatedChange {
    const order = this.sim.account(token).orders.get(request.order_id);
    if (!order) throw notFound();
    const removed = structuredClone(order.slices);
    const added = structuredClone(order.slices);
    const shift = request.shift_minutes ?? 0;
    for (const segment of added[0]?.segments ?? []) {
      segment.id = this.id('seg');
      segment.departing_at = shiftLocal(segment.departing_at, shift);
      segment.arriving_at = shiftLocal(segment.arriving_at, shift + (request.extend_minutes ?? 0));
      if (request.flight_number) segment.marketing_carrier_flight_number = request.flight_number;
      if (request.destination)
        segment.destination = {
          ...segment.destination,
          iata_code: request.destination,
          id: `arp_${request.destination.toLowerCase()}`,
        };
    }
    const at = this.stamp();
    const change: AirlineInitiatedChange = {
      id: this.id('aic'),
      order_id: order.id,
      added,
      removed,
      available_actions: ['accept', 'cancel', 'change', 'update'],
      action_taken: null,
      action_taken_at: null,
      created_at: at,
      updated_at: at,
      travel_agent_ticket: null,
    };
    this.account(token).changes.set(change.id, change);
    order.airline_initiated_changes = [...(order.airline_initiated_changes ?? []), structuredClone(change)];
    return structuredClone(change);
  }

  /**
   * Sends the event naming the change to the token's active webhooks that take it; answers each delivery's
   * HTTP status. The event names the change; a receiver reads the change itself with its token.
   */
  deliver(token: string, change: AirlineInitiatedChange, options: DeliveryOptions = {}): Promise<Delivery[]> {
    return this.send(
      token,
      'order.airline_initiated_change_detected',
      { id: change.id, order_id: change.order_id },
      change.id,
      options,
    );
  }

  /** Sends `order.created` for an order of the token, carrying the order as Duffel's event does. */
  deliverOrderCreated(token: string, orderId: string, options: DeliveryOptions = {}): Promise<Delivery[]> {
    const order = this.sim.account(token).orders.get(orderId);
    if (!order) throw notFound();
    return this.send(token, 'order.created', structuredClone(order), order.id, options);
  }

  /**
   * One event to the token's active webhooks that take its type, signed as Duffel signs
   * (`X-Duffel-Signature: t=…,v1=hex(HMAC-SHA256(secret, "t.body"))`).
   */
  private async send(
    token: string,
    type: string,
    object: object,
    idempotencyKey: string,
    options: DeliveryOptions,
  ): Promise<Delivery[]> {
    const results: Delivery[] = [];
    for (const hook of this.account(token).webhooks.filter((h) => h.active && h.events.includes(type))) {
      const body = JSON.stringify({
        id: this.id('wev'),
        type,
        live_mode: token.startsWith('duffel_live_'),
        api_version: 'v2',
        created_at: this.stamp(),
        idempotency_key: idempotencyKey,
        data: { object },
      });
      const t = String(Math.floor(Date.now() / 1000));
      const digest = createHmac('sha256', options.badSignature ? `${hook.secret}x` : hook.secret)
        .update(`${t}.${body}`)
        .digest('hex');
      // A test stack learns its api's address after Duffel was told it: the registered path on that origin.
      const url = options.rebase ? `${options.rebase.replace(/\/+$/, '')}${new URL(hook.url).pathname}` : hook.url;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-duffel-signature': `t=${t},v1=${digest}` },
          body,
          signal: AbortSignal.timeout(5000),
        });
        results.push({ url: hook.url, status: res.status });
      } catch {
        results.push({ url: hook.url, status: 0 });
      }
    }
    return results;
  }
}

interface DeliveryOptions {
  badSignature?: boolean;
  rebase?: string;
}

interface Delivery {
  url: string;
  status: number;
}

const byDuffel = new WeakMap<DuffelSim, DuffelChangeSim>();

/** The change state that goes with a simulation (one per DuffelSim, made on first use). */
export function changesOf(sim: DuffelSim): DuffelChangeSim {
  let c = byDuffel.get(sim);
  if (!c) {
    c = new DuffelChangeSim(sim);
    byDuffel.set(sim, c);
  }
  return c;
}

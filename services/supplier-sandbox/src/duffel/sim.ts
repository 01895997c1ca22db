/**
 * The state of the Duffel-dialect simulation: per access token, its offers, orders and cancellations (as
 * Duffel keeps them per account and mode), the faults armed for it, and refused tokens.
 */
import type { CreateOfferRequest, CreateOrder, Offer, OfferRequest, Order, OrderCancellation } from '@duffel/api/types';
import { buildOffer, draftsFor } from './inventory';
import { buildOrder } from './orders';
import { DuffelSimError, notFound, validation } from './sim-errors';
import type { DuffelFault, DuffelOperation } from './sim-faults';
import { StaysSim } from './stays-sim';
import type { Cabin } from '../schemas';

/** A quote is unconfirmed: Duffel sends `confirmed_at: null` there, which the client's type does not allow. */
export type SimCancellation = Omit<OrderCancellation, 'confirmed_at'> & { confirmed_at: string | null };

interface Account {
  currency: string;
  offers: Map<string, { offer: Offer; gone: boolean }>;
  orders: Map<string, Order>;
  cancellations: Map<string, SimCancellation>;
  faults: DuffelFault[];
}

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export interface DuffelSimOptions {
  now: () => number;
  /** Documents (e-tickets) appear on reads this long after the order (default 0: on the first read after creation). */
  ticketingDelayMs?: number;
}

export class DuffelSim {
  private readonly accounts = new Map<string, Account>();
  private readonly refused = new Set<string>();
  /** Calls answered per token and operation (benchmarks count the round trips of a booking). */
  private readonly calls = new Map<string, Map<DuffelOperation, number>>();
  private seq = 0;
  /** Duffel Stays on the same accounts (tokens, faults). */
  readonly stays: StaysSim;

  constructor(private readonly options: DuffelSimOptions) {
    this.stays = new StaysSim(options.now, (prefix) => this.id(prefix));
  }

  now(): number {
    return this.options.now();
  }

  reset(): void {
    this.accounts.clear();
    this.refused.clear();
    this.calls.clear();
    this.stays.reset();
    this.seq = 0;
  }

  /** A Duffel-looking id: prefix and 22 characters, unique within the simulation. */
  private id(prefix: string): string {
    let n = ++this.seq;
    let tail = '';
    while (n > 0) {
      tail = ALPHABET[n % 62] + tail;
      n = Math.floor(n / 62);
    }
    return `${prefix}_0000${tail.padStart(18, '0')}`;
  }

  countCall(token: string, operation: DuffelOperation): void {
    let byOp = this.calls.get(token);
    if (!byOp) this.calls.set(token, (byOp = new Map<DuffelOperation, number>()));
    byOp.set(operation, (byOp.get(operation) ?? 0) + 1);
  }

  /** Calls received with this token (every token when none is named), by operation, since the start or the last reset. */
  callCounts(token?: string): Partial<Record<DuffelOperation, number>> {
    const out: Partial<Record<DuffelOperation, number>> = {};
    for (const [t, byOp] of this.calls) {
      if (token !== undefined && t !== token) continue;
      for (const [op, n] of byOp) out[op] = (out[op] ?? 0) + n;
    }
    return out;
  }

  refuseToken(token: string): void {
    this.refused.add(token);
  }

  isRefused(token: string): boolean {
    return this.refused.has(token);
  }

  account(token: string): Account {
    let a = this.accounts.get(token);
    if (!a) {
      a = { currency: 'GBP', offers: new Map(), orders: new Map(), cancellations: new Map(), faults: [] };
      this.accounts.set(token, a);
    }
    return a;
  }

  setCurrency(token: string, currency: string): void {
    this.account(token).currency = currency;
  }

  armFault(token: string, fault: Omit<DuffelFault, 'remaining'> & { count?: number }): DuffelFault {
    const { count, ...rest } = fault;
    const armed: DuffelFault = { ...rest, remaining: count ?? 1 };
    this.account(token).faults.push(armed);
    return { ...armed };
  }

  /** Consumes one use of the oldest fault armed for the operation. */
  takeFault(token: string, operation: DuffelOperation): DuffelFault | undefined {
    const faults = this.account(token).faults;
    const index = faults.findIndex((f) => f.operation === operation);
    const fault = faults[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) faults.splice(index, 1);
    return { ...fault };
  }

  /** The orders an account holds, in creation order (control API and tests). */
  orders(token: string): Order[] {
    return [...this.account(token).orders.values()].map((o) => this.withDocuments(o));
  }

  createOfferRequest(token: string, body: CreateOfferRequest): OfferRequest {
    const slice = body.slices?.[0];
    if (
      !slice ||
      body.slices.length !== 1 ||
      !/^[A-Z]{3}$/.test(slice.origin ?? '') ||
      !/^[A-Z]{3}$/.test(slice.destination ?? '') ||
      !/^\d{4}-\d{2}-\d{2}$/.test(slice.departure_date ?? '')
    ) {
      throw validation('slices', 'The simulation takes one slice with IATA airport codes and a departure_date');
    }
    if (!Array.isArray(body.passengers) || body.passengers.length !== 1)
      throw validation('passengers', 'The simulation takes exactly one passenger');
    const account = this.account(token);
    const cabin = (body.cabin_class ?? 'economy').toUpperCase() as Cabin;
    const live = token.startsWith('duffel_live_');
    const createdAt = this.now();
    const requestId = this.id('orq');
    const passengerId = this.id('pas');
    const requestSlice = {
      origin: { iata_code: slice.origin },
      destination: { iata_code: slice.destination },
    } as OfferRequest['slices'][number];
    const offers = draftsFor(
      slice.origin,
      slice.destination,
      slice.departure_date,
      cabin,
      body.max_connections ?? 1,
    ).map((draft) => {
      const ids = {
        offerId: this.id('off'),
        passengerId,
        sliceId: this.id('sli'),
        segmentIds: draft.segments.map(() => this.id('seg')),
      };
      const offer = buildOffer(draft, ids, requestSlice, account.currency, createdAt, live);
      account.offers.set(offer.id, { offer, gone: false });
      return offer;
    });
    const first = offers[0]?.slices[0];
    return {
      id: requestId,
      live_mode: live,
      created_at: new Date(createdAt).toISOString(),
      cabin_class: body.cabin_class ?? 'economy',
      passengers: [{ id: passengerId, type: 'adult' }],
      slices: first
        ? [
            {
              departure_date: slice.departure_date,
              origin: first.origin,
              origin_type: 'airport',
              destination: first.destination,
              destination_type: 'airport',
            },
          ]
        : [],
      offers: offers.map(({ available_services: _services, ...rest }) => rest),
    };
  }

  getOffer(token: string, id: string): Offer {
    const held = this.account(token).offers.get(id);
    if (!held) throw notFound();
    return held.offer;
  }

  /** price_moved: the offer's total (and base) move; later reads and orders see the new price. */
  movePrice(token: string, offerId: string, delta: number): void {
    const held = this.account(token).offers.get(offerId);
    if (!held) return;
    const o = held.offer;
    o.total_amount = (Number(o.total_amount) + delta).toFixed(2);
    o.base_amount = (Number(o.base_amount) + delta).toFixed(2);
  }

  markGone(token: string, offerId: string): void {
    const held = this.account(token).offers.get(offerId);
    if (held) held.gone = true;
  }

  createOrder(token: string, body: CreateOrder): Order {
    const account = this.account(token);
    const offerId = body.selected_offers?.[0];
    const held = offerId ? account.offers.get(offerId) : undefined;
    if (!held) throw notFound();
    const { offer } = held;
    if (held.gone || this.now() >= Date.parse(offer.expires_at)) {
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'offer_no_longer_available',
        'Offer no longer available',
        'The selected offer is no longer available; please search again',
      );
    }
    if (body.type !== 'instant') throw validation('type', 'The simulation only takes instant orders');
    const payment = body.payments?.[0];
    if (!payment || payment.type !== 'balance') throw validation('payments', 'Pay instant orders from the balance');
    if (payment.currency !== offer.total_currency || Number(payment.amount) !== Number(offer.total_amount)) {
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'price_changed',
        'Price changed',
        `The offer now costs ${offer.total_amount} ${offer.total_currency}`,
      );
    }
    const passenger = body.passengers?.[0];
    const expected = offer.passengers[0]?.id;
    if (!passenger || body.passengers.length !== 1 || passenger.id !== expected)
      throw validation('passengers', `Name the offer's passenger ${expected}`);
    for (const field of ['given_name', 'family_name', 'born_on', 'email', 'phone_number', 'title', 'gender'] as const) {
      if (!passenger[field]) throw validation(`passengers[0].${field}`, `${field} is required`);
    }
    const created = new Date(this.now()).toISOString();
    const ids = { orderId: this.id('ord'), bookingReference: this.id('pnr').slice(-6).toUpperCase() };
    const order = buildOrder(offer, passenger, body.metadata ?? {}, ids, created);
    account.orders.set(order.id, order);
    return structuredClone(order);
  }

  /** Ticketing: the e-ticket is issued after the order, as airlines do. */
  private withDocuments(order: Order): Order {
    if (
      (order.documents ?? []).length === 0 &&
      this.now() >= Date.parse(order.created_at) + (this.options.ticketingDelayMs ?? 0)
    ) {
      const prefix = String(1 + (Number.parseInt(order.owner.id.slice(-3), 10) % 900)).padStart(3, '0');
      const serial = String(Number.parseInt(order.id.slice(-8), 36) % 1e10).padStart(10, '0');
      order.documents = [
        {
          type: 'electronic_ticket',
          unique_identifier: `${prefix}${serial}`,
          passenger_ids: order.passengers.map((p) => p.id),
        },
      ];
    }
    return structuredClone(order);
  }

  getOrder(token: string, id: string): Order {
    const order = this.account(token).orders.get(id);
    if (!order) throw notFound();
    return this.withDocuments(order);
  }

  /** Orders, optionally narrowed to those whose every passenger has one of the names (`given family`). */
  listOrders(token: string, names: string[]): Order[] {
    const wanted = names.map((n) => n.trim().toLowerCase());
    return this.orders(token).filter(
      (o) =>
        wanted.length === 0 ||
        o.passengers.every((p) => wanted.includes(`${p.given_name} ${p.family_name}`.toLowerCase())),
    );
  }

  createCancellation(token: string, orderId: string): SimCancellation {
    const account = this.account(token);
    const order = account.orders.get(orderId);
    if (!order) throw notFound();
    if (order.cancelled_at)
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'already_cancelled',
        'Order already cancelled',
        'This order has already been cancelled',
      );
    const refundable = order.conditions.refund_before_departure?.allowed === true;
    const now = this.now();
    const quote: SimCancellation = {
      id: this.id('ore'),
      order_id: orderId,
      live_mode: order.live_mode,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + 15 * 60000).toISOString(),
      confirmed_at: null,
      refund_amount: refundable ? order.total_amount : null,
      refund_currency: refundable ? order.total_currency : null,
      refund_to: refundable ? 'balance' : 'airline_credits',
      airline_credits: refundable
        ? []
        : [
            {
              id: this.id('acd'),
              credit_name: 'Travel credit',
              credit_code: this.id('crd').slice(-10),
              credit_amount: (Number(order.total_amount) - Number(order.tax_amount ?? 0)).toFixed(2),
              credit_currency: order.total_currency,
              issued_on: new Date(now).toISOString().slice(0, 10),
              passenger_id: order.passengers[0]?.id ?? '',
            },
          ],
    };
    account.cancellations.set(quote.id, quote);
    return { ...quote };
  }

  confirmCancellation(token: string, id: string): SimCancellation {
    const account = this.account(token);
    const quote = account.cancellations.get(id);
    if (!quote) throw notFound();
    const order = account.orders.get(quote.order_id);
    if (!order) throw notFound();
    if (quote.confirmed_at || order.cancelled_at)
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'already_cancelled',
        'Order already cancelled',
        'This order has already been cancelled',
      );
    if (this.now() >= Date.parse(quote.expires_at))
      throw new DuffelSimError(
        422,
        'invalid_state_error',
        'order_cancellation_expired',
        'Quote expired',
        'The cancellation quote has expired',
      );
    const at = new Date(this.now()).toISOString();
    quote.confirmed_at = at;
    order.cancelled_at = at;
    order.synced_at = at;
    order.available_actions = [];
    order.cancellation = quote as OrderCancellation;
    return { ...quote };
  }
}

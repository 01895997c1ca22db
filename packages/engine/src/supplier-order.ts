/**
 * Which supplier books a deadhead, and when the next one in the airline's order is tried. An airline's supplier
 * order (operator setting) lists SANDBOX, DUFFEL and OWN_AIRLINE; no setting means the sandbox alone.
 */
import { supplierReference } from './keys';

/** How a deadhead leg is booked: in the airline's own system, held for a person to book there, or through the order. */
export type FlightRoute = 'OWN_AIRLINE' | 'BOOK_IN_OWN_SYSTEM' | 'ORDER';

/** The carrier of a flight number such as `XX123` (2 characters, letters or digits, then digits). */
export function carrierOf(flightNumber: string | null | undefined): string | null {
  const m = /^([A-Z0-9]{2})\s?\d{1,4}[A-Z]?$/.exec((flightNumber ?? '').toUpperCase());
  return m ? m[1]! : null;
}

/**
 * A leg on the airline's own metal is a positive-space crew seat in its own reservation system, never a
 * retail ticket: it goes there when the airline registered that system, else to a person (BOOK_IN_OWN_SYSTEM).
 * Without a supplier setting the airline runs as before the setting existed: everything through the order.
 */
export function flightRoute(
  legFlightNumber: string | null | undefined,
  airline: { carrier: string; configured: boolean; ownAirline: boolean },
): FlightRoute {
  if (!airline.configured || carrierOf(legFlightNumber) !== airline.carrier.toUpperCase()) return 'ORDER';
  return airline.ownAirline ? 'OWN_AIRLINE' : 'BOOK_IN_OWN_SYSTEM';
}

/** The recommended action of a leg left to the airline's own system. */
export const BOOK_IN_OWN_SYSTEM = 'BOOK_IN_OWN_SYSTEM';

/**
 * The next supplier is tried when this one had nothing (no offers, nothing fitting) or said no. Never after
 * a transient failure: a timeout may have bought a ticket, and a second supplier would buy another.
 */
export function nextSupplierApplies(failure: { kind: 'NO_OFFERS' } | { kind: 'ERROR'; transient: boolean }): boolean {
  return failure.kind === 'NO_OFFERS' || !failure.transient;
}

/**
 * A retail supplier's offers without the airline's own flights (marketed or operated by it): those are crew
 * seats in its own system.
 */
export function retailOffers<T extends { airline_code: string; operating_airline_code?: string }>(
  offers: readonly T[],
  ownCarrier: string,
  filterOwn: boolean,
): T[] {
  if (!filterOwn) return [...offers];
  const own = ownCarrier.toUpperCase();
  return offers.filter(
    (o) => o.airline_code.toUpperCase() !== own && (o.operating_airline_code ?? '').toUpperCase() !== own,
  );
}

/**
 * An earlier attempt at this booking may have made an order whose answer we never read (a timeout, a crash
 * after the supplier answered, a retry of a FAILED booking): look it up before ordering again.
 */
export function orderMayExist(attempt: {
  attemptsStarted: number;
  retry_count: number;
  last_error: string | null;
}): boolean {
  return attempt.attemptsStarted > 1 || attempt.retry_count > 0 || attempt.last_error !== null;
}

/**
 * The supplier reference of a booking's latest order (a ticket, a room), placed or asked for: `bk-<booking>` (the
 * first booking's) until a task ordered under one of its own, which it recorded first (`order_reference`). An
 * order whose answer was lost is looked up there: by a cancellation that finds no live reservation on the
 * booking, and by a task about to order under another reference.
 */
export function latestOrderReference(b: { booking_id: string; order_reference: string | null }): string {
  return b.order_reference ?? supplierReference('book', b.booking_id);
}

/**
 * The reference a BOOK task orders under: `bk-<booking>` while the booking records no other; once one is recorded
 * (a rebook's, or a lost order a person's choice replaces), one of the task's own (`bk-<booking>-<task>`), so it
 * never reuses an earlier order's reference (a supplier refuses a reference reused for another offer, and one
 * without idempotency would sell a second ticket).
 */
export function bookTaskReference(b: { booking_id: string; order_reference: string | null }, task: string): string {
  return b.order_reference === null
    ? supplierReference('book', b.booking_id)
    : supplierReference('book', b.booking_id, task);
}

/**
 * A task ordering under `reference` replaces what the booking may hold under its latest reference first (cancels
 * it, then records that and its own reference) unless that reference is its own: an earlier attempt of the same
 * task got that far, and its order is looked up, not cancelled.
 */
export function replacesEarlierOrder(
  b: { booking_id: string; order_reference: string | null },
  reference: string,
): boolean {
  return latestOrderReference(b) !== reference;
}

/**
 * A person's booking choice (the review queue's BOOK_FLIGHT_OPTION, BOOK_HOTEL) on a booking whose last order may
 * be outstanding: FAILED after a BOOK or an AMEND (its answer lost), or NEEDS_REVIEW after one (the order it made
 * is held for the person, or a roster's or an injection's review overtook its call, which may still be running).
 * The reference that order went under, to be recorded with the choice's task, so the task looks it up and replaces
 * what it finds before ordering under a reference of its own, never the same one (a supplier without idempotency,
 * Duffel, would sell a second room or ticket); null when no order can be outstanding.
 */
export function lostOrderReference(b: {
  booking_id: string;
  status: string;
  task_operation: string | null;
  order_reference: string | null;
}): string | null {
  if (b.status !== 'FAILED' && b.status !== 'NEEDS_REVIEW') return null;
  if (b.task_operation !== 'BOOK' && b.task_operation !== 'AMEND') return null;
  return latestOrderReference(b);
}

/**
 * What becomes of the order found under a lost order's reference after a person recorded a PNR on the booking
 * (RECORD_PNR on a FAILED booking: lostOrderReference): nothing when none was made or it is cancelled
 * already; kept when it is the very ticket recorded (same PNR); else cancelled, so the airline pays for one seat.
 */
export function strayOrderPlan(
  found: { status: string; pnr?: string | null } | null,
  recordedPnr: string | null | undefined,
): 'NONE' | 'KEEP' | 'CANCEL' {
  if (!found || found.status === 'CANCELLED') return 'NONE';
  const pnr = (found.pnr ?? '').trim().toUpperCase();
  if (pnr !== '' && pnr === (recordedPnr ?? '').trim().toUpperCase()) return 'KEEP';
  return 'CANCEL';
}

/** The ticket a lost order made, as the booking's history and its review reason name it. */
export interface StrayOrder {
  reference: string;
  supplier: string;
  supplier_ref?: string | null;
}

/**
 * The history entry (or review reason) of a stray order's lookup: nothing found, the recorded ticket itself,
 * cancelled, still live because the supplier refused its cancellation, or unknown because the supplier would not
 * say what the order made (in the last two a person cancels it there).
 */
export function strayOrderMessage(
  end: 'NONE' | 'KEPT' | 'CANCELLED' | 'NOT_CANCELLED' | 'UNKNOWN',
  order: StrayOrder | null,
  recordedPnr: string | null | undefined,
  refusal?: string | null,
): string {
  const pnr = recordedPnr ? ` (the booking keeps PNR ${recordedPnr})` : '';
  if (end === 'NONE' || !order)
    return `no ticket was found under ${order?.reference ?? 'the failed order’s reference'}: the failed order made none${pnr}`;
  if (end === 'UNKNOWN')
    return `${order.supplier} did not say what the failed order under ${order.reference} made${refusal ? ` (${refusal})` : ''}: cancel it there if it was ticketed${pnr}`;
  const which = `the ticket the failed order made under ${order.reference} (${order.supplier} ${order.supplier_ref ?? 'order'})`;
  if (end === 'KEPT') return `${which} is the one recorded: kept`;
  if (end === 'CANCELLED') return `${which} cancelled at the supplier${pnr}`;
  return `${which} is still live: the supplier refused its cancellation${refusal ? ` (${refusal})` : ''}; cancel it there${pnr}`;
}

export interface SupplierSettingFacts {
  flights: readonly string[];
  hotels: readonly string[];
  /** After merging the body with what is stored. */
  duffelToken: boolean;
  ownAirline: boolean;
  production: boolean;
  sandboxAllowed: boolean;
}

/** Why a supplier setting cannot be stored, as `{field, issue}` pairs (empty: it can). */
export function supplierSettingIssues(s: SupplierSettingFacts): Array<{ field: string; issue: string }> {
  const issues: Array<{ field: string; issue: string }> = [];
  for (const list of ['flights', 'hotels'] as const) {
    s[list].forEach((name, i) => {
      if (name === 'DUFFEL' && !s.duffelToken)
        issues.push({ field: `/${list}/${i}`, issue: 'DUFFEL needs a Duffel access token: set duffel.access_token' });
      if (name === 'OWN_AIRLINE' && !s.ownAirline)
        issues.push({ field: `/${list}/${i}`, issue: 'OWN_AIRLINE needs own_airline {url, carrier, signing_secret}' });
      if (name === 'SANDBOX' && s.production && !s.sandboxAllowed)
        issues.push({
          field: `/${list}/${i}`,
          issue:
            'SANDBOX is refused in production (a crew member must never hold a simulated booking); a staging deployment sets SUPPLIER_SANDBOX_ALLOWED=true',
        });
    });
  }
  return issues;
}

/**
 * The airline's fare-conditions rule on offers the engine chooses by itself: ANY keeps every offer; REFUNDABLE
 * or CHANGEABLE keeps only offers whose supplier states that condition (an offer that does not say fits neither).
 */
export function fareConditionsFit<T extends { refundable?: boolean; changeable?: boolean }>(
  offers: readonly T[],
  rule: 'ANY' | 'REFUNDABLE' | 'CHANGEABLE',
): T[] {
  if (rule === 'ANY') return [...offers];
  return offers.filter((o) => (rule === 'REFUNDABLE' ? o.refundable === true : o.changeable === true));
}

/**
 * A fare that moved between the engine's choice and the supplier's order, which LOOSE rate matching ordered
 * anyway: the flag the booking carries, or null (to the cent, in the same currency).
 */
export function movedFareFlag(
  chosen: { amount: number; currency: string } | undefined,
  ordered: { amount: number; currency: string },
): string | null {
  if (!chosen || (chosen.currency === ordered.currency && Math.abs(chosen.amount - ordered.amount) < 0.005))
    return null;
  return `fare moved from ${chosen.amount.toFixed(2)} ${chosen.currency} to ${ordered.amount.toFixed(2)} ${ordered.currency} at ordering`;
}

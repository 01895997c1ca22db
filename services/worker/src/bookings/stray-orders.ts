/**
 * A PNR a person recorded on a booking whose last order's answer was lost (RECORD_PNR on a FAILED booking, after a
 * timeout or a 5xx): the lost order may have ticketed all the same, and that ticket would stay live beside the
 * recorded seat (the airline pays twice). The api marks the booking (stray_order_reference, the reference that
 * order went under); each pass here looks that reference up at the airline's flight suppliers, as a retry would
 * (findEarlierOrder), and cancels what it finds unless it is the very ticket recorded (engine strayOrderPlan). The
 * booking keeps the recorded PNR; its history says what was found and cancelled. A supplier that refuses the
 * cancellation puts the booking in front of a person (NEEDS_REVIEW, the item open again, the ticket named); one
 * that does not answer leaves the mark, and a later pass asks again when the lease ends.
 */
import { bookingRepo, type BookingRow, type Db } from '@crew/db';
import { settleBooking, strayOrderMessage, strayOrderPlan, supplierReference, type StrayOrder } from '@crew/engine';
import type { Logger } from '@crew/platform';
import { isSupplierError } from '@crew/suppliers';
import { findEarlierOrder, paced, type FlightBookingDeps } from './flight.booking';
import { askSeatAgain, giveSeatBack, type OwnAirlineConnection } from './own-seat.booking';

/** Bookings looked at per pass (the rest in the next). */
const BATCH = 50;
/** How long a booking being looked at is left to its pass before another may take it (a lost pass, a supplier down). */
export const STRAY_ORDER_LEASE_MS = 2 * 60_000;

export interface StrayOrderDeps {
  db: Db;
  flights: FlightBookingDeps;
  logger: Logger;
  now?: () => Date;
  /** Called after a write that emitted webhook events (a booking back in review). */
  webhookKick?: () => void;
  /** Told of a reopened item's schedule. */
  settled?: (scheduleId: string) => void;
}

type End =
  | { kind: 'NONE' | 'KEPT' | 'CANCELLED'; order: StrayOrder }
  | { kind: 'NOT_CANCELLED' | 'UNKNOWN'; order: StrayOrder; refusal: string };

/** The airline's own system still works on the request (it answered 202 again): asked again after the lease. */
class StillPending extends Error {
  override readonly name = 'StillPending';
}

/** One pass: every booking whose stray order is due is looked up and settled. Returns how many were looked at. */
export async function sweepStrayOrders(deps: StrayOrderDeps): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const due = await bookingRepo.claimStrayOrderChecks(
    deps.db,
    now,
    new Date(now.getTime() + STRAY_ORDER_LEASE_MS),
    BATCH,
  );
  for (const b of due) {
    const reference = b.stray_order_reference!;
    const log = deps.logger.child({ booking_id: b.booking_id, airline_id: b.airline_id, reference });
    let end: End;
    try {
      end = await lookUp(deps.flights, b, reference);
    } catch (err) {
      // Not answered (a timeout, a 5xx, a paced lane, a request still in work): the mark stays, and a pass after
      // the lease asks again.
      log.warn({ err }, 'stray order not looked up; asked again later');
      continue;
    }
    await record(deps, b, reference, end, log);
  }
  return due.length;
}

/** What the airline's flight suppliers hold under `reference`, cancelled unless it is the recorded ticket. */
async function lookUp(flights: FlightBookingDeps, b: BookingRow, reference: string): Promise<End> {
  const set = await flights.registry.forAirline(b.airline_id);
  // The failed order was a crew-seat request to the airline's own system: asked again under its reference.
  const block = (b.flight ?? {}) as { request_reference?: string };
  if (set.ownAirline && b.flight?.supplier === 'OWN_AIRLINE' && block.request_reference === reference)
    return lookUpOwnSeat(flights, b, set.ownAirline, reference);
  const found = await findEarlierOrder(flights, b, set, reference, b.duty_date ? { date: b.duty_date } : {});
  const order: StrayOrder = {
    reference,
    supplier: found?.supplier.name ?? '',
    supplier_ref: found?.order.supplier_ref ?? null,
  };
  const plan = strayOrderPlan(found?.order ?? null, b.flight?.pnr);
  if (plan === 'NONE' || !found) return { kind: 'NONE', order };
  if (plan === 'KEEP') return { kind: 'KEPT', order };
  const holder = found.supplier;
  const supplierRef = found.order.supplier_ref;
  try {
    await paced(flights, b.airline_id, holder, () =>
      holder.supplier.cancelFlight({
        supplier_ref: supplierRef,
        reference: supplierReference('cancel', b.booking_id, supplierRef),
      }),
    );
    return { kind: 'CANCELLED', order };
  } catch (err) {
    if (!isSupplierError(err) || err.transient || err.rateLimited) throw err;
    return { kind: 'NOT_CANCELLED', order, refusal: `${err.code}: ${err.message}` };
  }
}

/** The seat a request whose answer never came made in the airline's own system, given back unless it is the recorded one. */
async function lookUpOwnSeat(
  flights: FlightBookingDeps,
  b: BookingRow,
  conn: OwnAirlineConnection,
  reference: string,
): Promise<End> {
  const unknown: StrayOrder = { reference, supplier: 'OWN_AIRLINE' };
  let made: Awaited<ReturnType<typeof askSeatAgain>>;
  try {
    made = await askSeatAgain(b, conn, flights.callbackBase, reference);
  } catch (err) {
    if (!isSupplierError(err) || err.transient || err.rateLimited) throw err;
    // Our signature rejected, an unexpected 4xx: nothing said about the seat, a person finds out there.
    return { kind: 'UNKNOWN', order: unknown, refusal: `${err.code}: ${err.message}` };
  }
  if (made === 'PENDING') throw new StillPending(`the airline still works on the request ${reference}`);
  const order: StrayOrder = { reference, supplier: 'OWN_AIRLINE', supplier_ref: made?.pnr ?? null };
  const plan = strayOrderPlan(made ? { status: made.status, pnr: made.pnr } : null, b.flight?.pnr);
  if (plan === 'NONE' || !made) return { kind: 'NONE', order };
  if (plan === 'KEEP') return { kind: 'KEPT', order };
  try {
    await giveSeatBack(b, conn, made.pnr);
    return { kind: 'CANCELLED', order };
  } catch (err) {
    if (!isSupplierError(err) || err.transient || err.rateLimited) throw err;
    return { kind: 'NOT_CANCELLED', order, refusal: `${err.code}: ${err.message}` };
  }
}

/** Clears the mark and writes what became of the order; a refusal settles the booking in review. */
async function record(deps: StrayOrderDeps, b: BookingRow, reference: string, end: End, log: Logger): Promise<void> {
  const written = await deps.db.transaction().execute(async (trx) => {
    const current = await bookingRepo.lockBooking(trx, b.booking_id);
    // Cleared meanwhile (another pass after a lease ended): its record stands.
    if (!current || current.stray_order_reference !== reference) return null;
    const pnr = current.flight?.pnr ?? null;
    const reason = strayOrderMessage(end.kind, end.order, pnr, 'refusal' in end ? end.refusal : null);
    const clear = { stray_order_reference: null, stray_order_due_at: null };
    // In front of a person only when nothing else is under way on the booking (a task, a cancellation): a running
    // task's end would overwrite the review; its history still names the live ticket, and the log alerts.
    const settledBooking = ['CONFIRMED', 'MODIFIED', 'NEEDS_REVIEW'].includes(current.status);
    if ((end.kind === 'NOT_CANCELLED' || end.kind === 'UNKNOWN') && settledBooking) {
      const settlement = settleBooking(
        { status: 'NEEDS_REVIEW', reason },
        {
          actor: 'engine',
          actionId: current.action_id,
          fields: clear,
          urgency: { task: null, orItem: true },
          irop: current,
        },
      );
      return bookingRepo.writeSettlement(trx, current.booking_id, settlement);
    }
    await bookingRepo.updateBooking(
      trx,
      current.booking_id,
      { ...clear, status: current.status },
      {
        reason,
        actor: 'engine',
      },
    );
    return null;
  });
  if (written?.events) deps.webhookKick?.();
  if (written?.item?.schedule_id) deps.settled?.(written.item.schedule_id);
  if (end.kind === 'NOT_CANCELLED' || end.kind === 'UNKNOWN')
    log.error(
      {
        supplier: end.order.supplier,
        supplier_ref: end.order.supplier_ref,
        reason: 'refusal' in end ? end.refusal : null,
        alert: 'STRAY_ORDER',
      },
      'a ticket a failed order made beside a recorded PNR could not be cancelled: a person must cancel it at the supplier',
    );
  else log.info({ end: end.kind, supplier_ref: end.order.supplier_ref }, 'stray order looked up');
}

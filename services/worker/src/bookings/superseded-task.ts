/**
 * A booking task that is no longer the booking's current one when its supplier call returns: a later roster or an
 * injected cancellation replaced it while the call was in flight (PATCH and DELETE wait for it; those do not). The
 * room or ticket the call made is never thrown away: the booking takes it when a person decides it now, else it is
 * cancelled at the supplier (engine supersededReservation; docs/decisions.md, "A task overtaken mid-call").
 */
import { bookingRepo, type BookingRow, type Db } from '@crew/db';
import {
  bookTaskReference,
  namesLiveReservation,
  roomDates,
  supersededCancelRecord,
  supersededMessage,
  supersededReservation,
  supersededTaskReference,
  supplierReference,
  taskOperation,
  type AirlineBookingContext,
  type SupplierBlock,
  type TaskOf,
} from '@crew/engine';
import type { Logger } from '@crew/platform';
import type { JobData } from '@crew/queue';
import { isSupplierError, type AirlineSupplierSet } from '@crew/suppliers';
import { cancelDeadhead, findEarlierOrder, ordered, type FlightBookingDeps } from './flight.booking';
import { cancelStay, findEarlierStay, reserved, type HotelBookingDeps } from './hotel.booking';
import type { Outcome } from './outcome';

type Data = JobData<'bookings', 'execute-booking'>;

export interface SupersededDeps extends HotelBookingDeps {
  db: Db;
  flights: FlightBookingDeps;
  /** Called after a commit that wrote webhook deliveries (a booking sent to review). */
  webhookKick?: () => void;
}

const blockOf = (b: BookingRow): SupplierBlock | null => (b.type === 'HOTEL' ? b.hotel : b.flight) ?? null;
const outcomeBlock = (b: BookingRow, o: Outcome): SupplierBlock | null =>
  (b.type === 'HOTEL' ? o.patch?.hotel : o.patch?.flight) ?? null;
const withBlock = (b: BookingRow, block: SupplierBlock): BookingRow =>
  (b.type === 'HOTEL' ? { ...b, hotel: block } : { ...b, flight: block }) as BookingRow;
const blockPatch = (b: BookingRow, block: SupplierBlock) =>
  b.type === 'HOTEL' ? { hotel: block as BookingRow['hotel'] } : { flight: block as BookingRow['flight'] };

/** The task as the job names it, and the booking's current one. */
const taskOfJob = (b: BookingRow, data: Data): TaskOf => ({
  operation: data.operation ?? 'BOOK',
  identity: data.ref ?? data.action_id ?? b.booking_id,
});
const currentTask = (b: BookingRow): TaskOf => ({
  operation: taskOperation(b),
  identity: b.task_ref ?? b.action_id ?? b.booking_id,
});

/**
 * What the superseded task made: its answer's block; with no answer (`outcome` null: an earlier start of the job
 * stopped mid-call; or FAILED: the call's answer was lost), what the airline's suppliers hold under the task's
 * reference, as the task would have recorded it.
 */
export async function madeBySupersededTask(
  deps: SupersededDeps,
  started: BookingRow,
  data: Data,
  outcome: Outcome | null,
  ctx: AirlineBookingContext,
): Promise<SupplierBlock | null> {
  if (outcome && outcome.status !== 'FAILED') return outcomeBlock(started, outcome);
  const task = taskOfJob(started, data);
  const reference = supersededTaskReference(started.type, task.operation, started.booking_id, task.identity);
  if (!reference) return null;
  // A booking that records an order reference books under the task's own (engine bookTaskReference): looked for
  // there too, as the booking's may have been recorded after the task started.
  const own = bookTaskReference(started, task.identity);
  const references =
    reference === supplierReference('book', started.booking_id) && own !== reference ? [own, reference] : [reference];
  const set = await deps.registry.forAirline(started.airline_id);
  for (const r of references) {
    const made = await madeUnder(deps, set, started, r, ctx);
    if (made) return made;
  }
  return null;
}

/** What the airline's suppliers hold for the booking under `reference`, as the task would have recorded it. */
async function madeUnder(
  deps: SupersededDeps,
  set: AirlineSupplierSet,
  started: BookingRow,
  reference: string,
  ctx: AirlineBookingContext,
): Promise<SupplierBlock | null> {
  if (started.type === 'HOTEL') {
    const hotel = (started.hotel ?? {}) as { property_id?: string };
    const dates =
      started.checkin_time_local && started.checkout_time_local
        ? roomDates(started.checkin_time_local, started.checkout_time_local)
        : null;
    const hint =
      hotel.property_id && dates
        ? {
            property_id: hotel.property_id,
            ...dates,
            traveller: { email: started.traveller_email ?? '', name: started.traveller_name ?? '' },
          }
        : undefined;
    const found = await findEarlierStay(set, reference, hint);
    return found ? outcomeBlock(started, reserved(started, found.supplier, found.reservation, ctx, 'CONFIRMED')) : null;
  }
  const found = await findEarlierOrder(
    deps.flights,
    started,
    set,
    reference,
    started.duty_date ? { date: started.duty_date } : {},
  );
  const committed = Boolean((started.flight as { flight_option_id?: string } | null)?.flight_option_id);
  return found ? outcomeBlock(started, ordered(started, found.supplier, found.order, committed, ctx)) : null;
}

/**
 * Settles the room or ticket `made` by a superseded task (`started`: the booking as the task read it): handed to the
 * booking a person decides, or cancelled at the supplier and recorded (engine supersededCancelRecord). A supplier
 * that fails to answer the cancellation throws (the job runs again, finds the room by its reference and cancels it
 * then); one that refuses it leaves the room where it is, logged, and a booking whose cancellation found nothing
 * goes to review holding it, its item in the queue for a person to cancel it there.
 */
export async function settleSupersededTask(
  deps: SupersededDeps,
  started: BookingRow,
  data: Data,
  made: SupplierBlock | null,
  log: Logger,
): Promise<void> {
  if (!made || !namesLiveReservation(made)) return;
  const type = started.type;
  const task = taskOfJob(started, data);
  const judge = (current: BookingRow) =>
    supersededReservation({
      type,
      booking_id: started.booking_id,
      task,
      order_reference: started.order_reference,
      started: blockOf(started),
      made,
      current: {
        status: current.status,
        task: currentTask(current),
        block: blockOf(current),
        order_reference: current.order_reference,
      },
    });
  const plan = await deps.db.transaction().execute(async (trx) => {
    const current = await bookingRepo.lockBooking(trx, started.booking_id);
    if (!current) return null;
    const p = judge(current);
    if (p.kind === 'HAND_OVER')
      await bookingRepo.updateBooking(
        trx,
        current.booking_id,
        { ...blockPatch(current, p.block), status: current.status },
        { reason: supersededMessage(type, 'HANDED_OVER', made), actor: 'engine' },
      );
    return p;
  });
  if (!plan || plan.kind === 'NONE') return;
  if (plan.kind === 'HAND_OVER') {
    log.info({ supplier_ref: made.supplier_ref }, 'a superseded task’s reservation handed to the booking under review');
    return;
  }

  // Cancelled outside the booking's lock (a supplier call), as any cancellation: the room named, under the booking's
  // cancellation reference (the same one its own cancellation sends, so the two never cancel twice).
  const before = (await bookingRepo.findBooking(deps.db, started.booking_id))!;
  let end: Outcome;
  try {
    end =
      type === 'HOTEL'
        ? await cancelStay(deps, withBlock(before, made))
        : await cancelDeadhead(deps.flights, withBlock(before, made));
  } catch (err) {
    if (!isSupplierError(err) || err.transient || err.rateLimited) throw err;
    end = { status: 'NEEDS_REVIEW', reason: `${err.code}: ${err.message}` };
  }
  const cancelled = end.status === 'CANCELLED' && !end.awaiting;
  if (!cancelled)
    log.error(
      { supplier_ref: made.supplier_ref, supplier: made.supplier, reason: end.reason, alert: 'SUPERSEDED_RESERVATION' },
      'a superseded task’s reservation could not be cancelled: a person must cancel it at the supplier',
    );
  const written = await deps.db.transaction().execute(async (trx) => {
    const current = await bookingRepo.lockBooking(trx, started.booking_id);
    if (!current) return null;
    // The booking's own task may have found and cancelled it meanwhile: its record stands (engine NONE).
    const record = supersededCancelRecord({
      type,
      plan: judge(current),
      started: blockOf(started),
      made,
      current: {
        status: current.status,
        block: blockOf(current),
        action_id: current.action_id,
        task_ref: current.task_ref,
        cancellation: current.cancellation,
      },
      attempt: cancelled
        ? { cancelled: true, block: outcomeBlock(current, end), reason: end.reason, at: end.cancelled_at }
        : { cancelled: false, reason: end.reason ?? 'the supplier refused' },
    });
    if (record.kind === 'NONE') return null;
    if (record.kind === 'SETTLE') return bookingRepo.writeSettlement(trx, current.booking_id, record.settlement);
    await bookingRepo.updateBooking(
      trx,
      current.booking_id,
      { ...(record.block ? blockPatch(current, record.block) : {}), status: current.status },
      { reason: record.reason, actor: 'engine' },
    );
    return null;
  });
  if (written?.events) deps.webhookKick?.();
  log.info({ supplier_ref: made.supplier_ref, cancelled }, 'a superseded task’s reservation cancelled at the supplier');
}

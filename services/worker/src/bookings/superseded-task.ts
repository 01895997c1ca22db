/**
 * A booking task that is no longer the booking's current one when its supplier call returns: a later roster or an
 * injected cancellation replaced it while the call was in flight (PATCH and DELETE wait for it; those do not). The
 * room or ticket the call made is never thrown away: the booking takes it when a person decides it now, else it is
 * cancelled at the supplier (engine supersededReservation; docs/decisions.md, "A task overtaken mid-call").
 */
import { bookingRepo, type BookingRow, type Db } from '@crew/db';
import {
  beingCancelled,
  bookTaskReference,
  clearsBeingCancelled,
  namesLiveReservation,
  roomDates,
  supersededCancelRecord,
  supersededMessage,
  supersededReservation,
  supersededTaskReference,
  supplierReference,
  taskOperation,
  type AirlineBookingContext,
  type SupersededReservation,
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
 * What a superseded task made: the room or ticket's block, and the reference it was found under (null: the task's
 * answer gave it, under the reference the task ordered under as it began).
 */
export interface SupersededMade {
  block: SupplierBlock | null;
  reference: string | null;
}

/**
 * What the superseded task made: its answer's block; with no answer (`outcome` null: an earlier start of the job
 * stopped mid-call; or FAILED: the call's answer was lost), what the airline's suppliers hold under the task's
 * reference, as the task would have recorded it, and that reference (on a rerun the booking read is as it is now,
 * not as the task began, so the task's reference is not computed from it).
 */
export async function madeBySupersededTask(
  deps: SupersededDeps,
  started: BookingRow,
  data: Data,
  outcome: Outcome | null,
  ctx: AirlineBookingContext,
): Promise<SupersededMade> {
  if (outcome && outcome.status !== 'FAILED') return { block: outcomeBlock(started, outcome), reference: null };
  const task = taskOfJob(started, data);
  const reference = supersededTaskReference(started.type, task.operation, started.booking_id, task.identity);
  if (!reference) return { block: null, reference: null };
  // A booking that records an order reference books under the task's own (engine bookTaskReference): looked for
  // there too, as the booking's may have been recorded after the task started.
  const own = bookTaskReference(started, task.identity);
  const references =
    reference === supplierReference('book', started.booking_id) && own !== reference ? [own, reference] : [reference];
  const set = await deps.registry.forAirline(started.airline_id);
  for (const r of references) {
    const made = await madeUnder(deps, set, started, r, ctx);
    if (made) return { block: made, reference: r };
  }
  return { block: null, reference: null };
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
 * How long a superseded task's settlement waits for the booking's task that may keep its room or ticket (engine
 * WAIT), in all, and between two looks. Past the bound the job fails transiently: BullMQ runs it again, and the
 * rerun finds the room by its reference and judges it then.
 */
export const SUPERSEDED_WAIT = { boundMs: 30_000, pauseMs: 200 };

/** The booking's task still decides the superseded task's room past the bound: the job runs again. */
export class SupersededWaitExpired extends Error {
  readonly transient = true;
  constructor(bookingId: string, ms: number) {
    super(`booking ${bookingId}: its task still looks up the room a superseded task made after ${ms} ms; tried again`);
    this.name = 'SupersededWaitExpired';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Settles the room or ticket `made` by a superseded task (`started`: the booking as the task read it; `rerun`: as
 * a rerun of the job read it, which is the booking as it is now): handed to the booking a person decides, or
 * cancelled at the supplier and recorded (engine supersededCancelRecord). A booking
 * whose running task looks the room up before ordering (engine WAIT) is judged again under its lock every
 * `pauseMs` until that task named the room (kept or cancelled it), recorded another reference or ended; past
 * `boundMs` this throws (the job runs again). A supplier that fails to answer the cancellation throws (the job runs
 * again, finds the room by its reference and cancels it then); one that refuses it leaves the room where it is,
 * logged, and a booking whose cancellation found nothing goes to review holding it, its item in the queue for a
 * person to cancel it there.
 */
export async function settleSupersededTask(
  deps: SupersededDeps,
  started: BookingRow,
  data: Data,
  found: SupersededMade,
  log: Logger,
  o: { rerun: boolean },
): Promise<void> {
  const made = found.block;
  if (!made || !namesLiveReservation(made)) return;
  const type = started.type;
  const task = taskOfJob(started, data);
  const judge = (current: BookingRow) =>
    supersededReservation({
      type,
      booking_id: started.booking_id,
      task,
      order_reference: started.order_reference,
      ...(found.reference !== null ? { made_under: found.reference } : {}),
      started: blockOf(started),
      rerun: o.rerun,
      made,
      current: {
        status: current.status,
        task: currentTask(current),
        block: blockOf(current),
        order_reference: current.order_reference,
      },
    });
  const wait = SUPERSEDED_WAIT;
  const since = Date.now();
  let waited = false;
  for (;;) {
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
      // Cancelled after this lock is let go: marked first, so a task of the booking that finds it meanwhile does not
      // keep it (engine mayKeepFound). Judged otherwise now (a rerun), an earlier mark of it goes.
      if (p.kind === 'CANCEL')
        await bookingRepo.updateBooking(trx, current.booking_id, { being_cancelled: beingCancelled(made, task) });
      else if (clearsBeingCancelled(current.being_cancelled, made))
        await bookingRepo.updateBooking(trx, current.booking_id, { being_cancelled: null });
      return p;
    });
    if (plan?.kind === 'WAIT') {
      if (!waited)
        log.info(
          { supplier_ref: made.supplier_ref },
          'a superseded task’s reservation waits: the booking’s task looks it up, and keeps or cancels it',
        );
      waited = true;
      if (Date.now() - since >= wait.boundMs) throw new SupersededWaitExpired(started.booking_id, wait.boundMs);
      await sleep(wait.pauseMs);
      continue;
    }
    if (!plan || plan.kind === 'NONE') {
      if (waited)
        log.info(
          { supplier_ref: made.supplier_ref },
          'a superseded task’s reservation is the booking’s task’s: kept or cancelled there',
        );
      return;
    }
    if (plan.kind === 'HAND_OVER') {
      log.info(
        { supplier_ref: made.supplier_ref },
        'a superseded task’s reservation handed to the booking under review',
      );
      return;
    }
    return cancelSuperseded(deps, started, made, judge, log);
  }
}

/** The superseded task's room or ticket cancelled at the supplier, and what the booking records of it. */
async function cancelSuperseded(
  deps: SupersededDeps,
  started: BookingRow,
  made: SupplierBlock,
  judge: (current: BookingRow) => SupersededReservation,
  log: Logger,
): Promise<void> {
  const type = started.type;
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
    // The cancellation recorded, or refused (the room live again: a task that finds it may keep it): unmarked.
    const unmark = clearsBeingCancelled(current.being_cancelled, made) ? { being_cancelled: null } : {};
    if (record.kind !== 'NOTE') {
      if ('being_cancelled' in unmark) await bookingRepo.updateBooking(trx, current.booking_id, unmark);
      return record.kind === 'SETTLE' ? bookingRepo.writeSettlement(trx, current.booking_id, record.settlement) : null;
    }
    await bookingRepo.updateBooking(
      trx,
      current.booking_id,
      { ...(record.block ? blockPatch(current, record.block) : {}), status: current.status, ...unmark },
      { reason: record.reason, actor: 'engine' },
    );
    return null;
  });
  if (written?.events) deps.webhookKick?.();
  log.info({ supplier_ref: made.supplier_ref, cancelled }, 'a superseded task’s reservation cancelled at the supplier');
}

import type { BookingFlightBlock, BookingHotelBlock, BookingOperation, BookingStatus } from '@crew/contracts';
import { settleBooking, type BookingSettlement } from './booking-settlement';
import {
  cancellationReviewDeadline,
  madeCancellationCost,
  type MadeCancellationCost,
  type StoredCancellation,
} from './cancellation-plan';
import { supplierReference } from './keys';
import type { MovedAwayStay } from './lifecycle';
import { bookTaskReference } from './supplier-order';
import { supplierPlan } from './supplier-steps';

/*
 * A booking task superseded while its supplier call was in flight: a later roster or an injected cancellation wrote
 * a new task (or a review) onto the PENDING booking, and the call it overtook came back with a room or a ticket, or
 * with no answer at all. What that call made is never thrown away: the booking takes it when a person decides it
 * now, else it is cancelled at the supplier (docs/decisions.md, "A task overtaken mid-call").
 */

/** A booking's hotel or flight block, as far as the room or ticket it names goes. */
export type SupplierBlock = Record<string, unknown> & {
  supplier?: string | null;
  supplier_ref?: string | null;
  supplier_status?: string | null;
};

/** The block names a room or ticket still live at its supplier. */
export function namesLiveReservation(block: SupplierBlock | null | undefined): boolean {
  return Boolean(block?.supplier_ref) && block!.supplier_status !== 'CANCELLED' && block!.supplier_status !== 'REFUSED';
}

/**
 * The reference under which a superseded task may have made a room or ticket that nobody heard of (its answer was
 * lost, or the worker stopped mid-call): the task's book reference, as execute sent it. Null: the task makes
 * nothing (a cancellation).
 */
export function supersededTaskReference(
  type: 'HOTEL' | 'FLIGHT',
  operation: BookingOperation,
  bookingId: string,
  taskIdentity: string,
): string | null {
  switch (supplierPlan(type, operation)) {
    case 'CANCEL':
      return null;
    case 'BOOK':
      return supplierReference('book', bookingId);
    // A stay amended with no room yet, or moved to another property, books under the task; a flight change rebooks so.
    case 'AMEND':
    case 'CANCEL_AND_REBOOK':
      return supplierReference('book', bookingId, taskIdentity);
  }
}

/**
 * The reference a task orders its room or ticket under, on the booking as the task began (`order_reference`: the
 * one it had recorded): a booking's, bk-<booking> until a reference is recorded, then the task's own (supplier-order
 * bookTaskReference); a change's, the task's own. Null: the task orders nothing (a cancellation).
 */
export function taskOrderReference(
  type: 'HOTEL' | 'FLIGHT',
  task: TaskOf,
  b: { booking_id: string; order_reference: string | null },
): string | null {
  const plan = supplierPlan(type, task.operation);
  if (plan === 'CANCEL') return null;
  return plan === 'BOOK' ? bookTaskReference(b, task.identity) : supplierReference('book', b.booking_id, task.identity);
}

/** What becomes of the room or ticket a superseded task made. */
export type SupersededReservation =
  /** Nothing live was made, or the booking names it already (its own task deals with it). */
  | { kind: 'NONE' }
  /** The booking waits for a person: it takes the room or ticket (this block), which the person keeps or replaces. */
  | { kind: 'HAND_OVER'; block: SupplierBlock }
  /**
   * The booking runs a task that recorded the reference the room or ticket went under and names none live: before
   * ordering it looks that reference up and keeps the very stay it finds, or cancels what it finds. The room is that
   * task's to decide: judged again shortly (never cancelled while that task may keep it).
   */
  | { kind: 'WAIT' }
  /**
   * Cancelled at the supplier. `record`: the booking's cancellation found nothing to cancel (or has not run), so the
   * cancelled room or ticket, and the fee its terms say, go on its block; else only its history says so.
   */
  | { kind: 'CANCEL'; record: boolean };

/**
 * The fields the task's answer set on the block it started from (the supplier's room or ticket), over the block the
 * booking holds now: what the roster or the person changed meanwhile stays.
 */
export function madeFields(
  started: SupplierBlock | null,
  made: SupplierBlock,
  current: SupplierBlock | null,
): SupplierBlock {
  const out: SupplierBlock = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(made))
    if (JSON.stringify(v) !== JSON.stringify(started?.[k])) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** A booking task as the rule sees it: what it does, under which identity (its task_ref; the booking's id without one). */
export interface TaskOf {
  operation: BookingOperation;
  identity: string;
}

/**
 * The room or ticket a superseded task made (`made`: its answer's block; `started`: the block it read when it began,
 * or on a rerun the block as it is now), judged against the booking as it is now:
 *
 * | the booking now                                                                  | the room or ticket made           |
 * |----------------------------------------------------------------------------------|-----------------------------------|
 * | names it (its own task made, found or cancelled it)                              | NONE                              |
 * | runs or retries a task under the same supplier reference (the same task retried) | NONE: that task gets it back      |
 * | PENDING, its task recorded the reference it was made under, naming nothing live  | WAIT: that task keeps or cancels  |
 * | the same, FAILED (its retry, or whatever task comes next, looks it up there)     | NONE: the booking looks it up     |
 * | NEEDS_REVIEW, naming what the task started from (mostly nothing)                 | HAND_OVER: a person decides on it |
 * | the same on a rerun: naming no live room or ticket (what the task began from is  | HAND_OVER: a person decides on it |
 * | unknown; a task overtaken before making anything started from that)              |                                   |
 * | anything else (a cancellation, another task, another room; on a rerun, a booking | CANCEL at the supplier            |
 * | in review naming a live room or ticket, which may be its own)                    |                                   |
 *
 * A person's review is the one state that may take it: the review actions replace what a booking holds, never book
 * beside it. A cancellation must not leave it behind, and another task books or amends on its own.
 *
 * A rerun (`rerun`: an earlier start of the job stopped mid-call, or its settlement threw, and the job runs again)
 * reads the booking as it is now, so "naming what the task started from" would always hold: a booking in review
 * holding a room of its own would have the overtaken room written over it, its own then held by no booking. So on
 * a rerun a live room or ticket on the booking is taken for its own and the overtaken one is cancelled.
 *
 * WAIT: a person's choice (or the airline's commit) on a booking whose order may be outstanding records that
 * order's reference (supplier-order lostOrderReference); its task looks it up before ordering under its own, and
 * keeps the very stay it finds or cancels what it finds. Cancelled here meanwhile, the booking would end on a room
 * cancelled at the supplier; so one owner at any instant: that task, until the booking names the room (kept or
 * cancelled: NONE), records another reference (it found nothing and orders under its own: CANCEL) or ends.
 */
export function supersededReservation(input: {
  type: 'HOTEL' | 'FLIGHT';
  booking_id: string;
  task: TaskOf;
  /** The order reference the booking recorded when the task began (absent: none). */
  order_reference?: string | null;
  /**
   * The reference the room or ticket was made under, when known (found under it after the answer was lost); absent:
   * the task's own as it ordered (taskOrderReference, from `order_reference`).
   */
  made_under?: string | null;
  started: SupplierBlock | null;
  /**
   * `started` is the booking as it is now, not as the task began (a rerun of the job): what the task started from
   * is unknown.
   */
  rerun: boolean;
  made: SupplierBlock | null;
  current: { status: BookingStatus; task: TaskOf; block: SupplierBlock | null; order_reference?: string | null };
}): SupersededReservation {
  const { type, booking_id, task, started, rerun, made, current } = input;
  if (!made || !namesLiveReservation(made)) return { kind: 'NONE' };
  if (current.block?.supplier_ref === made.supplier_ref) return { kind: 'NONE' };
  // Each task's reference as it orders (a person's choice recorded the booking's, so it orders under its own).
  const reference =
    input.made_under !== undefined
      ? input.made_under
      : taskOrderReference(type, task, { booking_id, order_reference: input.order_reference ?? null });
  const running = current.status === 'PENDING' || current.status === 'FAILED';
  const currentReference = taskOrderReference(type, current.task, {
    booking_id,
    order_reference: current.order_reference ?? null,
  });
  if (running && reference !== null && currentReference === reference) return { kind: 'NONE' };
  // The booking's task looks the reference up before ordering (it names no live room or ticket of its own to replace).
  if (
    running &&
    reference !== null &&
    currentReference !== null &&
    (current.order_reference ?? null) === reference &&
    !namesLiveReservation(current.block)
  )
    return current.status === 'PENDING' ? { kind: 'WAIT' } : { kind: 'NONE' };
  const startedFrom = rerun
    ? !namesLiveReservation(current.block)
    : (current.block?.supplier_ref ?? null) === (started?.supplier_ref ?? null);
  if (current.status === 'NEEDS_REVIEW' && startedFrom)
    return { kind: 'HAND_OVER', block: madeFields(started, made, current.block) };
  return {
    kind: 'CANCEL',
    record: current.task.operation === 'CANCEL' && !namesLiveReservation(current.block),
  };
}

/**
 * A room or ticket a superseded task is having cancelled at the supplier. The judgment (CANCEL) is made under the
 * booking's lock, the cancellation is sent after it: the booking records the mark with the judgment and clears it
 * when that cancellation is recorded. Meanwhile a task of the booking that finds the room under an earlier order's
 * reference does not keep it (mayKeepFound), so the booking never ends on a room cancelled at the supplier.
 */
export interface BeingCancelled {
  supplier: string;
  supplier_ref: string;
  /** The superseded task whose cancellation it is (its identity). */
  task: string;
}

/** The mark a CANCEL judgment writes on the booking: the room or ticket `made` by the superseded `task`. */
export function beingCancelled(made: SupplierBlock, task: TaskOf): BeingCancelled {
  return { supplier: supplierOf(made), supplier_ref: made.supplier_ref ?? '', task: task.identity };
}

/**
 * Whether a task may keep, as the booking's, the room or ticket it found under an earlier order's reference (an
 * answer lost, the order a person's choice replaces): not one the booking marks as being cancelled by a superseded
 * task. That one is replaced as a room found there that is not the stay asked for: cancelled (a second cancellation
 * of it answers it cancelled), and the task orders under its own reference.
 */
export function mayKeepFound(
  found: { supplier?: string | null; supplier_ref: string },
  marked: BeingCancelled | null | undefined,
): boolean {
  return !marked || marked.supplier_ref !== found.supplier_ref || marked.supplier !== supplierOf(found);
}

/**
 * Whether the record of a superseded task's cancellation clears the booking's mark: it names that room or ticket.
 * Cancelled, it is gone; refused, it stays live at the supplier (a person is told to cancel it there), and a task
 * that finds it may keep it again rather than order a second one. A mark naming another room or ticket is another
 * superseded task's.
 */
export function clearsBeingCancelled(marked: BeingCancelled | null | undefined, made: SupplierBlock): boolean {
  return !!marked && marked.supplier_ref === made.supplier_ref && marked.supplier === supplierOf(made);
}

/** The history entry of a superseded task's room or ticket. */
export function supersededMessage(
  type: 'HOTEL' | 'FLIGHT',
  what: 'HANDED_OVER' | 'CANCELLED' | 'NOT_CANCELLED',
  made: SupplierBlock,
  detail?: string | null,
): string {
  const thing = `the ${type === 'HOTEL' ? 'room' : 'ticket'} ${made.supplier_ref} (${made.supplier ?? 'SANDBOX'})`;
  const base = `${thing}, made by an earlier task after a later change had replaced it,`;
  switch (what) {
    case 'HANDED_OVER':
      return `${base} is held on the booking: the person deciding the review keeps or replaces it`;
    case 'CANCELLED':
      return `${base} was cancelled at the supplier${detail ? `; ${detail}` : ''}`;
    case 'NOT_CANCELLED':
      return `${base} could not be cancelled (${detail ?? 'the supplier refused'}): it is still held at ${made.supplier ?? 'SANDBOX'}, cancel it there`;
  }
}

/** The booking as the room or ticket's cancellation finds it when it is recorded (locked). */
export interface SupersededBookingNow {
  status: BookingStatus;
  block: SupplierBlock | null;
  /** The action item the booking serves (its latest task's). */
  action_id: string | null;
  task_ref: string | null;
  /** The hotel cancellation stored for the booking's task (its terms price the room cancelled). */
  cancellation?: StoredCancellation | null;
}

/** How the supplier answered the cancellation of the superseded task's room or ticket. */
export type SupersededCancelAttempt =
  /** Cancelled: `block`, the room or ticket as the supplier's answer has it; `at`, when it was cancelled. */
  | { cancelled: true; block: SupplierBlock | null; reason: string | null; at: Date | null | undefined }
  /** Refused (a supplier's non-transient error, or a supplier no longer the airline's): still live there. */
  | { cancelled: false; reason: string };

/** What the booking records of it. */
export type SupersededCancelRecord =
  /** The booking's own task dealt with it meanwhile: its record stands. */
  | { kind: 'NONE' }
  /** A history entry, the booking's status and item as they are; `block`: the cancelled room or ticket, recorded. */
  | { kind: 'NOTE'; block: SupplierBlock | null; reason: string }
  /** Written as a task's end is (settleBooking): the booking's block and status, its history and its item. */
  | { kind: 'SETTLE'; settlement: BookingSettlement<{ hotel?: BookingHotelBlock; flight?: BookingFlightBlock }> };

const blockFields = (type: 'HOTEL' | 'FLIGHT', block: SupplierBlock) =>
  type === 'HOTEL' ? { hotel: block as BookingHotelBlock } : { flight: block as BookingFlightBlock };

/**
 * The superseded task's room or ticket once its cancellation was tried (`plan`: supersededReservation judged again
 * then, on the booking as it is now):
 *
 * - cancelled, the booking's cancellation having found nothing (or not run): the room or ticket, and the fee its
 *   terms give, on its block; its history says so, and so does the item of a cancellation that ended (it said
 *   nothing was reserved);
 * - cancelled, anything else: its history says so;
 * - refused, the booking's cancellation having found nothing (or not run), or the booking waiting for a person who
 *   decides on what the task started from: NEEDS_REVIEW holding it, its item in the review queue (CANCEL_BOOKING);
 * - refused, the booking holding a room or ticket of its own, or running another task: its history says so;
 * - `plan` WAIT (a task that may keep it started while the cancellation was out): as running another task.
 *
 * A booking whose cancellation found nothing is not left CANCELLED while the supplier still holds its room: the
 * room goes on its block, live, and its item waits for a person, due by the hotel's cancellation deadline as a
 * refused cancellation is. One that holds its own room is not: its review actions would act on that room.
 */
export function supersededCancelRecord(input: {
  type: 'HOTEL' | 'FLIGHT';
  plan: SupersededReservation;
  started: SupplierBlock | null;
  made: SupplierBlock;
  current: SupersededBookingNow;
  attempt: SupersededCancelAttempt;
}): SupersededCancelRecord {
  const { type, plan, started, made, current, attempt } = input;
  if (plan.kind === 'NONE') return { kind: 'NONE' };
  const recorded = plan.kind === 'CANCEL' && plan.record;
  if (!attempt.cancelled) {
    const reason = supersededMessage(type, 'NOT_CANCELLED', made, attempt.reason);
    if (!recorded && plan.kind !== 'HAND_OVER') return { kind: 'NOTE', block: null, reason };
    const reviewDeadline = cancellationReviewDeadline('NEEDS_REVIEW', 'CANCEL', current.cancellation, current.task_ref);
    return {
      kind: 'SETTLE',
      settlement: settleBooking(
        { status: 'NEEDS_REVIEW', reason },
        {
          actor: 'engine',
          actionId: current.action_id,
          fields: blockFields(type, madeFields(started, made, current.block)),
          urgency: { task: null, orItem: true },
          ...(reviewDeadline !== undefined ? { reviewDeadline } : {}),
        },
      ),
    };
  }
  // The booking's own cancellation terms price it, as they price the cancellation that found nothing.
  const cost =
    recorded && type === 'HOTEL'
      ? madeCancellationCost(current.cancellation, current.task_ref, null, true, {
          at: attempt.at,
          as: 'cancelled at the supplier',
        })
      : null;
  const reason = supersededMessage(type, 'CANCELLED', made, cost?.reason ?? attempt.reason);
  if (!recorded) return { kind: 'NOTE', block: null, reason };
  const block = { ...madeFields(started, attempt.block ?? made, current.block), ...cost?.fields };
  // A booking whose cancellation still runs: that task's end settles its item. One that ended (it found nothing, so
  // its item says so): its item says what was cancelled after all, and the fee, as that cancellation would have.
  if (current.status !== 'CANCELLED') return { kind: 'NOTE', block, reason };
  const settlement = settleBooking(
    { status: 'CANCELLED', reason },
    {
      actor: 'engine',
      actionId: current.action_id,
      fields: blockFields(type, block),
      urgency: { task: null, orItem: false },
    },
  );
  // booking.cancelled went out when the cancellation ended: not a second time.
  return { kind: 'SETTLE', settlement: { ...settlement, events: { ...settlement.events, statuses: [] } } };
}

/** What the booking records of a room or ticket its task cancelled but could not record (cancelledBeforeRecord). */
export interface CancelledBeforeRecord {
  /**
   * The booking still names it live: its block as it is now, that room or ticket CANCELLED (a room with the fee its
   * cancellation cost or avoided), and a history entry saying why. Null: it names another one, none, or it cancelled.
   */
  note: { block: SupplierBlock; reason: string } | null;
  /** A move's old room: the stay at the old hotel, for that hotel's invoice (recordMovedStay). Null: none. */
  moved: MovedAwayStay | null;
}

function supplierOf(b: { supplier?: string | null }): string {
  return b.supplier ?? 'SANDBOX';
}

/**
 * A task cancels the booking's room or ticket at the supplier before ordering another one (a move to another
 * hotel, a cancel-and-rebook, a lost order replaced), then records it; a later roster, injection or person may
 * supersede the task in between, and then it records nothing of its own. The supplier cancelled it all the same:
 *
 * - a booking that still names that very room or ticket (same supplier and reference) as live records it
 *   CANCELLED, so that coverage, the diff and a person see what the supplier holds; a room also takes the fee its
 *   cancellation cost or avoided (`cost`: the task's terms, judged when the supplier cancelled it), since the hotel
 *   bills it whichever task made the cancellation. Nothing else on the block changes: it is the newer task's (or the
 *   person's);
 * - a move's old room (`moved`) is recorded as the stay moved away from, for the old hotel's invoice, whatever the
 *   booking names now: the hotel bills a late fee for that room all the same. Not where the booking still names
 *   that very room at that hotel: the booking itself is the stay that hotel's invoice finds.
 *
 * `cancelled`: the block the task would have recorded, as the supplier's cancellation answered; `current`: the
 * booking's block now, under its lock.
 */
export function cancelledBeforeRecord(input: {
  type: 'HOTEL' | 'FLIGHT';
  cancelled: SupplierBlock | null | undefined;
  current: SupplierBlock | null;
  /** A room's: what its cancellation cost or avoided under the task's terms (madeCancellationCost); absent: none. */
  cost?: MadeCancellationCost | null;
  /** A move's old room: the stay at the old hotel, priced as `cost` (movedAwayStay); absent: not a move. */
  moved?: MovedAwayStay | null;
}): CancelledBeforeRecord {
  const { type, cancelled, current } = input;
  if (!cancelled?.supplier_ref || cancelled.supplier_status !== 'CANCELLED') return { note: null, moved: null };
  const namesIt = current?.supplier_ref === cancelled.supplier_ref && supplierOf(current) === supplierOf(cancelled);
  const moved =
    type === 'HOTEL' && input.moved && !(namesIt && current?.property_id === input.moved.property_id)
      ? input.moved
      : null;
  if (!namesIt || !namesLiveReservation(current)) return { note: null, moved };
  const thing = `the ${type === 'HOTEL' ? 'room' : 'ticket'} ${cancelled.supplier_ref} (${supplierOf(cancelled)})`;
  const cost = type === 'HOTEL' ? input.cost : null;
  const reason = `${thing} was cancelled at the supplier by an earlier task that a later change replaced before it could record it: the booking no longer holds it`;
  return {
    note: {
      block: { ...current, supplier_status: 'CANCELLED', ...cost?.fields },
      reason: cost?.reason ? `${reason}; ${cost.reason}` : reason,
    },
    moved,
  };
}

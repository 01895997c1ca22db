import { bookingRepo, cancellationHoldRepo, type BookingRow, type Db } from '@crew/db';
import { advanceHold, isHeld, madeCancellationCost } from '@crew/engine';
import type { JobData } from '@crew/queue';
import type { Outcome } from './outcome';

/*
 * A hotel cancellation under the contract's terms, in the booking task (docs/cost-control.md): the held one's
 * timer, and the fee a cancellation costs or avoids, recorded once it is made.
 */

type Data = JobData<'bookings', 'execute-booking'>;

const storedOf = (b: BookingRow) => b.cancellation;

/** The job is the timer of the booking's held cancellation (its CANCEL task, under the held ref). */
export function heldTask(b: BookingRow, data: Data): boolean {
  const c = storedOf(b);
  return data.operation === 'CANCEL' && isHeld(c) && c!.ref === data.ref;
}

/**
 * The hold has run out: HELD → RELEASED and the cancellation task starts (the booking PENDING under the held
 * ref), exactly once. The timer firing is the hold running out (its delay was the hold), so a worker clock a little
 * behind the api's does not put the release off. A roster that kept the booking first, or another delivery of this
 * job that released it, leaves nothing to do (the compare-and-set matches no row).
 */
export async function releaseHeldCancellation(
  deps: { db: Db; now?: () => Date },
  b: BookingRow,
  data: Data,
): Promise<boolean> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction().execute(async (trx) => {
    const current = await bookingRepo.lockBooking(trx, b.booking_id);
    const c = current && storedOf(current);
    if (!c?.hold || c.hold.status !== 'HELD' || c.ref !== data.ref) return false;
    const at = Math.max(now.getTime(), Date.parse(c.hold.hold_until));
    const next = advanceHold(c.hold, at, false);
    if (!next.send_cancellation) return false;
    return cancellationHoldRepo.releaseHold(trx, b.booking_id, c.ref, now, {
      reason: `held cancellation released (held until ${c.hold.hold_until}): the roster did not bring the layover back`,
    });
  });
}

/**
 * A hotel cancellation made (CANCELLED): its hotel block records the late fee it cost (cancellation_penalty) or
 * the one it avoided by being in time (cancellation_penalty_avoided), and the item's message says which. One
 * that found nothing reserved records neither.
 */
export function withCancellationCost(outcome: Outcome, b: BookingRow): Outcome {
  if (b.type !== 'HOTEL' || outcome.status !== 'CANCELLED') return outcome;
  const cost = madeCancellationCost(storedOf(b), b.task_ref, outcome.reason, !outcome.nothing_reserved);
  if (!cost) return outcome;
  if (Object.keys(cost.fields).length === 0) return { ...outcome, reason: cost.reason };
  return {
    ...outcome,
    reason: cost.reason,
    patch: { ...outcome.patch, hotel: { ...(outcome.patch?.hotel ?? b.hotel ?? {}), ...cost.fields } },
  };
}

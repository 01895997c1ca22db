import { airlinePolicyRepo, bookingRepo, cancellationHoldRepo, type BookingRow, type Db, type DbOrTrx } from '@crew/db';
import {
  advanceHold,
  isHeld,
  madeCancellationCost,
  releasedCancellation,
  settleBooking,
  type ReleasedCancellation,
  type StoredCancellation,
} from '@crew/engine';
import { openBookingContext, type TravellerVault } from '@crew/platform';
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

/** What the release of a held cancellation did: nothing (kept, or released already), the task started, or a review. */
export type Release =
  { kind: 'NONE' } | { kind: 'RELEASED' } | { kind: 'REVIEW'; events: number; schedule_id: string | null };

/**
 * The hold has run out: HELD → RELEASED and the cancellation task starts (the booking PENDING under the held
 * ref), exactly once. The timer firing is the hold running out (its delay was the hold), so a worker clock a little
 * behind the api's does not put the release off. A roster that kept the booking first, or another delivery of this
 * job that released it, leaves nothing to do (the compare-and-set matches no row). The cancellation is made now, so
 * it is judged now against the airline's levers and the contract's terms in force (engine releasedCancellation):
 * late by terms changed during the hold, it records the fee, or goes to a person (the booking NEEDS_REVIEW,
 * nothing cancelled) with after_deadline REVIEW; a lever switched off during the hold (cancellation execution)
 * hands it to a person too, due at the deadline.
 */
export async function releaseHeldCancellation(
  deps: { db: Db; vault: TravellerVault; now?: () => Date },
  b: BookingRow,
  data: Data,
): Promise<Release> {
  const now = deps.now?.() ?? new Date();
  return deps.db.transaction().execute(async (trx): Promise<Release> => {
    const current = await bookingRepo.lockBooking(trx, b.booking_id);
    const c = current && storedOf(current);
    if (!current || !c?.hold || c.hold.status !== 'HELD' || c.ref !== data.ref) return { kind: 'NONE' };
    const at = Math.max(now.getTime(), Date.parse(c.hold.hold_until));
    const next = advanceHold(c.hold, at, false);
    if (!next.send_cancellation) return { kind: 'NONE' };
    const made = await judgedNow(trx, deps.vault, current, c, data, now);
    const reason = `held cancellation released (held until ${c.hold.hold_until}): the roster did not bring the layover back`;
    if (made?.action === 'REVIEW') {
      if (!(await cancellationHoldRepo.endHoldForReview(trx, current.booking_id, c.ref, now))) return { kind: 'NONE' };
      // Due at the deadline, kept on the item (review_deadline): an ASSIGN or new review settings do not move it.
      const end = settleBooking(
        { status: 'NEEDS_REVIEW', reason: made.reason },
        {
          actor: 'engine',
          actionId: c.action_id ?? current.action_id,
          urgency: { task: data.priority, orItem: true },
          reviewDeadline: made.review_deadline,
        },
      );
      const written = await bookingRepo.writeSettlement(trx, current.booking_id, end);
      return { kind: 'REVIEW', events: written.events, schedule_id: written.item?.schedule_id ?? null };
    }
    const released = await cancellationHoldRepo.releaseHold(
      trx,
      current.booking_id,
      c.ref,
      now,
      { reason },
      made?.cancellation,
    );
    return released ? { kind: 'RELEASED' } : { kind: 'NONE' };
  });
}

/**
 * The held cancellation judged now, as the roster's cancellation would be now: under the airline's levers, terms
 * and cost settings in force (null: no stay to judge).
 */
async function judgedNow(
  trx: DbOrTrx,
  vault: TravellerVault,
  b: BookingRow,
  c: StoredCancellation,
  data: Data,
  now: Date,
): Promise<ReleasedCancellation | null> {
  if (!b.checkin_time_local || !b.checkout_time_local) return null;
  const ctx = openBookingContext(
    vault,
    b.airline_id,
    await airlinePolicyRepo.loadBookingFacts(trx, b.airline_id, []),
    now.toISOString(),
  );
  // The held item's classification: a dropped layover and a crew member swapped out follow different levers.
  const actionId = c.action_id ?? b.action_id;
  const item = actionId ? await bookingRepo.findActionItemById(trx, actionId) : undefined;
  return releasedCancellation(c, {
    policy: ctx.policy,
    layover: { classification: item?.classification ?? null, traveller_email: b.traveller_email, station: b.station },
    stay: { checkin_time_local: b.checkin_time_local, checkout_time_local: b.checkout_time_local, hotel: b.hotel },
    settings: ctx.costSettings,
    priority: data.priority ?? 'P3',
    now: now.getTime(),
  });
}

/**
 * A hotel cancellation made (CANCELLED): its hotel block records the late fee it cost (cancellation_penalty) or
 * the one it avoided by being in time (cancellation_penalty_avoided), and the item's message says which. It is
 * judged when the supplier cancelled the room (outcome.cancelled_at), not when it was decided: one decided in
 * time that the supplier made only after the deadline (down until then, the task retried) costs the late fee.
 * One that found nothing reserved records neither.
 */
export function withCancellationCost(outcome: Outcome, b: BookingRow): Outcome {
  if (b.type !== 'HOTEL' || outcome.status !== 'CANCELLED') return outcome;
  const cost = madeCancellationCost(
    storedOf(b),
    b.task_ref,
    outcome.reason,
    !outcome.nothing_reserved,
    outcome.cancelled_at ? { at: outcome.cancelled_at, as: 'cancelled at the supplier' } : null,
  );
  if (!cost) return outcome;
  if (Object.keys(cost.fields).length === 0) return { ...outcome, reason: cost.reason };
  return {
    ...outcome,
    reason: cost.reason,
    patch: { ...outcome.patch, hotel: { ...(outcome.patch?.hotel ?? b.hotel ?? {}), ...cost.fields } },
  };
}

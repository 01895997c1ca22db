import type { BookingOperation, Priority } from '@crew/contracts';
import {
  airlinePolicyRepo,
  cancellationHoldRepo,
  type BookingRow,
  type DbOrTrx,
  type StoredCancellation,
} from '@crew/db';
import {
  heldItemTakenOver,
  isHeld,
  planTaskCancellation,
  type CancellationCause,
  type StoredCancellation as EngineStored,
} from '@crew/engine';
import { ApiError, openBookingContext, type TravellerVault } from '@crew/platform';

/*
 * A person's hotel cancellation (DELETE, the cancel half of a PATCH's rebook, a review action, a cancelling
 * classification the airline injects or requests) under the
 * contract's cancellation terms in force now, in the hotel's zone: the fee it records after the deadline or
 * the one it avoids in time (docs/cost-control.md). A person's instruction is never held nor sent to review.
 * It supersedes a roster cancellation held on the booking; any other change withdraws that hold.
 */

/** What a task started on a booking stores of its cancellation (undefined: nothing changes), and its lane. */
export interface TaskCancellation {
  cancellation?: StoredCancellation | null;
  /** The task's lane: P1 when an in-time hotel deadline is less than 24 hours away, else the priority given. */
  lane: Priority;
}

export async function cancellationForTask(
  trx: DbOrTrx,
  deps: { vault: TravellerVault },
  b: BookingRow,
  operation: BookingOperation,
  ref: string,
  cause: Exclude<CancellationCause, 'ROSTER'>,
  priority: Priority,
  now: Date,
  /** The action item the task settles: the booking's own, unless the task's item takes the booking over. */
  actionId: string | null = b.action_id,
): Promise<TaskCancellation> {
  const held = isHeld(b.cancellation);
  if (held) await endHold(trx, b, operation, now, actionId);
  if (b.type !== 'HOTEL' || operation !== 'CANCEL' || !b.checkin_time_local || !b.checkout_time_local)
    return held ? { cancellation: null, lane: priority } : { lane: priority };
  const ctx = openBookingContext(
    deps.vault,
    b.airline_id,
    await airlinePolicyRepo.loadBookingFacts(trx, b.airline_id, []),
    now.toISOString(),
  );
  const { lane, cancellation } = planTaskCancellation({
    hotel: ctx.policy.hotels.get(b.station ?? ''),
    stay: { checkin_time_local: b.checkin_time_local, checkout_time_local: b.checkout_time_local, hotel: b.hotel },
    cause,
    settings: ctx.costSettings,
    priority,
    now: now.getTime(),
    ref,
    actionId,
  });
  if (cancellation === null) return held ? { cancellation: null, lane } : { lane };
  return {
    cancellation: held ? { ...cancellation, hold: { status: 'RELEASED', at: now.toISOString() } } : cancellation,
    lane,
  };
}

/**
 * A held roster cancellation ends when a person acts on the booking: their cancellation is the one cancellation
 * (RELEASED), and any other change keeps the booking (KEPT). Lost to the hold's timer (which released it a moment
 * before): the booking now has a supplier call in flight. A cancellation whose task settles another item than the
 * held one (an injected cancellation takes the booking over) ends the held item now, superseded by that item.
 */
async function endHold(
  trx: DbOrTrx,
  b: BookingRow,
  operation: BookingOperation,
  now: Date,
  actionId: string | null,
): Promise<void> {
  const c = b.cancellation as EngineStored;
  const ended =
    operation === 'CANCEL'
      ? await cancellationHoldRepo.releaseHold(trx, b.booking_id, c.ref, now, null)
      : (await cancellationHoldRepo.keepHold(
          trx,
          b.booking_id,
          c.ref,
          now,
          'held cancellation withdrawn: the airline changed the booking instead',
        )) !== null;
  if (!ended) throw ApiError.conflict('A supplier call for this booking is in flight; try again shortly');
  const takenOver = heldItemTakenOver(operation, c.action_id ?? b.action_id, actionId);
  if (takenOver) await cancellationHoldRepo.endHeldItem(trx, takenOver, now);
}

/**
 * A PATCH that changes nothing at the supplier (manual_override, reason) on a booking whose roster cancellation is
 * held supersedes the hold as any PATCH does: the booking stays (KEPT), its held item ends AUTO_BOOKED. Otherwise
 * the hold's timer would cancel a booking the person has just locked. `b` is locked by the caller, so the hold is
 * still HELD and the compare-and-set cannot lose.
 */
export async function keepHeldForPatch(trx: DbOrTrx, b: BookingRow, override: boolean, now: Date): Promise<void> {
  if (!isHeld(b.cancellation)) return;
  const c = b.cancellation as EngineStored;
  await cancellationHoldRepo.keepHold(
    trx,
    b.booking_id,
    c.ref,
    now,
    `held cancellation withdrawn: the airline ${override ? 'locked the booking (manual_override)' : 'handed the booking back to the roster (manual_override false)'}; the booking stays as it was`,
  );
}

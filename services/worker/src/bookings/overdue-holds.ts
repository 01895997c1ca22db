import { cancellationHoldRepo, outboxRepo, type Db } from '@crew/db';
import { holdTimerJob, type OutboxRelay } from '@crew/queue';

/** How long past its end a hold may wait for its timer job before it is sent again. */
export const OVERDUE_HOLD_GRACE_MS = 60_000;
/** Holds sent again per pass (the rest in the next). */
const BATCH = 500;

/**
 * A held cancellation's only timer is a delayed BullMQ job; Redis here keeps nothing on disk, so a restart loses
 * it and the room would never be cancelled. Each pass sends the timer again for every hold still HELD a minute
 * past its end: the same job id as the first (BullMQ drops it while that one is still queued), in the P1 lane
 * (the hold ended at least 15 minutes before the hotel's deadline). Releasing is a compare-and-set on the stored
 * hold, so a timer that arrives twice still makes one cancellation. Returns how many were sent.
 */
export async function resendOverdueHolds(deps: { db: Db; relay: OutboxRelay; now?: () => Date }): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const overdue = await cancellationHoldRepo.overdueHolds(
    deps.db,
    new Date(now.getTime() - OVERDUE_HOLD_GRACE_MS),
    BATCH,
  );
  if (overdue.length === 0) return 0;
  await outboxRepo.addToOutbox(
    deps.db,
    overdue.map((h) => holdTimerJob(h)),
  );
  deps.relay.kick();
  return overdue.length;
}

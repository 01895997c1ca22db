import { bookingRepo, outboxRepo, type Db } from '@crew/db';
import { taskOperation } from '@crew/engine';
import { automaticRetryJob, TASK_PRIORITIES, type OutboxRelay, type TaskPriority } from '@crew/queue';

/** How long past its time an automatic retry may wait for its job before it is sent again. */
export const OVERDUE_RETRY_GRACE_MS = 60_000;
/** Retries sent again per pass (the rest in the next). */
const BATCH = 500;

const lane = (priority: string | null): TaskPriority | undefined => TASK_PRIORITIES.find((p) => p === priority);

/**
 * An automatic retry's only trace in the queue is a delayed BullMQ job; Redis here keeps nothing on disk, so a
 * restart loses it and the booking would stay FAILED with its retry in the past for good (its irop_ref never
 * completes). Each pass sends the retry again for every FAILED booking a minute past its next_attempt_at: the same
 * job id as the first (BullMQ drops it while that one is still queued), in its item's lane. Accepting a retry is a
 * compare-and-set on the booking (still FAILED, same retry count and task), so a retry that arrives twice runs
 * once. Returns how many were sent.
 */
export async function resendOverdueRetries(deps: { db: Db; relay: OutboxRelay; now?: () => Date }): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const overdue = await bookingRepo.overdueRetries(deps.db, new Date(now.getTime() - OVERDUE_RETRY_GRACE_MS), BATCH);
  if (overdue.length === 0) return 0;
  await outboxRepo.addToOutbox(
    deps.db,
    overdue.map((b) => {
      const priority = lane(b.priority);
      return automaticRetryJob(
        {
          airline_id: b.airline_id,
          booking_id: b.booking_id,
          action_id: b.action_id,
          operation: taskOperation(b),
          ...(b.task_ref ? { ref: b.task_ref } : {}),
          ...(priority ? { priority } : {}),
          type: b.type,
        },
        b.retry_count,
      );
    }),
  );
  deps.relay.kick();
  return overdue.length;
}

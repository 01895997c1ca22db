import { ErrorCode } from '@crew/contracts';
import { bookingRepo, outboxRepo, retryJobRepo, type BookingRow, type DbOrTrx, airlinePolicyRepo } from '@crew/db';
import { REQUEST_PRIORITY, retryRefusal, taskOperation } from '@crew/engine';
import { ApiError, openBookingContext } from '@crew/platform';
import { bookingJob } from '@crew/queue';
import type { Principal } from '../auth/token-verifier';
import { actorOf, bookingOr404, type BookingDeps } from './bookings.service';

/**
 * The task a manual retry re-runs (the operation that failed), in the lane of any request of the airline's;
 * `retryCount` is the booking's count with this retry.
 */
function retryTask(b: BookingRow, retryCount: number) {
  return bookingJob({
    airline_id: b.airline_id,
    booking_id: b.booking_id,
    attempt: retryCount + 1,
    action_id: b.action_id,
    operation: taskOperation(b),
    ref: b.task_ref ?? undefined,
    priority: REQUEST_PRIORITY,
    type: b.type,
  });
}

/** The airline's automatic retry limit, from its booking context now. */
async function maxRetriesOf(deps: BookingDeps, airlineId: string): Promise<number> {
  const facts = await airlinePolicyRepo.loadBookingFacts(deps.db, airlineId, []);
  return openBookingContext(deps.vault, airlineId, facts, new Date().toISOString()).maxRetries;
}

/** POST …/retry: FAILED only, within the airline's max_retries; re-runs the task that failed. */
export async function retryBooking(
  deps: BookingDeps,
  caller: Principal,
  bookingId: string,
  retryJobId: string | null = null,
): Promise<BookingRow> {
  const maxRetries = await maxRetriesOf(deps, caller.airline_id);
  await bookingOr404(deps.db, caller.airline_id, bookingId);
  await deps.db.transaction().execute(async (trx) => {
    const b = (await bookingRepo.lockBooking(trx, bookingId))!;
    const refusal = retryRefusal(b, maxRetries);
    if (refusal) throw new ApiError(409, ErrorCode.CONFLICT, refusal);
    await startRetry(trx, b, actorOf(caller), retryJobId);
  });
  deps.relay.kick();
  return (await bookingRepo.findBooking(deps.db, bookingId))!;
}

/**
 * Re-runs the failed task of a locked booking the retry rules allow (retry_count + 1), in the caller's
 * transaction: POST …/retry, and a person's RETRY from the review queue.
 */
export async function startRetry(
  trx: DbOrTrx,
  b: BookingRow,
  actor: string,
  retryJobId: string | null = null,
): Promise<void> {
  await bookingRepo.updateBooking(
    trx,
    b.booking_id,
    {
      status: 'PENDING',
      retry_count: b.retry_count + 1,
      next_attempt_at: null,
      ...(retryJobId ? { retry_job_id: retryJobId } : {}),
    },
    { reason: `retry ${b.retry_count + 1}`, actor },
  );
  await outboxRepo.addToOutbox(trx, [retryTask(b, b.retry_count + 1)]);
}

/**
 * POST …/retry-jobs: every FAILED booking matching the filters joins one retry job, and those with retries
 * left re-run the task that failed (P2), set-based in one transaction: one update, one events insert, one
 * outbox insert. Bookings out of retries (or no longer FAILED) stay as they are and count as failed.
 */
export async function startRetryJob(
  deps: BookingDeps,
  caller: Principal,
  filters: Record<string, unknown>,
): Promise<string> {
  const maxRetries = await maxRetriesOf(deps, caller.airline_id);
  const retryJobId = await deps.db.transaction().execute(async (trx) => {
    const failed = await bookingRepo.failedBookings(trx, caller.airline_id, filters);
    const job = await retryJobRepo.insertRetryJob(trx, caller.airline_id, filters, failed.length);
    const retried = await retryJobRepo.retryFailedBookings(
      trx,
      caller.airline_id,
      failed.map((b) => b.booking_id),
      maxRetries,
      job.retry_job_id,
    );
    await bookingRepo.insertBookingEvents(
      trx,
      retried.map((b) => ({
        booking_id: b.booking_id,
        status: 'PENDING',
        reason: `retry ${b.retry_count}`,
        actor: actorOf(caller),
      })),
    );
    await outboxRepo.addToOutbox(
      trx,
      retried.map((b) => retryTask(b, b.retry_count)),
    );
    return job.retry_job_id;
  });
  deps.relay.kick();
  return retryJobId;
}

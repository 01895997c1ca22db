import { bookingRepo, diffWriteRepo, outboxRepo, reviewWritesRepo, webhookRepo, type DbOrTrx } from '@crew/db';
import type { AirlineBookingContext, DiffState, ReviewSettings } from '@crew/engine';
import { bookedStays, planDiffWrites } from './diff-writes';
import { BookingsChangedMeanwhile } from './schedule-errors';
import { derived, type DiffRun } from './schedule-run';
import { SliceWriter } from './slice-writer';

/*
 * Step 5 of the schedule processor (write.step), plan and write the items: each slice of the diff's items planned by
 * the booking policy (adoption of a requested booking, or the policy's decision: diff-writes planDiffWrites) and its
 * rows queued on the write transaction as the diff hands the items over (SliceWriter: the rest when the diff is done);
 * then the booking jobs into the outbox.
 */

/**
 * Items planned between two turns of the event loop while the slice before is being COPYed: planning a whole
 * slice at once (20-25 ms) left Postgres waiting for the COPY's next bytes (ClientRead) at the start of each slice.
 */
const PLAN_PART = 250;

/** Plans and writes the diff's items a slice at a time, in the write transaction. */
export function itemWriter(
  trx: DbOrTrx,
  run: DiffRun,
  ctx: AirlineBookingContext,
  state: Pick<DiffState, 'statusById' | 'retryCounts'>,
  review: ReviewSettings,
  versionOf: (bookingId: string) => string | undefined,
): SliceWriter {
  const { schedule, airlineId, processedAt } = run;
  const { statusById, retryCounts } = state;
  return new SliceWriter({
    plan: async (slice, requested) => {
      // The hotel blocks of the bookings this slice may move or cancels under terms: their own hotel decides the
      // terms. One read by primary key, only for a slice that has any, so most slices read nothing.
      const booked = await diffWriteRepo.bookedHotels(trx, bookedStays(slice, ctx.policy.hotels));
      return derived(
        planDiffWrites(
          slice,
          ctx,
          schedule.schedule_id,
          airlineId,
          statusById,
          retryCounts,
          processedAt,
          requested,
          PLAN_PART,
          review,
          versionOf,
          booked,
        ),
      );
    },
    write: async (writes) => {
      // The OPEN items of bookings this roster takes over with an item of its own, before the change moves them on.
      await reviewWritesRepo.supersedeOpenItems(
        trx,
        writes.bookingChanges.flatMap((c) =>
          typeof c.action_id === 'string' ? [{ booking_id: c.booking_id, action_id: c.action_id }] : [],
        ),
      );
      const { changedMeanwhile } = await diffWriteRepo.writeDiffResult(trx, { ...writes, auditEvents: [] });
      // Decided on bookings someone changed since: the whole write rolls back and the schedule is diffed again.
      if (changedMeanwhile > 0) throw new BookingsChangedMeanwhile(changedMeanwhile);
      await bookingRepo.adoptBookings(trx, writes.adoptions);
    },
    pendingReviewIds: webhookRepo.PENDING_REVIEW_IDS,
  });
}

/** The booking jobs of the items written, into the outbox (the relay queues them once committed). */
export async function queueBookingJobs(trx: DbOrTrx, writer: SliceWriter): Promise<void> {
  await outboxRepo.addToOutbox(trx, writer.jobs);
}

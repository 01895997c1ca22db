import { transactionAwaitingQueued, type BulkWrittenTable, type rosterStateRepo } from '@crew/db';
import { requestedBookingsByKey, settlesOnRerun, withKeptHolds } from '@crew/engine';
import { diffInParts, queueRosteredRows } from './diff.step';
import type { QueuedStatements } from './queued-statements';
import { finishProcessing, type ProcessedFigures } from './finish.step';
import { encodeNextState, saveNextState } from './next-state.step';
import { queueBookingJobs } from './plan.step';
import { keepReturnedLayovers } from './held-cancellations.step';
import type { DiffInputs } from './read-diff-state.step';
import { awaitedLater, transactionAborted } from './schedule-errors';
import type { DiffRun } from './schedule-run';

/*
 * Step 5 of the schedule processor, the write transaction: the diff, its items, the next state and the schedule's move
 * out of PROCESSING are committed together, so a crash leaves either nothing or everything. Its steps, in order (each
 * one's figure in phases_ms): tx_held_cancellations, tx_queue_rostered_rows, diff, tx_lock, tx_encode_state,
 * tx_requested_travellers_audits, tx_write_items, tx_outbox, [tx_find_elements,] tx_fingerprints, tx_basis, tx_save_state,
 * tx_coverage_rows, tx_finish, tx_commit.
 */

export interface WriteInput extends DiffInputs {
  /** The window's fingerprints read before the diff. */
  read: rosterStateRepo.WindowFingerprints;
  /** The SHA-256 of the stored roster (a byte-identical resubmission's shortcut). */
  bodySha256: string;
}

export interface Written extends ProcessedFigures {
  /** Booking jobs put into the outbox (the relay is kicked when there are any). */
  jobs: number;
}

export async function writeDiff(run: DiffRun, input: WriteInput): Promise<Written> {
  const { conn, schedule, window, timings } = run;
  const { subject, changed, ctx } = input;
  // Rows written or deleted per table, for the statistics the next reads are planned with (analyzeAfterBulkWrite).
  const written: Partial<Record<BulkWrittenTable, number>> = {};
  const queued: QueuedStatements = {};
  let jobs = 0;
  let items = 0;
  try {
    await timings.timed('tx_commit', () =>
      // Should the write fail, what it sent ahead has run before the rollback: one statement at a time on the connection.
      transactionAwaitingQueued(
        conn,
        () => sentAhead(queued),
        async (trx) => {
          // Held cancellations the roster brings back are withdrawn first: the diff then sees those bookings live.
          const kept = await timings.timed('tx_held_cancellations', () =>
            keepReturnedLayovers(trx, run.airlineId, subject.flat, input.state.hotelBookings, window, run.processedAt),
          );
          await timings.timed('tx_queue_rostered_rows', () =>
            queueRosteredRows(trx, run, subject.flat, changed, queued),
          );
          const diffed = kept.size ? { ...input, state: withKeptHolds(input.state, kept) } : input;
          const { result, writer, requested, auditEvents } = await timings.timed('diff', () =>
            diffInParts(trx, run, diffed, queued),
          );
          items = result.actionItems.length;
          const [locked, requestedRows, firstWrites] = queued.others!;
          // Whether a byte-identical resubmission may skip the diff (engine settlesOnRerun, and the fingerprints).
          let settles = !ctx.emitUnchanged && settlesOnRerun(result.actionItems, window);
          await timings.timed('tx_lock', () => locked);
          const { stateGzip } = timings.timed('tx_encode_state', () => {
            const encoding = encodeNextState(result.nextStateParts, input.stateLines);
            // Awaited where it is stored (tx_save_state).
            awaitedLater(encoding);
            return { stateGzip: encoding };
          });
          const requestedByKey = await timings.timed('tx_requested_travellers_audits', async () => {
            requested.byKey ??= requestedBookingsByKey(await requestedRows);
            await firstWrites;
            return requested.byKey;
          });
          const pendingReview = await timings.timed('tx_write_items', async () => {
            const pending = await writer.finish(requestedByKey);
            if (writer.changesBookings) settles = false;
            jobs = writer.jobs.length;
            written.bookings = writer.newBookings;
            return pending;
          });
          await timings.timed('tx_outbox', () => queueBookingJobs(trx, writer));
          await saveNextState(trx, run, {
            subject,
            changed,
            ctx,
            read: input.read,
            queued,
            settles,
            actionItems: result.actionItems,
            adopted: writer.adopted,
            stateGzip,
            bodySha256: input.bodySha256,
            auditEvents,
          });
          await timings.timed('tx_coverage_rows', async () => {
            Object.assign(written, await queued.rostered!, { action_items: items });
          });
          await timings.timed('tx_finish', () =>
            finishProcessing(trx, schedule.schedule_id, writer.open, pendingReview),
          );
        },
      ),
    );
  } catch (err) {
    throw await causeOf(err, queued);
  }
  return {
    items,
    diffedPairings: changed ? changed.size : null,
    skippedPairings: subject.skipped?.size ?? 0,
    written,
    jobs,
  };
}

/** Every statement the write transaction sent ahead of its use. */
function sentAhead(queued: QueuedStatements): Promise<unknown>[] {
  return [
    ...(queued.rostered ? [queued.rostered] : []),
    ...(queued.others ?? []),
    ...(queued.later ?? []),
    ...(queued.writer ? [queued.writer.settled()] : []),
  ];
}

/**
 * A failed statement aborts the transaction, and every statement after it fails with 25P02. The statements
 * queued before the diff run between the others': of their failures and this one, the first that is not 25P02
 * is the cause (a data error in any is permanent, the schedule FAILED at once).
 */
async function causeOf(err: unknown, queued: QueuedStatements): Promise<unknown> {
  const queuedBefore: Promise<unknown>[] = [...(queued.rostered ? [queued.rostered] : []), ...(queued.others ?? [])];
  const failures = await Promise.all(
    queuedBefore.map((p) =>
      p.then(
        () => null,
        (e: unknown) => e,
      ),
    ),
  );
  return failures.find((f) => f && !transactionAborted(f)) ?? err;
}

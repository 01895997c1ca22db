import { bookingRepo, diffWriteRepo, rosterStateRepo, type PendingReview, airlinePolicyRepo } from '@crew/db';
import { cancellationCutoffOf } from '@crew/engine';
import type { TravellerVault } from '@crew/platform';
import { finishProcessing } from './finish.step';
import type { ScheduleRun } from './schedule-run';
import { openBookingContext } from '@crew/platform';

/** A schedule whose processing wrote no item. */
const NO_PENDING_REVIEW: PendingReview = { count: 0, ids: [] };

/** The resubmission shortcut found its premises broken inside its transaction: rolled back, the full diff runs. */
class NotSettled extends Error {}

/**
 * Step 2 of the schedule processor, the shortcut before the diff: a byte-identical resubmission of the roster whose
 * state is stored, when re-diffing it would derive nothing (engine settlesOnRerun, and no existing booking changed or
 * adopted by its writes) and nothing the diff reads changed since: no booking dated in the window and no traveller of
 * the airline (windowFingerprint), emit_unchanged still off, and a cancellation cut-off no earlier than the one it was
 * judged with (a later cut-off only leaves more stays alone; priorities belong to items, and there are none). Then the
 * full diff would write no item, no booking, the same state and rostered rows, and the same audit events: those are
 * copied from the roster before, and the schedule completes, all in one transaction. True when it did; any premise
 * failing: false, and the full diff runs. `clock` gives the processing time (read only once the stored facts qualify).
 */
export async function settleResubmission(
  run: ScheduleRun,
  vault: TravellerVault,
  clock: () => string,
  sha256: string,
): Promise<boolean> {
  const { conn, schedule, airlineId, window, timings } = run;
  try {
    const known = await timings.timed('settled_premises', () => settledRoster(run, vault, clock, sha256));
    await conn.transaction().execute(async (trx) => {
      await timings.timed('settled_fingerprint', async () => {
        await bookingRepo.lockAirlineBookings(trx, airlineId);
        if ((await rosterStateRepo.windowFingerprint(trx, airlineId, window)) !== known.settled_fingerprint)
          throw new NotSettled();
      });
      await timings.timed('settled_write', async () => {
        if ((await diffWriteRepo.copyAuditEvents(trx, known.schedule_id, schedule.schedule_id)) !== known.audit_events)
          throw new NotSettled();
        await rosterStateRepo.adoptRosterState(trx, airlineId, schedule.schedule_id);
        await finishProcessing(trx, schedule.schedule_id, 0, NO_PENDING_REVIEW);
      });
    });
  } catch (err) {
    if (err instanceof NotSettled) return false;
    throw err;
  }
  return true;
}

/** The stored facts of the airline's last roster when the premises outside the transaction hold; else NotSettled. */
async function settledRoster(run: ScheduleRun, vault: TravellerVault, clock: () => string, sha256: string) {
  const known = await rosterStateRepo.loadSettledRoster(run.conn, run.airlineId);
  if (
    !known ||
    known.body_sha256 !== sha256 ||
    !known.settled_fingerprint ||
    !known.settled_cutoff ||
    known.audit_events === null
  )
    throw new NotSettled();
  const processedAt = clock();
  // Settings only: no traveller is read.
  const ctx = openBookingContext(
    vault,
    run.airlineId,
    await airlinePolicyRepo.loadBookingFacts(run.conn, run.airlineId, []),
    processedAt,
  );
  if (
    ctx.emitUnchanged ||
    cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days) < known.settled_cutoff
  )
    throw new NotSettled();
  return known;
}

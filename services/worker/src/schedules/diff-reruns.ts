import type { Logger } from '@crew/platform';
import type { WorkerMetrics } from '../operability/hooks';
import { BookingsChangedMeanwhile } from './schedule-errors';

/*
 * A diff that would change bookings someone changed after it read them is rolled back and run again (the schedule
 * processor's settledOrDiffed). The re-runs have no bound: each ends once nothing changes between a diff's read and
 * its write, and a bound would have to fail a roster that is correct. So they are counted, and a schedule whose
 * diff keeps being run again is logged as a warning for on-call (docs/operations.md, "A roster diffed again and again").
 */

/** Re-runs of one schedule's diff after which each further one is a warning: one or two are a person's change landing meanwhile. */
export const DIFF_RERUNS_WARN_AFTER = 3;

/**
 * `attempt` until it ends without BookingsChangedMeanwhile, `again` before each re-run (the stored roster read
 * again). Every re-run is counted; past DIFF_RERUNS_WARN_AFTER each is logged as a warning. Any other error is
 * thrown as it is.
 */
export async function rerunWhileBookingsChange<T>(
  attempt: () => Promise<T>,
  again: () => Promise<void>,
  log: Logger,
  metrics: Pick<WorkerMetrics, 'scheduleDiffRerun'>,
): Promise<T> {
  for (let rerun = 1; ; rerun++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof BookingsChangedMeanwhile)) throw err;
      metrics.scheduleDiffRerun();
      const fields = { bookings: err.bookings, rerun };
      if (rerun > DIFF_RERUNS_WARN_AFTER)
        log.warn(fields, 'bookings keep changing while the roster is diffed: diffing it again');
      else log.info(fields, 'bookings changed while the roster was diffed: diffing it again');
      await again();
    }
  }
}

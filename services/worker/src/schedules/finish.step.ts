import {
  analyzeAfterBulkWrite,
  scheduleLifecycleRepo,
  type BulkWrittenTable,
  type DbOrTrx,
  type PendingReview,
} from '@crew/db';
import { statusAfterProcessing } from '@crew/engine';
import type { Logger } from '@crew/platform';
import type { WorkerMetrics } from '../operability/hooks';
import type { ScheduleRun } from './schedule-run';

/*
 * Steps 5 and 6 of the schedule processor, finish: the schedule moves out of PROCESSING in the transaction that wrote
 * its diff (or adopted the state of the identical roster before it); once committed, the tables written are analyzed
 * and the run is logged.
 */

/** The schedule's move out of PROCESSING (engine statusAfterProcessing of its items still open), with its pending-review event. */
export async function finishProcessing(
  trx: DbOrTrx,
  scheduleId: string,
  openItems: number,
  pendingReview: PendingReview,
): Promise<void> {
  if (!(await scheduleLifecycleRepo.finishProcessing(trx, scheduleId, statusAfterProcessing(openItems), pendingReview)))
    throw new Error('schedule left PROCESSING while being processed');
}

/** What a schedule's processing did, for its "schedule processed" line. */
export interface ProcessedFigures {
  items: number;
  /** How many pairing_numbers the diff looked at: null when it diffed the whole roster (engine changedPairings). */
  diffedPairings: number | null;
  /** How many pairing_numbers' rows were never made (engine flattenElements): their elements were not even parsed. */
  skippedPairings: number;
  /** Rows written or deleted per table, for the statistics the next reads are planned with (analyzeAfterBulkWrite). */
  written: Partial<Record<BulkWrittenTable, number>>;
}

/** The figures of a byte-identical resubmission that settled: no diff, nothing written. */
export const nothingDiffed = (): ProcessedFigures => ({ items: 0, diffedPairings: 0, skippedPairings: 0, written: {} });

/**
 * After the commit: the processing time (the schedule is processed once committed), the tables a big diff wrote
 * analyzed (timed as its own step), and the "schedule processed" line with every step's milliseconds (phases_ms).
 */
export async function reportProcessed(
  run: ScheduleRun,
  log: Logger,
  metrics: WorkerMetrics,
  started: bigint,
  figures: ProcessedFigures,
): Promise<void> {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const analyzed = await run.timings.timed('analyze', () =>
    analyzeAfterBulkWrite(run.conn, figures.written).catch((err: unknown) => {
      // The schedule is committed: stale statistics only slow the next reads down until autovacuum comes.
      log.warn({ err }, 'the tables written could not be analyzed');
      return [];
    }),
  );
  log.info(
    {
      items: figures.items,
      diffed_pairings: figures.diffedPairings ?? 'all',
      skipped_pairings: figures.skippedPairings,
      analyzed,
      seconds: Math.round(seconds * 1000) / 1000,
      phases_ms: run.timings.ms,
    },
    'schedule processed',
  );
  metrics.scheduleProcessed(seconds, figures.items);
}

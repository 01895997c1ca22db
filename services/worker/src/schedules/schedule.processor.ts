import { DelayedError, type Job } from 'bullmq';
import { scheduleLifecycleRepo, type Db, type DbOrTrx, type ScheduleRow } from '@crew/db';
import { APPLIED, movesInto, staleSnapshot, UNPROCESSED } from '@crew/engine';
import type { Logger, TravellerVault } from '@crew/platform';
import type { JobData, OutboxRelay } from '@crew/queue';
import type { WorkerMetrics } from '../operability/hooks';
import { nothingDiffed, reportProcessed, type ProcessedFigures } from './finish.step';
import { flatten } from './flatten.step';
import { readDiffState } from './read-diff-state.step';
import { readComparedWith, readRoster, readStoredSubmission, type StoredSubmission } from './read-submission.step';
import { rerunWhileBookingsChange } from './diff-reruns';
import { isPermanentScheduleError, scheduleFailure, UnprocessableSchedule } from './schedule-errors';
import type { DiffRun, RosterBytes, ScheduleRun } from './schedule-run';
import { settleResubmission } from './settled-resubmission.step';
import { StepTimings } from './step-timings';
import { writeDiff } from './write.step';

export { isPermanentScheduleError };

/** The guards of the processor's moves: the statuses each may start from (engine schedule-state, spec 3.1). */
const INTO_PROCESSING = movesInto('PROCESSING');
const INTO_FAILED = movesInto('FAILED');

export type ScheduleJob = Job<JobData<'schedules', 'process-schedules'>, void, 'process-schedules'>;

export interface ScheduleProcessorDeps {
  db: Db;
  relay: OutboxRelay;
  logger: Logger;
  /** Opens the travellers' sealed personal fields (whether a deadhead's traveller has a date of birth). */
  vault: TravellerVault;
  /** The processing clock (tests pin it). */
  now?: () => Date;
  metrics: WorkerMetrics;
  /** Webhook events were committed (a schedule completed or failed): deliver them now rather than at the next poll. */
  webhookKick?: () => void;
}

/**
 * Processes an airline's queued schedules strictly in the order received: a Postgres advisory lock per
 * airline makes one worker at a time the airline's processor; other airlines run in parallel. Each
 * schedule's diff is written in one transaction together with its move out of PROCESSING, so a crash
 * leaves either nothing or everything, and a schedule is never processed twice.
 *
 * A schedule's steps, in order, each in its module (the names in brackets are the figures of "schedule
 * processed"'s phases_ms, each taken by StepTimings.timed):
 * 1. read the submission (read-submission.step) [read_body, read_roster, read_basis];
 * 2. a byte-identical resubmission settles without a diff (settled-resubmission.step) [settled_*], or:
 * 3. flatten the roster (flatten.step) [index_roster, flatten, changed_pairings];
 * 4. read what it is diffed against (read-diff-state.step) [load_decode_state, load_bookings_context, map_bookings];
 * 5. in one transaction (write.step) [tx_*]: diff (diff.step) [diff], plan and write the items (plan.step)
 *    [tx_write_items, tx_outbox], the next state (next-state.step) [tx_fingerprints, tx_basis, tx_save_state],
 *    finish (finish.step) [tx_finish], commit [tx_commit];
 * 6. report, once committed (finish.step) [analyze].
 */
export class ScheduleProcessor {
  constructor(private readonly deps: ScheduleProcessorDeps) {}

  async process(job: ScheduleJob, token?: string): Promise<void> {
    const { airline_id: airlineId } = job.data;
    const log = this.deps.logger.child({ queue: 'schedules', job_id: job.id, airline_id: airlineId });
    const busy = await this.deps.db.connection().execute(async (conn) => {
      if (!(await scheduleLifecycleRepo.tryLockAirline(conn, airlineId))) return true;
      try {
        for (;;) {
          const next = await scheduleLifecycleRepo.nextOpenSchedule(conn, airlineId, UNPROCESSED);
          if (!next) return false;
          try {
            await this.processOne(conn, next, log.child({ schedule_id: next.schedule_id }), job);
          } finally {
            // Its schedule.processing_completed or schedule.failed event (and action_item.pending_review) is committed.
            this.deps.webhookKick?.();
          }
        }
      } finally {
        await scheduleLifecycleRepo.unlockAirline(conn, airlineId);
      }
    });
    if (busy) {
      // Another worker is processing this airline; it will pick this schedule up in order. Look again shortly.
      await job.moveToDelayed(Date.now() + 1000, token);
      throw new DelayedError();
    }
  }

  /**
   * One schedule, step by step: its stored submission read; then either the shortcut of a byte-identical
   * resubmission that settled, or the diff (diffAndWrite); then, once committed, the report. Each step's time is
   * taken by StepTimings.timed under the name it has in the log's phases_ms.
   */
  private async processOne(conn: DbOrTrx, schedule: ScheduleRow, log: Logger, job: ScheduleJob): Promise<void> {
    const started = process.hrtime.bigint();
    await scheduleLifecycleRepo.markProcessing(conn, schedule.schedule_id, INTO_PROCESSING);
    const run: ScheduleRun = {
      conn,
      schedule,
      airlineId: schedule.airline_id,
      window: { start: schedule.schedule_start_date, end: schedule.schedule_end_date },
      timings: new StepTimings(),
    };
    // A snapshot captured before one already applied would undo it: FAILED, nothing applied (spec 3.1 "cannot be
    // processed at all"). Schedules are processed in the order received, so every applied one came before.
    const stale = await this.staleness(conn, schedule);
    if (stale) {
      log.warn({ as_of: schedule.as_of }, 'schedule not applied: a later snapshot is already applied');
      await scheduleLifecycleRepo.markFailed(conn, schedule.schedule_id, stale, INTO_FAILED);
      return;
    }
    let stored: StoredSubmission;
    try {
      stored = await run.timings.timed('read_body', () => readStoredSubmission(conn, schedule.schedule_id));
    } catch (err) {
      // Only a missing roster is the schedule's fault; a read that failed (a cancelled statement, a lost
      // connection) is infrastructure trouble, retried.
      if (err instanceof UnprocessableSchedule) await this.unprocessable(run, log, err);
      else await this.failed(run, log, job, err);
      return;
    }
    try {
      const figures = await this.settledOrDiffed(run, stored, log);
      // The roster could not be read: the schedule is FAILED.
      if (!figures) return;
      // Its events are committed: delivered now, not after the analyze (process() kicks again when it ends).
      this.deps.webhookKick?.();
      await reportProcessed(run, log, this.deps.metrics, started, figures);
    } catch (err) {
      await this.failed(run, log, job, err);
    }
  }

  /**
   * The shortcut of a byte-identical resubmission, or the diff. A diff that would change bookings someone changed
   * after it read them is rolled back and run again from the stored roster, against the bookings as they are then:
   * a person's change made meanwhile is never overwritten. It ends: the rows a diff writes stay locked until it
   * commits, and what changes bookings meanwhile (people, tasks in flight) does not go on for ever. Each re-run is
   * counted, and warned of past a few (rerunWhileBookingsChange).
   */
  private async settledOrDiffed(
    run: ScheduleRun,
    stored: StoredSubmission,
    log: Logger,
  ): Promise<ProcessedFigures | null> {
    return rerunWhileBookingsChange(
      async () => {
        const settled = await settleResubmission(run, this.deps.vault, () => this.processingTime(), stored.sha256);
        return settled ? nothingDiffed() : await this.diffAndWrite(run, stored, log);
      },
      async () => {
        // The stored body was dropped once decompressed.
        stored = await readStoredSubmission(run.conn, run.schedule.schedule_id);
      },
      log,
      this.deps.metrics,
    );
  }

  /**
   * The diff, step by step: what it compares with read while the roster is decompressed; the roster flattened
   * (only the pairings that changed when the basis tells which); the state it is diffed against read; the diff,
   * its items and the next state written, and the schedule finished, in one transaction (write.step). Null when
   * the stored roster cannot be decompressed (the schedule is then FAILED).
   */
  private async diffAndWrite(
    run: ScheduleRun,
    stored: StoredSubmission,
    log: Logger,
  ): Promise<ProcessedFigures | null> {
    const diffRun: DiffRun = { ...run, processedAt: this.processingTime() };
    const { timings } = run;
    // Postgres reads what the diff compares with while this process decompresses and parses the roster.
    const compareWith = readComparedWith(run.conn, this.deps.vault, run.schedule, diffRun.processedAt);
    let roster: RosterBytes;
    try {
      roster = await timings.timed('read_roster', () => readRoster(stored));
    } catch (err) {
      if (!(err instanceof UnprocessableSchedule)) throw err;
      await this.unprocessable(run, log, err);
      return null;
    }
    const basis = await timings.timed('read_basis', () => compareWith.basis);
    const flattened = await flatten(diffRun, roster, basis, compareWith);
    const inputs = await readDiffState(diffRun, this.deps.vault, roster, flattened);
    const written = await writeDiff(diffRun, { ...inputs, read: flattened.read, bodySha256: stored.sha256 });
    if (written.jobs) this.deps.relay.kick();
    return written;
  }

  /** Why this schedule's snapshot must not be applied (engine staleSnapshot), or null. */
  private async staleness(conn: DbOrTrx, schedule: ScheduleRow): Promise<string | null> {
    if (!schedule.as_of) return null;
    const window = { start: schedule.schedule_start_date, end: schedule.schedule_end_date };
    const applied = await scheduleLifecycleRepo.newestAppliedSnapshot(conn, schedule.airline_id, window, APPLIED);
    return staleSnapshot({ as_of: schedule.as_of.toISOString(), ...window }, applied);
  }

  private processingTime(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /** The stored roster is missing or cannot be decompressed: FAILED at once. */
  private async unprocessable(run: ScheduleRun, log: Logger, err: UnprocessableSchedule): Promise<void> {
    log.error({ err }, 'schedule cannot be processed');
    await scheduleLifecycleRepo.markFailed(run.conn, run.schedule.schedule_id, err.message, INTO_FAILED);
  }

  /**
   * A permanent error makes the schedule FAILED at once, and the loop goes on to the airline's next roster (this
   * job carries the airline's whole queue, so it must not end here as a failed job). Infrastructure trouble is
   * thrown for BullMQ to retry; on the last attempt the schedule is marked FAILED.
   */
  private async failed(run: ScheduleRun, log: Logger, job: ScheduleJob, err: unknown): Promise<void> {
    const scheduleId = run.schedule.schedule_id;
    const message = scheduleFailure(err, job.attemptsMade + 1);
    if (isPermanentScheduleError(err)) {
      log.error({ err }, 'schedule cannot be processed (permanent error)');
      await scheduleLifecycleRepo.markFailed(run.conn, scheduleId, message, INTO_FAILED);
      return;
    }
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    log.error({ err, attempt: job.attemptsMade + 1, last }, 'schedule processing failed');
    if (last)
      await scheduleLifecycleRepo.markFailed(run.conn, scheduleId, message, INTO_FAILED).catch((markErr: unknown) => {
        // Logged, not thrown: the processing's own error is thrown below (the airline's next processing takes a
        // schedule left PROCESSING first).
        log.error({ err: markErr }, 'the failed schedule could not be marked FAILED');
      });
    throw err;
  }
}

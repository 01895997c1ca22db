import { createHash } from 'node:crypto';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { flightOptionsUrl, type Pairing, type ScheduleSubmission } from '@crew/contracts';
import {
  analyzeAfterBulkWrite,
  bookingRepo,
  coverageRepo,
  diffWriteRepo,
  gunzipBytes,
  gunzipText,
  gzipJson,
  gzipText,
  outboxRepo,
  rosterStateRepo,
  scheduleLifecycleRepo,
  scheduleRepo,
  transactionAwaitingQueued,
  webhookRepo,
  type BulkWrittenTable,
  type Db,
  type DbOrTrx,
  type PendingReview,
  type ScheduleRow,
} from '@crew/db';
import {
  bookingContextOf,
  movesInto,
  statusAfterProcessing,
  UNPROCESSED,
  cancellationCutoffOf,
  changedPairings,
  diffBasisOf,
  diffInputOf,
  diffRosterInParts,
  onlyPairings,
  windowMoved,
  type AirlineBookingContext,
  type DiffBasis,
  type DiffResult,
  type RequestedBooking,
  diffStateOf,
  elementsOfWhole,
  flattenElements,
  flattenRoster,
  knownElements,
  pairingShapesOf,
  type PairingShape,
  type DiffBasisNow,
  type ElementBasis,
  type FlatRoster,
  type RosterElements,
  isStateLines,
  rewrittenPairings,
  linesOfStateInParts,
  rosterStateOfLines,
  rosterStateOfStored,
  stateLinesText,
  storedStateOfText,
  type StoredState,
  requestedBookingsByKey,
  rosteredRowsIn,
  settlesOnRerun,
} from '@crew/engine';
import type { Logger, TravellerVault } from '@crew/platform';
import type { BookingQueue, CatalogJob, JobData, OutboxRelay } from '@crew/queue';
import type { WorkerMetrics } from '../operability/hooks';
import { decodeRosterState, loadDiffState, loadRequestedBookings, rosterStateText } from '@crew/db';
import { loadBookingContext } from '../booking-context';
import { planDiffWrites } from './diff-writes';
import { rosterElementsOf } from './roster-elements';
import { SliceWriter } from './slice-writer';

/** The guards of the processor's moves: the statuses each may start from (engine schedule-state, spec 3.1). */
const INTO_PROCESSING = movesInto('PROCESSING');
const INTO_FAILED = movesInto('FAILED');

/** Milliseconds per phase of one schedule's processing, logged with "schedule processed" (where the time goes). */
class Phases {
  private last = performance.now();
  readonly ms: Record<string, number> = {};
  lap(name: string): void {
    const now = performance.now();
    this.ms[name] = Math.round((this.ms[name] ?? 0) + now - this.last);
    this.last = now;
  }
}

/**
 * Items planned between two turns of the event loop while the slice before is being COPYed: planning a whole
 * slice at once (20-25 ms) left Postgres waiting for the COPY's next bytes (ClientRead) at the start of each slice.
 */
const PLAN_PART = 250;

/** Rows grouped, or pairing_numbers' lines encoded, of the next roster state between two turns of the event loop (engine linesOfStateInParts): parts of a few ms. */
const STATE_PART = 2000;

/** Pairing_numbers per part of the diff (engine diffRosterInParts): an L roster's diff in parts of 10-20 ms. */
const DIFF_PART_PAIRINGS = 250;

/** A turn of the event loop: the connection sends what is queued on it (the COPYs' next bytes). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a generator that pauses between parts of its work (a slice's plan, the state's encoding) to its result, a turn of the event loop at each pause. */
async function derived<R>(parts: Generator<void, R, void>): Promise<R> {
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** The error of a statement sent after an earlier one failed in the same transaction (SQLSTATE 25P02). */
function transactionAborted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '25P02';
}

/** What a diff takes of the roster: its rows (of every pairing, or of those it diffs and the basis calls unclean), the travellers in them, the pairings to diff and the elements for the next basis. */
interface DiffSubject {
  flat: FlatRoster;
  crew: Map<string, { traveller_email: string; employee_id: string; name: string }>;
  /** The pairing_numbers to diff (engine changedPairings), or null for all of them. */
  changed: Set<string> | null;
  /** The pairings whose rows were not made (engine flattenElements), or undefined when all were: their stored state lines are kept. */
  skipped?: Set<string>;
  /** With `skipped`: the pairing_numbers whose stored state lines the diff reads and writes again (engine rewrittenPairings). */
  rewritten?: Set<string>;
  /** The roster's elements for the next basis, or null when they were not found (or not yet: `later`). */
  elements: ElementBasis[] | null;
  /**
   * A roster diffed whole with no basis (an airline's first) finds its elements only for the next basis: later, in
   * the write transaction, while Postgres computes the fingerprints.
   */
  later?: () => { flat: FlatRoster; elements: ElementBasis[] | null };
}

/** The travellers of a roster's pairings, the last occurrence of each e-mail winning. */
function crewOf(pairings: readonly Pairing[]): DiffSubject['crew'] {
  const crew: DiffSubject['crew'] = new Map();
  for (const p of pairings)
    for (const c of p.crew)
      crew.set(c.traveller_email.toLowerCase(), {
        traveller_email: c.traveller_email,
        employee_id: c.employee_id,
        name: c.name,
      });
  return crew;
}

/** Thrown by a stored roster that does not parse: the schedule cannot be processed. */
function unreadable(err: unknown): UnprocessableSchedule {
  return new UnprocessableSchedule(`the stored roster cannot be read: ${(err as Error).message}`);
}

/** The whole roster parsed and flattened, each pairing_number's content its elements' when they were found. */
function wholeRosterOf(bytes: Buffer, elements: RosterElements | null | 'later'): DiffSubject {
  let submission: ScheduleSubmission;
  try {
    submission = JSON.parse(bytes.toString('utf8')) as ScheduleSubmission;
  } catch (err) {
    throw unreadable(err);
  }
  const flat = flattenRoster(submission);
  const crew = crewOf(submission.pairings);
  // What elementsOfWhole reads of the pairings (the parsed roster is not held on to).
  const shapes = pairingShapesOf(submission.pairings);
  if (elements === 'later')
    return {
      flat,
      crew,
      changed: null,
      elements: null,
      later: () => withElements(flat, rosterElementsOf(bytes), shapes),
    };
  return { ...withElements(flat, elements, shapes), crew, changed: null };
}

/** The roster's elements for the next basis, and each pairing_number's content from them (engine elementsOfWhole), when they were found. */
function withElements(
  flat: FlatRoster,
  elements: RosterElements | null,
  pairings: readonly PairingShape[],
): { flat: FlatRoster; elements: ElementBasis[] | null } {
  if (!elements || elements.contents.length !== pairings.length) return { flat, elements: null };
  const { elements: basisElements, pairingContents } = elementsOfWhole(elements, pairings, flat);
  return { flat: { ...flat, pairingContents }, elements: basisElements };
}

/**
 * Only the elements of the pairings to diff parsed and flattened (engine knownElements, flattenElements), when the
 * basis tells which: null when it cannot (a pairing_number sent twice, a whole diff asked for). The travellers are
 * those of the elements parsed: an unchanged element's were upserted when it was new.
 */
function changedElementsOf(
  elements: RosterElements,
  basis: DiffBasis,
  now: Omit<DiffBasisNow, 'flat'>,
): DiffSubject | null {
  try {
    const known = knownElements(elements, basis);
    const changed = known && changedPairings(basis, { ...now, flat: { pairingContents: known.contents } });
    if (!known || !changed) return null;
    const part = flattenElements(elements, basis, known, changed);
    // Every element parsed is one of these: its pairing_number is diffed, or the basis does not call its content clean.
    const rewritten = rewrittenPairings(basis, part.elements, changed);
    return {
      flat: part.flat,
      crew: crewOf(part.parsed),
      changed,
      skipped: part.skipped,
      rewritten,
      elements: part.elements,
    };
  } catch (err) {
    if (err instanceof SyntaxError) throw unreadable(err);
    throw err;
  }
}

/** A schedule whose processing wrote no item. */
const NO_PENDING_REVIEW: PendingReview = { count: 0, ids: [] };

export type ScheduleJob = Job<JobData<'schedules', 'process-schedules'>, void, 'process-schedules'>;

/** What a diff compares a roster with, read while the roster is parsed (ScheduleProcessor.readComparedWith). */
interface ComparedWith {
  /** Read first: the basis alone tells whether the whole roster is parsed. */
  basis: Promise<DiffBasis | null>;
  read: Promise<rosterStateRepo.WindowFingerprints>;
  /**
   * The stored state of the last diff (it is ours to write, under the airline's lock): read first, decompressed on
   * libuv's pool as soon as it arrives and read once it is (engine storedStateOfText), while the pool decompresses the roster.
   */
  state: Promise<StoredState | null>;
  settings: Promise<AirlineBookingContext>;
}

/** The resubmission shortcut found its premises broken inside its transaction: rolled back, the full diff runs. */
class NotSettled extends Error {}

/** A schedule that cannot be processed at all (its stored roster is unreadable): FAILED, never retried. */
class UnprocessableSchedule extends Error {}

/**
 * True when processing this schedule again cannot succeed: its stored roster does not parse, or Postgres
 * refused its data (SQLSTATE class 22 data exception, such as a NUL in a crew name, or 23 integrity
 * violation). Anything else (a lost connection, a deadlock, a timeout) is infrastructure and retried.
 */
export function isPermanentScheduleError(err: unknown): boolean {
  if (err instanceof UnprocessableSchedule || err instanceof SyntaxError || err instanceof UnrecoverableError)
    return true;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

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

  private async processOne(conn: DbOrTrx, schedule: ScheduleRow, log: Logger, job: ScheduleJob): Promise<void> {
    const started = process.hrtime.bigint();
    await scheduleLifecycleRepo.markProcessing(conn, schedule.schedule_id, INTO_PROCESSING);
    // Held in a box so the diff can drop the roster's bytes once it has what it needs of them (a big airline's are tens of MB).
    const roster: { bytes: Buffer | null } = { bytes: null };
    const phases = new Phases();
    let stored: { body: Buffer | null; sha256: string };
    try {
      const body = await this.readStoredBody(conn, schedule.schedule_id);
      // Of the stored bytes: equal bytes, equal roster (a differently compressed upload of the same roster only misses the shortcut).
      stored = { body, sha256: createHash('sha256').update(body).digest('hex') };
      phases.lap('read_body');
    } catch (err) {
      log.error({ err }, 'schedule cannot be processed');
      await scheduleLifecycleRepo.markFailed(
        conn,
        schedule.schedule_id,
        err instanceof Error ? err.message : String(err),
        INTO_FAILED,
      );
      return;
    }
    try {
      let items = 0;
      // How many pairing_numbers the diff looked at: null when it diffed the whole roster (engine changedPairings).
      let diffedPairings: number | null = 0;
      // How many pairing_numbers' rows were never made (engine flattenElements): their elements were not even parsed.
      let skippedPairings = 0;
      let written: Partial<Record<BulkWrittenTable, number>> = {};
      if (!(await this.resubmitSettled(conn, schedule, stored.sha256, phases))) {
        const processedAt = (this.deps.now?.() ?? new Date()).toISOString();
        // Postgres reads what the diff compares with while this process decompresses and parses the roster.
        const compareWith = this.readComparedWith(conn, schedule, processedAt);
        try {
          roster.bytes = await this.gunzipRoster(stored.body!);
          stored.body = null;
          phases.lap('read_roster');
        } catch (err) {
          log.error({ err }, 'schedule cannot be processed');
          await scheduleLifecycleRepo.markFailed(
            conn,
            schedule.schedule_id,
            err instanceof Error ? err.message : String(err),
            INTO_FAILED,
          );
          return;
        }
        ({ items, diffedPairings, skippedPairings, written } = await this.diffAndWrite(
          conn,
          schedule,
          roster,
          phases,
          stored.sha256,
          processedAt,
          compareWith,
        ));
      }
      // Its events are committed: delivered now, not after the analyze (process() kicks again when it ends).
      this.deps.webhookKick?.();
      // Processed once committed; the analyze that may follow is timed as its own phase.
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const analyzed = await analyzeAfterBulkWrite(conn, written).catch((err: unknown) => {
        // The schedule is committed: stale statistics only slow the next reads down until autovacuum comes.
        log.warn({ err }, 'the tables written could not be analyzed');
        return [];
      });
      phases.lap('analyze');
      log.info(
        {
          items,
          diffed_pairings: diffedPairings ?? 'all',
          skipped_pairings: skippedPairings,
          analyzed,
          seconds: Math.round(seconds * 1000) / 1000,
          phases_ms: phases.ms,
        },
        'schedule processed',
      );
      this.deps.metrics.scheduleProcessed(seconds, items);
    } catch (err) {
      const message = `processing failed: ${err instanceof Error ? err.message : String(err)}`;
      if (isPermanentScheduleError(err)) {
        // Retrying cannot help: FAILED at once, and the loop goes on to the airline's next roster (this job
        // carries the airline's whole queue, so it must not end here as a failed job).
        log.error({ err }, 'schedule cannot be processed (permanent error)');
        await scheduleLifecycleRepo.markFailed(conn, schedule.schedule_id, message, INTO_FAILED);
        return;
      }
      // Infrastructure trouble is retried by BullMQ; on the last attempt the schedule is marked FAILED.
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.error({ err, attempt: job.attemptsMade + 1, last }, 'schedule processing failed');
      if (last)
        await scheduleLifecycleRepo.markFailed(conn, schedule.schedule_id, message, INTO_FAILED).catch(() => undefined);
      throw err;
    }
  }

  private async readStoredBody(db: DbOrTrx, scheduleId: string): Promise<Buffer> {
    const payload = await scheduleRepo.findPayload(db, scheduleId);
    if (!payload) throw new UnprocessableSchedule('the stored roster is missing');
    return payload.body_gzip;
  }

  /**
   * What the diff compares a roster with, before it reads the bookings: the window's fingerprints (equal to the
   * same inside the write transaction, nothing changed in between; see resubmitSettled), per pairing_number too,
   * the settings (no traveller is read), the basis the last diff left (engine changedPairings) and its stored
   * state (only this airline's processor writes it, under the lock it holds).
   */
  private readComparedWith(conn: DbOrTrx, schedule: ScheduleRow, processedAt: string): ComparedWith {
    const window = { start: schedule.schedule_start_date, end: schedule.schedule_end_date };
    // Read as soon as it is decompressed (split into its lines, or parsed when of an older form), while the pool decompresses the roster.
    const state = decodeRosterState(
      rosterStateText(rosterStateRepo.loadRosterState(conn, schedule.airline_id)),
      storedStateOfText,
    );
    const basis = this.loadDiffBasis(conn, schedule.airline_id);
    // The bookings' dates matter only to a diff in a window other than the last one's (engine changedPairings).
    const read = basis.then((b) =>
      rosterStateRepo.windowFingerprints(conn, schedule.airline_id, window, {
        ownWrites: false,
        dates: b !== null && windowMoved(b, window),
      }),
    );
    const settings = read.then(() => loadBookingContext(conn, this.deps.vault, schedule.airline_id, processedAt, []));
    // Awaited by the diff; until then a failure must not count as unhandled.
    for (const p of [state, basis, read, settings]) p.catch(() => undefined);
    return { read, settings, basis, state };
  }

  /** The basis the airline's last diff left (engine changedPairings), or null. */
  private async loadDiffBasis(db: DbOrTrx, airlineId: string): Promise<DiffBasis | null> {
    const gzipped = await rosterStateRepo.loadDiffBasis(db, airlineId);
    return gzipped && (JSON.parse(await gunzipText(gzipped)) as DiffBasis);
  }

  private async gunzipRoster(bodyGzip: Buffer): Promise<Buffer> {
    try {
      return await gunzipBytes(bodyGzip);
    } catch (err) {
      throw unreadable(err);
    }
  }

  /**
   * A byte-identical resubmission of the roster whose state is stored, when re-diffing it would derive
   * nothing (engine settlesOnRerun, and no existing booking changed or adopted by its writes) and nothing
   * the diff reads changed since: no booking dated in the window and no traveller of the airline
   * (windowFingerprint), emit_unchanged still off, and a cancellation cut-off no earlier than the one it was
   * judged with (a later cut-off only leaves more stays alone; priorities belong to items, and there are none). Then the full diff would write no item, no booking, the same state
   * and rostered rows, and the same audit events: those are copied from the roster before, and the schedule
   * completes, all in one transaction. Any premise failing: false, and the full diff runs.
   */
  private async resubmitSettled(
    conn: DbOrTrx,
    schedule: ScheduleRow,
    sha256: string,
    phases: Phases,
  ): Promise<boolean> {
    const airlineId = schedule.airline_id;
    const known = await rosterStateRepo.loadSettledRoster(conn, airlineId);
    if (
      !known ||
      known.body_sha256 !== sha256 ||
      !known.settled_fingerprint ||
      !known.settled_cutoff ||
      known.audit_events === null
    )
      return false;
    const processedAt = (this.deps.now?.() ?? new Date()).toISOString();
    // Settings only: no traveller is read.
    const ctx = await loadBookingContext(conn, this.deps.vault, airlineId, processedAt, []);
    if (
      ctx.emitUnchanged ||
      cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days) < known.settled_cutoff
    )
      return false;
    const window = { start: schedule.schedule_start_date, end: schedule.schedule_end_date };
    phases.lap('settled_premises');
    try {
      await conn.transaction().execute(async (trx) => {
        await bookingRepo.lockAirlineBookings(trx, airlineId);
        if ((await rosterStateRepo.windowFingerprint(trx, airlineId, window)) !== known.settled_fingerprint)
          throw new NotSettled();
        phases.lap('settled_fingerprint');
        if ((await diffWriteRepo.copyAuditEvents(trx, known.schedule_id, schedule.schedule_id)) !== known.audit_events)
          throw new NotSettled();
        await rosterStateRepo.adoptRosterState(trx, airlineId, schedule.schedule_id);
        if (
          !(await scheduleLifecycleRepo.finishProcessing(
            trx,
            schedule.schedule_id,
            statusAfterProcessing(0),
            NO_PENDING_REVIEW,
          ))
        )
          throw new Error('schedule left PROCESSING while being processed');
        phases.lap('settled_write');
      });
    } catch (err) {
      if (err instanceof NotSettled) return false;
      throw err;
    }
    return true;
  }

  private async diffAndWrite(
    conn: DbOrTrx,
    schedule: ScheduleRow,
    roster: { bytes: Buffer | null },
    phases: Phases,
    bodySha256: string,
    processedAt: string,
    compareWith: ComparedWith,
  ): Promise<{
    items: number;
    diffedPairings: number | null;
    skippedPairings: number;
    written: Partial<Record<BulkWrittenTable, number>>;
  }> {
    const airlineId = schedule.airline_id;
    const window = { start: schedule.schedule_start_date, end: schedule.schedule_end_date };
    const basis = await compareWith.basis;
    phases.lap('read_basis');
    // The roster's elements, named by their bytes' hash: what a resubmission compares with the basis before parsing
    // any. The last roster's elements guide the scan: those sent again as they were are not read byte by byte.
    const elements = basis ? rosterElementsOf(roster.bytes!, basis.elements) : null;
    phases.lap('index_roster');
    // In the basis's window, only the elements of the pairings to diff are parsed and flattened; otherwise all of them,
    // while Postgres reads the rest of what the diff compares with.
    const elementwise = elements !== null && basis !== null && !windowMoved(basis, window);
    // An airline's first roster (no basis) finds its elements in the write transaction (DiffSubject.later).
    let subject = elementwise ? null : wholeRosterOf(roster.bytes!, basis ? elements : 'later');
    if (subject) phases.lap('flatten');
    const [read, settings, stored] = await Promise.all([compareWith.read, compareWith.settings, compareWith.state]);
    const basisCutoff = cancellationCutoffOf(processedAt, settings.policy.cancellation_lookback_days);
    // In a window other than the last diff's, which pairings to diff depends on the dates of the previous state's
    // rows: it is decoded whole first then (otherwise while Postgres reads the bookings, in diffStateOf).
    const moved = basis !== null && windowMoved(basis, window);
    const movedFrom = moved && stored ? rosterStateOfStored(stored) : undefined;
    const now = {
      bookings: read.byPairing,
      bookingDates: read.datesByPairing,
      previous: movedFrom,
      window,
      cutoff: basisCutoff,
      emitUnchanged: settings.emitUnchanged,
    };
    // Only the lines of a state stored as lines can be kept unread (a state stored in an older form gets the whole diff once).
    const lines = stored && isStateLines(stored) ? stored : null;
    if (!subject && lines) subject = changedElementsOf(elements!, basis!, now);
    if (!subject) {
      // A pairing_number sent twice, a whole diff asked for, or a state stored in an older form.
      subject = wholeRosterOf(roster.bytes!, elements);
      phases.lap('flatten');
    }
    if (!subject.skipped) subject.changed = changedPairings(basis, { ...now, flat: subject.flat });
    phases.lap('changed_pairings');
    let { changed } = subject;
    // The previous state the diff reads: the lines of the pairings it reads and writes again, or all of it. Decoded a
    // turn later, once loadDiffState has queued its reads: Postgres reads the bookings meanwhile.
    const previousOf = (s: DiffSubject) =>
      nextTurn().then(() =>
        s.rewritten ? rosterStateOfLines(lines!, s.rewritten) : (movedFrom ?? (stored && rosterStateOfStored(stored))),
      );
    // Read-only, shared with the dry-run preview (packages/db diff-state): the two cannot drift.
    let rows = await loadDiffState(
      conn,
      airlineId,
      window,
      (phase) => phases.lap(phase),
      changed ? [...changed] : undefined,
      previousOf(subject),
    );
    let ctx = bookingContextOf(this.deps.vault.openFacts(airlineId, rows.facts), processedAt, flightOptionsUrl);
    if (
      changed &&
      (ctx.emitUnchanged || cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days) < basisCutoff)
    ) {
      // The settings changed since they were read above: the whole diff after all, of the whole roster.
      changed = null;
      if (subject.skipped) subject = wholeRosterOf(roster.bytes!, elements);
      rows = await loadDiffState(conn, airlineId, window, (phase) => phases.lap(phase), undefined, previousOf(subject));
      ctx = bookingContextOf(this.deps.vault.openFacts(airlineId, rows.facts), processedAt, flightOptionsUrl);
    }
    // Everything needed from the roster is in `subject` now.
    roster.bytes = null;
    const { flat, crew, skipped } = subject;
    // The roster and elements the next basis is made of (found in the write transaction for a first roster).
    let { flat: basisFlat, elements: basisElements } = subject;
    // The pairing_numbers whose state lines are written again; every other line is kept as stored. The whole roster
    // diffed against a state of lines (a moved window, a pairing_number sent twice) keeps those it may too.
    const rewritten =
      !lines || !basis || !changed || !subject.elements
        ? undefined
        : (subject.rewritten ?? rewrittenPairings(basis, subject.elements, changed));
    // Each pairing_number's first row in the roster (the stored state's lines number their current rows from it).
    const firstRows = new Map<string, number>(
      skipped ? subject.elements!.map((e) => [e[1], e[2]]) : flat.pairings.map((p) => [p.pairing_number, p.first_row]),
    );
    const state = diffStateOf(rows.previous, rows.hotelRows, rows.flightRows);
    const { statusById, retryCounts } = state;
    phases.lap('map_bookings');

    let jobs: CatalogJob<BookingQueue>[] = [];
    let itemCount = 0;
    // Rows written or deleted per table, for the statistics the next reads are planned with (analyzeAfterBulkWrite).
    const written: Partial<Record<BulkWrittenTable, number>> = {};
    const queued: {
      rostered?: Promise<Partial<Record<BulkWrittenTable, number>>>;
      others?: Promise<unknown>[];
      writer?: SliceWriter;
    } = {};
    try {
      // Should the write fail, what it queued has run before the rollback: one statement at a time on the connection.
      const sentAhead = () => [
        ...(queued.rostered ? [queued.rostered] : []),
        ...(queued.others ?? []),
        ...(queued.writer ? [queued.writer.settled()] : []),
      ];
      await transactionAwaitingQueued(conn, sentAhead, async (trx) => {
        await diffWriteRepo.reserveBulkWriteMemory(trx);
        // The rostered rows (the coverage monitor's, issue 14) depend on the roster alone: queued first, Postgres takes
        // them in while this process derives the diff, which pauses between parts to let the connection send them.
        // Only the changed pairings' rows when the diff looks at those alone: the others' are stored as they are.
        const rostered = (queued.rostered = changed
          ? coverageRepo.replaceRosteredRows(
              trx,
              airlineId,
              window,
              rosteredRowsIn(window, onlyPairings(flat, changed)),
              [...changed],
            )
          : coverageRepo.replaceRosteredRows(trx, airlineId, window, rosteredRowsIn(window, flat)));
        // Awaited once the items are written; until then a failure must not count as unhandled.
        rostered.catch(() => undefined);
        phases.lap('tx_queue_rostered_rows');
        // Queued behind them, and run by Postgres while the diff is derived: the airline's booking lock (its own
        // requests wait for this write, and it for them: neither books what the other holds), the requested bookings
        // the diff's items may adopt, and what the roster alone gives: its travellers and its audit events (the
        // diff's auditEvents are the flattened roster's).
        const locked = bookingRepo.lockAirlineBookings(trx, airlineId);
        const requestedRows = loadRequestedBookings(trx, airlineId, window);
        const audits = flat.auditEvents.map((e) => ({
          airline_id: airlineId,
          schedule_id: schedule.schedule_id,
          event_key: e.event_key,
          classification: e.classification,
          message: e.message,
          anchors: e.anchors,
          source_rows: e.source_rows,
          details: e.details,
        }));
        const firstWrites = Promise.all([
          diffWriteRepo.upsertTravellersFromRoster(trx, airlineId, [...crew.values()]),
          diffWriteRepo.writeDiffResult(trx, {
            actionItems: [],
            newBookings: [],
            bookingChanges: [],
            bookingEvents: [],
            auditEvents: audits,
          }),
        ]);
        queued.others = [locked, requestedRows, firstWrites];
        for (const p of queued.others) p.catch(() => undefined);
        // The diff's items are planned and written a slice at a time as its parts come, once the requested bookings
        // they may adopt are read (queued above, behind the rostered rows): Postgres takes in the first slices while the
        // rest of the diff is derived, instead of waiting for all of it.
        const writer = (queued.writer = new SliceWriter({
          plan: (slice, requested) =>
            derived(
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
              ),
            ),
          write: async (writes) => {
            await diffWriteRepo.writeDiffResult(trx, { ...writes, auditEvents: [] });
            await bookingRepo.adoptBookings(trx, writes.adoptions);
          },
          pendingReviewIds: webhookRepo.PENDING_REVIEW_IDS,
        }));
        let requested: Map<string, RequestedBooking[]> | null = null;
        requestedRows.then(
          (rows) => {
            requested = requestedBookingsByKey(rows);
          },
          () => undefined,
        );
        const parts = diffRosterInParts(
          diffInputOf(flat, state, ctx, window, processedAt, changed ?? undefined),
          DIFF_PART_PAIRINGS,
        );
        let result: DiffResult;
        for (;;) {
          const step = parts.next();
          if (step.done) {
            result = step.value;
            break;
          }
          writer.add(step.value);
          if (requested) await writer.writeReady(requested);
          // The rostered rows and the slices queued so far receive their bytes between the parts.
          await nextTurn();
        }
        itemCount = result.actionItems.length;
        phases.lap('diff');
        // Whether a byte-identical resubmission may skip the diff (engine settlesOnRerun, and the fingerprints below).
        let settles = !ctx.emitUnchanged && settlesOnRerun(result.actionItems, window);
        await locked;
        phases.lap('tx_lock');
        // Encoded a part at a time while the slices are written (the COPYs keep receiving their bytes), then
        // compressed on libuv's pool; awaited where it is stored.
        // A line per pairing_number (engine state-lines): those of the pairings not read are kept as they were.
        const stateGzip = derived(linesOfStateInParts(result.nextStateParts, firstRows, STATE_PART, rewritten))
          .then((next) => stateLinesText(firstRows, next, rewritten && lines!, rewritten))
          .then(gzipText);
        stateGzip.catch(() => undefined);
        phases.lap('tx_encode_state');
        requested ??= requestedBookingsByKey(await requestedRows);
        await firstWrites;
        phases.lap('tx_requested_travellers_audits');
        const pendingReview = await writer.finish(requested);
        if (writer.changesBookings) settles = false;
        const { open, adopted } = writer;
        jobs = writer.jobs;
        written.bookings = writer.newBookings;
        phases.lap('tx_write_items');
        await outboxRepo.addToOutbox(trx, jobs);
        phases.lap('tx_outbox');
        // Settled only if no one else's row version came or went while this transaction wrote (its own are new rows).
        const reading = settles || !changed ? rosterStateRepo.windowFingerprints(trx, airlineId, window) : null;
        if (reading) queued.others.push(reading);
        if (subject.later && !ctx.emitUnchanged) {
          // Sent first: Postgres computes the fingerprints while this process scans the roster for the next basis.
          reading?.catch(() => undefined);
          await nextTurn();
          ({ flat: basisFlat, elements: basisElements } = subject.later());
          phases.lap('tx_find_elements');
        }
        const fingerprints = reading && (await reading);
        // The bookings of the pairings diffed, as this transaction leaves them. Those of the others are recorded as
        // read: had anyone changed one since, the next diff sees a difference and diffs that pairing.
        const diffed =
          fingerprints ?? (await rosterStateRepo.pairingFingerprints(trx, airlineId, window, [...changed!]));
        phases.lap('tx_fingerprints');
        const bookingsNow = new Map(changed ? [...read.byPairing].filter(([pairing]) => !changed.has(pairing)) : []);
        for (const [pairing, fingerprint] of diffed.byPairing)
          if (!changed || changed.has(pairing)) bookingsNow.set(pairing, fingerprint);
        const cutoff = cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days);
        // A pairing_number diffed whose bookings someone else changed since they were read was diffed with what it had.
        const disturbed = [...adopted];
        for (const pairing of changed ?? new Set([...read.byPairing.keys(), ...diffed.othersByPairing.keys()]))
          if (read.byPairing.get(pairing) !== diffed.othersByPairing.get(pairing)) disturbed.push(pairing);
        const basis = ctx.emitUnchanged
          ? null
          : await gzipJson(
              diffBasisOf(basisFlat, result.actionItems, bookingsNow, window, cutoff, disturbed, basisElements ?? []),
            );
        phases.lap('tx_basis');
        await rosterStateRepo.saveRosterState(
          trx,
          airlineId,
          schedule.schedule_id,
          await stateGzip,
          {
            body_sha256: bodySha256,
            settled_fingerprint: settles && fingerprints && fingerprints.others === read.all ? fingerprints.all : null,
            settled_cutoff: cutoff,
            audit_events: audits.length,
          },
          basis,
        );
        phases.lap('tx_save_state');
        Object.assign(written, await rostered, { action_items: itemCount });
        phases.lap('tx_coverage_rows');
        if (
          !(await scheduleLifecycleRepo.finishProcessing(
            trx,
            schedule.schedule_id,
            statusAfterProcessing(open),
            pendingReview,
          ))
        )
          throw new Error('schedule left PROCESSING while being processed');
        phases.lap('tx_finish');
      });
    } catch (err) {
      // A failed statement aborts the transaction, and every statement after it fails with 25P02. The statements
      // queued before the diff run between the others': of their failures and this one, the first that is not 25P02
      // is the cause (a data error in any is permanent, the schedule FAILED at once).
      const queuedBefore: Promise<unknown>[] = [
        ...(queued.rostered ? [queued.rostered] : []),
        ...(queued.others ?? []),
      ];
      const failures = await Promise.all(
        queuedBefore.map((p) =>
          p.then(
            () => null,
            (e: unknown) => e,
          ),
        ),
      );
      throw failures.find((f) => f && !transactionAborted(f)) ?? err;
    }
    phases.lap('tx_commit');
    if (jobs.length) this.deps.relay.kick();
    return {
      items: itemCount,
      diffedPairings: changed ? changed.size : null,
      skippedPairings: skipped?.size ?? 0,
      written,
    };
  }
}

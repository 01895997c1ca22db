import { bookingRepo, coverageRepo, diffWriteRepo, type DbOrTrx } from '@crew/db';
import {
  diffInputOf,
  diffRosterInParts,
  onlyPairings,
  requestedBookingsByKey,
  rosteredRowsIn,
  type DiffResult,
  type FlatRoster,
  type RequestedBooking,
} from '@crew/engine';
import { itemWriter } from './plan.step';
import type { DiffInputs } from './read-diff-state.step';
import { awaitedLater } from './schedule-errors';
import { nextTurn, type DiffRun } from './schedule-run';
import type { QueuedStatements } from './queued-statements';
import type { SliceWriter } from './slice-writer';

/*
 * Step 5 of the schedule processor (write.step), diff: what the roster alone gives (its rostered rows, travellers and
 * audit events) queued on the connection first, then the diff derived in parts, each part's items handed to the plan
 * step's writer while Postgres takes in what was queued before.
 */

/** Pairing_numbers per part of the diff (engine diffRosterInParts): an L roster's diff in parts of 10-20 ms. */
const DIFF_PART_PAIRINGS = 250;

/**
 * The rostered rows (the coverage monitor's) depend on the roster alone: queued first, Postgres takes them in while
 * this process derives the diff, which pauses between parts to let the connection send them. Only the changed
 * pairings' rows when the diff looks at those alone: the others' are stored as they are.
 */
export async function queueRosteredRows(
  trx: DbOrTrx,
  run: DiffRun,
  flat: FlatRoster,
  changed: Set<string> | null,
  queued: QueuedStatements,
): Promise<void> {
  const { airlineId, window } = run;
  await diffWriteRepo.reserveBulkWriteMemory(trx);
  queued.rostered = changed
    ? coverageRepo.replaceRosteredRows(trx, airlineId, window, rosteredRowsIn(window, onlyPairings(flat, changed)), [
        ...changed,
      ])
    : coverageRepo.replaceRosteredRows(trx, airlineId, window, rosteredRowsIn(window, flat));
  // Awaited once the items are written (tx_coverage_rows).
  awaitedLater(queued.rostered);
}

/** The diff derived, its items planned and written a slice at a time (the last slices are left to the writer's finish). */
export interface Diffed {
  result: DiffResult;
  writer: SliceWriter;
  /** The requested bookings the items may adopt, by key, once read (null until then). */
  requested: { byKey: Map<string, RequestedBooking[]> | null };
  /** Audit events written: the flattened roster's. */
  auditEvents: number;
}

export async function diffInParts(
  trx: DbOrTrx,
  run: DiffRun,
  input: DiffInputs,
  queued: QueuedStatements,
): Promise<Diffed> {
  const { schedule, airlineId, window, processedAt } = run;
  const { subject, changed, ctx, state, review } = input;
  const { flat, crew } = subject;
  // Queued behind the rostered rows, and run by Postgres while the diff is derived: the airline's booking lock (its
  // own requests wait for this write, and it for them: neither books what the other holds), the requested bookings
  // the diff's items may adopt, and what the roster alone gives: its travellers and its audit events (the diff's
  // auditEvents are the flattened roster's).
  const locked = bookingRepo.lockAirlineBookings(trx, airlineId);
  const requestedRows = bookingRepo.requestedLiveBookings(trx, airlineId, window.start, window.end);
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
  // Each is awaited after the diff (tx_lock, tx_requested_travellers_audits).
  for (const p of queued.others) awaitedLater(p);
  // The diff's items are planned and written a slice at a time as its parts come, once the requested bookings
  // they may adopt are read (queued above, behind the rostered rows): Postgres takes in the first slices while the
  // rest of the diff is derived, instead of waiting for all of it.
  const writer = (queued.writer = itemWriter(trx, run, ctx, state, review, input.versionOf));
  const requested: Diffed['requested'] = { byKey: null };
  requestedRows.then(
    (rows) => {
      requested.byKey = requestedBookingsByKey(rows);
    },
    // Safe to ignore here: the same read is awaited after the diff, where its failure is thrown.
    () => undefined,
  );
  const parts = diffRosterInParts(
    diffInputOf(flat, state, ctx, window, processedAt, changed ?? undefined),
    DIFF_PART_PAIRINGS,
  );
  for (;;) {
    const step = parts.next();
    if (step.done) return { result: step.value, writer, requested, auditEvents: audits.length };
    writer.add(step.value);
    if (requested.byKey) await writer.writeReady(requested.byKey);
    // The rostered rows and the slices queued so far receive their bytes between the parts.
    await nextTurn();
  }
}

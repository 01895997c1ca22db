import type { ProcessingStatusValue } from '@crew/contracts';

/*
 * A submission's processing status (spec 3.1): the moves it may make, and what the airline is told while it
 * moves. The repositories run each move as a guarded update (from one of `movesInto(to)`), nothing more.
 */

export type ProcessingStatus = ProcessingStatusValue;

/**
 * The transition table. QUEUED → PROCESSING when the worker takes it (PROCESSING again after an
 * interruption); PROCESSING → BOOKING while any item's booking task is open, else COMPLETED; BOOKING →
 * COMPLETED once none is; QUEUED or PROCESSING → FAILED. COMPLETED and FAILED (and PARTIAL) are terminal.
 */
export const SCHEDULE_TRANSITIONS: Readonly<Record<ProcessingStatus, readonly ProcessingStatus[]>> = {
  QUEUED: ['PROCESSING', 'FAILED'],
  PROCESSING: ['PROCESSING', 'BOOKING', 'COMPLETED', 'FAILED'],
  BOOKING: ['COMPLETED'],
  COMPLETED: [],
  FAILED: [],
  PARTIAL: [],
};

export function canMove(from: ProcessingStatus, to: ProcessingStatus): boolean {
  return SCHEDULE_TRANSITIONS[from].includes(to);
}

/** The statuses a move into `to` may start from: the guard of its update. */
export function movesInto(to: ProcessingStatus): ProcessingStatus[] {
  return (Object.keys(SCHEDULE_TRANSITIONS) as ProcessingStatus[]).filter((from) => canMove(from, to));
}

/** Where a processed schedule goes: BOOKING while any item's booking task is open, else COMPLETED. */
export function statusAfterProcessing(openItems: number): 'BOOKING' | 'COMPLETED' {
  return openItems > 0 ? 'BOOKING' : 'COMPLETED';
}

/** The schedules still to process, in order: an interrupted PROCESSING one, then QUEUED ones. */
export const UNPROCESSED: readonly ProcessingStatus[] = movesInto('PROCESSING');

/**
 * Whether a schedule's action items and audit events can exist yet. They are written in the one transaction that
 * moves it out of PROCESSING, so a QUEUED or PROCESSING schedule has none (an interrupted write left nothing).
 */
export function hasDiffResult(status: ProcessingStatus): boolean {
  return !UNPROCESSED.includes(status);
}

/** What processing-status reports of a schedule, from its stored status and its open items. */
export interface ScheduleProgress {
  status: ProcessingStatus;
  /** Items whose booking task is not terminal yet, and the FLIGHT ones among them. */
  open: number;
  open_flight: number;
}

/** Spec 3.1: a COMPLETED schedule whose deadhead tasks still run is reported as BOOKING. */
export function reportedStatus(p: ScheduleProgress): ProcessingStatus {
  return p.status === 'COMPLETED' && p.open_flight > 0 ? 'BOOKING' : p.status;
}

/**
 * Spec 2.2: poll while the schedule progresses by itself (QUEUED, PROCESSING, or BOOKING with a
 * supplier call in flight); stop once it is terminal or waits only on people.
 */
export function pollRecommended(p: ScheduleProgress): boolean {
  const status = reportedStatus(p);
  if (status === 'QUEUED' || status === 'PROCESSING') return true;
  // A stored BOOKING with nothing open is the moment between the last task's settle and the completion check
  // that follows it (or the sweep, after a dead worker): it becomes COMPLETED by itself, so keep polling.
  // Items awaiting people have a disposition (PENDING_REVIEW): they never hold a schedule in BOOKING.
  return status === 'BOOKING';
}

/** processing-status: the reported status, whether to keep polling, and the deadhead tasks still running. */
export function processingReport(p: ScheduleProgress): {
  status: ProcessingStatus;
  poll_recommended: boolean;
  flight_tasks_pending: number;
} {
  return { status: reportedStatus(p), poll_recommended: pollRecommended(p), flight_tasks_pending: p.open_flight };
}

/** The statuses of a schedule whose diff was written: its snapshot is what the service holds now. */
export const APPLIED: readonly ProcessingStatus[] = ['BOOKING', 'COMPLETED', 'PARTIAL'];

/** A submission's snapshot: when it was captured (`as_of`, optional) and the window it covers. */
export interface Snapshot {
  as_of: string | null;
  start: string;
  end: string;
}

/**
 * Why a submission must not be applied, or null: an applied snapshot over an overlapping window was captured
 * after it (spec 2.1 `as_of`). Rule 2 makes every submission the complete current state, so applying an older
 * capture after a newer one would undo the newer one's changes (cancel what it booked, book what it dropped).
 * Either `as_of` missing: no comparison, submissions apply in the order received.
 */
export function staleSnapshot(
  self: Snapshot,
  applied: (Snapshot & { schedule_id: string }) | undefined,
): string | null {
  if (!self.as_of || !applied?.as_of) return null;
  const overlaps = applied.start <= self.end && applied.end >= self.start;
  if (!overlaps || Date.parse(applied.as_of) <= Date.parse(self.as_of)) return null;
  return (
    `not applied: schedule ${applied.schedule_id}, captured later (as_of ${applied.as_of}) over an overlapping ` +
    `window, is already applied, and this snapshot (as_of ${self.as_of}) would undo its changes`
  );
}

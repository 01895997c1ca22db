import type { DbOrTrx, ScheduleRow } from '@crew/db';
import type { DateWindow } from '@crew/engine';
import type { StepTimings } from './step-timings';

/** One schedule being processed: what every step of the processor is given. */
export interface ScheduleRun {
  /** The airline's processor's connection (it holds the airline's lock). */
  conn: DbOrTrx;
  schedule: ScheduleRow;
  airlineId: string;
  window: DateWindow;
  timings: StepTimings;
}

/** A schedule whose roster is diffed: with the processing time its items and bookings are dated with. */
export interface DiffRun extends ScheduleRun {
  processedAt: string;
}

/** The roster's bytes, held in a box so the diff can drop them once it has what it needs of them (a big airline's are tens of MB). */
export interface RosterBytes {
  bytes: Buffer | null;
}

/** A turn of the event loop: the connection sends what is queued on it (the COPYs' next bytes). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a generator that pauses between parts of its work (a slice's plan, the state's encoding) to its result, a turn of the event loop at each pause. */
export async function derived<R>(parts: Generator<void, R, void>): Promise<R> {
  for (;;) {
    const step = parts.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

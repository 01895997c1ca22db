import type { RosterState } from '@crew/engine';

/** One state per schedule diff the worker runs at once (runtime.ts: schedules concurrency 2). */
const KEPT = 2;

/**
 * The roster states this worker stored last, kept decoded with the exact bytes it stored (issue 12). The next
 * roster of the same airline, often processed by the same worker, compares the bytes it reads with these and on
 * a match takes the state as it is instead of decompressing and parsing it again (an L state: 3.4 MB of gzip,
 * 18 MB of JSON, 0.25-0.35 s). Equal bytes, equal state, whoever wrote the row: a match is exact (engine
 * property test: a state a diff leaves reads back from storage equal to itself). The states of the last KEPT
 * airlines are kept, the oldest forgotten first.
 */
export class WrittenState {
  private readonly kept = new Map<string, { gzip: Buffer; state: RosterState }>();

  remember(airlineId: string, gzip: Buffer, state: RosterState): void {
    this.kept.delete(airlineId);
    this.kept.set(airlineId, { gzip, state });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT) break;
      this.kept.delete(oldest);
    }
  }

  /** The state stored as `gzip` for the airline, when it is the one remembered; else null. */
  recall(airlineId: string, gzip: Buffer): RosterState | null {
    const kept = this.kept.get(airlineId);
    return kept !== undefined && kept.gzip.equals(gzip) ? kept.state : null;
  }
}

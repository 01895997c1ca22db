import type { CoverageFigures } from '../roster-coverage/coverage.monitor';
import type { ReviewQueueFigures } from '../review-queue/escalation.monitor';

/**
 * What the processors report as they work. The Prometheus implementation lives in ./metrics.ts; tests and
 * tools may pass NO_METRICS.
 */
export interface WorkerMetrics {
  /** A schedule's diff was written (seconds from PROCESSING to BOOKING/COMPLETED). */
  scheduleProcessed(seconds: number, actionItems: number): void;
  /** A schedule's diff was rolled back and is run again: bookings it changes were changed after it read them. */
  scheduleDiffRerun(): void;
  /** A booking task ended with this booking status. */
  bookingOutcome(type: 'HOTEL' | 'FLIGHT', status: string): void;
  /** An action item reached a terminal disposition, `seconds` after it was created. */
  dispositionReached(priority: string, disposition: string, seconds: number): void;
  /**
   * A webhook delivery attempt ended; on success `lagSeconds` is the event lag (change committed → delivered).
   * `urgent`: a P1 booking's event (the urgent lane).
   */
  webhookAttempt(ok: boolean, urgent: boolean, lagSeconds: number | null): void;
  /** The coverage of the next 24 h per airline, as the CoverageMonitor last computed it at `at` (epoch ms). */
  setCoverage(airlines: readonly CoverageFigures[], at?: number): void;
  /** The review queue's OPEN items overdue and due soon per priority, as the escalation pass last counted them. */
  setReviewQueue(rows: readonly ReviewQueueFigures[], at?: number): void;
}

export const NO_METRICS: WorkerMetrics = {
  scheduleProcessed: () => undefined,
  scheduleDiffRerun: () => undefined,
  bookingOutcome: () => undefined,
  dispositionReached: () => undefined,
  webhookAttempt: () => undefined,
  setCoverage: () => undefined,
  setReviewQueue: () => undefined,
};

/**
 * How long the worker runtime's close() lets the work it has end: four fifths of the process's shutdown deadline,
 * so that a close that has to give up does so (and drops its connections) before the process deadline exits, and
 * the shutdown steps after it (http, queues, Redis, Postgres) keep the rest.
 */
export function closeBoundMs(shutdownDeadlineMs: number): number {
  return Math.max(100, Math.floor(shutdownDeadlineMs * 0.8));
}

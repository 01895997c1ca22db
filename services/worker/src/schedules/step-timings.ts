/**
 * Milliseconds per step of one schedule's processing, logged with "schedule processed" as `phases_ms` (where the
 * time goes; bench/roster.ts reports them by name). A step's figure is the time since the step before it ended,
 * so a wait between two steps counts to the one after it, and a step taken twice adds up.
 */
export class StepTimings {
  private last = performance.now();
  readonly ms: Record<string, number> = {};

  /**
   * Runs a step and, once it is done (its promise fulfilled), ends its lap: the only place a lap is taken. A step
   * that fails takes none (a failed schedule logs no timings). A synchronous step stays synchronous.
   */
  timed<T>(name: string, step: () => Promise<T>): Promise<T>;
  timed<T>(name: string, step: () => T): T;
  timed<T>(name: string, step: () => T | Promise<T>): T | Promise<T> {
    const result = step();
    if (isThenable(result))
      return Promise.resolve(result).then((value: T) => {
        this.lap(name);
        return value;
      });
    this.lap(name);
    return result;
  }

  private lap(name: string): void {
    const now = performance.now();
    this.ms[name] = Math.round((this.ms[name] ?? 0) + now - this.last);
    this.last = now;
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

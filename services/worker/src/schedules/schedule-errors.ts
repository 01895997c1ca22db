import { UnrecoverableError } from 'bullmq';

/** A schedule that cannot be processed at all (its stored roster is unreadable): FAILED, never retried. */
export class UnprocessableSchedule extends Error {}

/**
 * Bookings the diff changes were changed by someone else after the diff read them (a person's PATCH, DELETE or retry,
 * a task settling): its write transaction rolls back and the schedule is diffed again against the bookings as they
 * are now, so that change is never overwritten by a decision taken on what was there before.
 */
export class BookingsChangedMeanwhile extends Error {
  constructor(readonly bookings: number) {
    super(`${bookings} booking(s) changed after the diff read them`);
  }
}

/**
 * Thrown by a stored roster that does not decompress or parse: the schedule cannot be processed. The airline reads
 * the message; zlib's or the parser's own words go to the log (`cause`).
 */
export function unreadable(err: unknown): UnprocessableSchedule {
  return new UnprocessableSchedule('the stored roster cannot be read; submit it again', { cause: err });
}

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

/** The error of a statement sent after an earlier one failed in the same transaction (SQLSTATE 25P02). */
export function transactionAborted(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === '25P02';
}

/**
 * Marks a promise that is awaited later (a read or write queued on the connection ahead of its use) so that its
 * rejection does not count as unhandled in the meantime. Safe: the promise itself is still awaited, and its
 * failure reaches the caller there (or, for those queued in the write transaction, the cause finder of write.step).
 */
export function awaitedLater(promise: Promise<unknown>): void {
  promise.catch(() => undefined);
}

/**
 * What an airline reads as the `error` of a schedule that failed: what it can do, never Postgres', zlib's or the
 * queue's own wording (a constraint's, a column's or a host's name). The worker's log has the error itself.
 */
export function scheduleFailure(err: unknown, attempts: number): string {
  if (err instanceof UnprocessableSchedule) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.startsWith('22'))
    return 'processing failed: the roster holds a value that cannot be stored (a text with a NUL character or an unpaired surrogate, or a number or date out of range); correct it and submit again';
  if (isPermanentScheduleError(err))
    return 'processing failed on an unexpected error, recorded for the operator; submit the roster again or ask the operator';
  return `processing failed after ${attempts} attempts on errors reaching the database or the queue, recorded for the operator; submit the roster again`;
}

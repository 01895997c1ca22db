/*
 * What an airline reads as the `error` of a FAILED invoice: a fixed phrase saying what it can do, never the
 * internal error (zlib's or Postgres' own wording, a constraint's or a column's name). The worker's log has the
 * error itself, with the invoice's id.
 */

/** Reconciliation stopped on an error that is neither an outage nor a stopped worker. */
export const RECONCILIATION_FAILED =
  'reconciliation failed on an unexpected error, recorded for the operator; post the invoice again under a new number or ask the operator';

/** How a failure's message was stored before it was phrased: this prefix, then the error's own message. */
const RAW_FAILURE = 'reconciliation failed: ';

/** A stored error as the airline reads it: one stored with the internal message (before phrasing) reads as the phrase. */
export function visibleInvoiceError(stored: string | null): string | null {
  return stored !== null && stored.startsWith(RAW_FAILURE) ? RECONCILIATION_FAILED : stored;
}

/** Fixtures of the cancellation tests (cancellation-terms, cancellation-plan): time units and the usual terms. */
import type { CancellationTerms } from '../src';

export const HOUR = 3_600_000;
export const MIN = 60_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** "By 18:00 hotel time on the day of arrival", one night's fee when late; `over` adds or replaces a term. */
export const terms18 = (over: Partial<CancellationTerms> = {}): CancellationTerms => ({
  cancellation_deadline: { days_before: 0, local_time: '18:00' },
  late_cancellation_fee: { type: 'NIGHTS', nights: 1 },
  ...over,
});

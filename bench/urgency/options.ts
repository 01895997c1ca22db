/** The urgency benchmark's options (environment; listed in bench/urgency.ts) and fixed inputs. */
export const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 250);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
export const PAIRINGS = Number(process.env.BENCH_PAIRINGS || 3600);
export const DRAIN_WINDOW_MS = Number(process.env.BENCH_DRAIN_WINDOW_S || 20) * 1000;
export const WRITE_DOCS = process.env.BENCH_DOCS !== '0';
export const SUPPLIER = process.env.BENCH_SUPPLIER || 'sandbox';
if (!['sandbox', 'duffel', 'compare'].includes(SUPPLIER))
  throw new Error(`BENCH_SUPPLIER must be sandbox, duffel or compare, got "${SUPPLIER}"`);
export const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
/** What airline A's roster queues and the urgent work is made of: hotel layovers (default) or deadhead flights. */
export const WORK = process.env.BENCH_WORK || 'hotels';
if (!['hotels', 'deadheads'].includes(WORK)) throw new Error(`BENCH_WORK must be hotels or deadheads, got "${WORK}"`);
export const DEADHEADS = WORK === 'deadheads';
/** The Duffel contracts' rate periods cover the bench's stays (the rosters start 2027-03-01, 30 days). */
export const STAY_FROM = '2027-02-15';
export const STAY_TO = '2027-05-15';
/** Guard of each scenario (compare runs several): the benchmark stops by itself. */
export const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S || 900) * 1000;
export const START_DATE = '2027-03-01';

/** Milliseconds as seconds with one decimal. */
export const s1 = (msv: number): string => (Number.isFinite(msv) ? `${(msv / 1000).toFixed(1)} s` : 'n/a');

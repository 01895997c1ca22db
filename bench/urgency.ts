/**
 * `npm run bench:urgency`: urgent work first, whatever else is queued.
 *
 * Starts auth, supplier-sandbox (latency BENCH_LATENCY_MS, default 250 ms), api and one worker as real
 * processes against a fresh database and a unique BullMQ prefix, then:
 *   0. baseline: airline C submits a 10-layover roster with nothing queued → seconds to COMPLETED;
 *   1. airline A submits a roster of ≥ 20,000 contracted hotel layovers; waits until they are queued;
 *   2. (a) airline B injects a P1 IROP hotel, (b) airline A injects a P1 IROP hotel for one of its own crew,
 *      (c) airline B submits the same-shaped 10-layover roster: seconds from each POST to CONFIRMED (a, b) and
 *      to COMPLETED (c), and the backlog at that moment;
 *   3. the drain rate with one worker process, then with a second one started, against concurrency / latency.
 * Then it stops every process, drops the database and deletes its Redis keys (also on failure or Ctrl-C).
 * It does not wait for the backlog to drain. BENCH_DOCS=0 leaves docs/benchmarks.md alone.
 *
 * BENCH_SUPPLIER=sandbox (default) books the hotels at the sandbox's GDS dialect; =duffel through its Duffel
 * dialect (every airline's order `hotels: ["DUFFEL"]`, contracts at the Stays accommodation of each station,
 * profiles with title, gender and phone); =compare runs the whole scenario for both, BENCH_RUNS times each
 * (default 1, alternating, each on a fresh stack), counts the supplier calls per booking from the sandbox's
 * counters, measures a floor of that many round trips at the same latency after each scenario, and writes the
 * comparison into docs/benchmarks.md (block "urgency-duffel"; the sandbox-only block is left alone).
 *
 * BENCH_WORK=deadheads runs the same scenario with deadhead FLIGHT bookings instead of hotels: the rosters have
 * a fifth of their legs as deadheads (about 15,000 crew deadheads, each one booking task, for A at the default
 * 3,600 pairings) and no layovers; every airline has deadhead auto-booking on, and the profiles a date of birth;
 * the injections are P1 IROP deadheads (search and book, any flight of the day). A flies as UX there (UA is a
 * carrier the sandbox sells: bench/urgency/work.ts). =duffel orders every airline's flights from Duffel Air
 * (`flights: ["DUFFEL"], hotels: ["SANDBOX"]`); =compare writes block "urgency-duffel-flights" after the hotels'
 * comparison and leaves the hotels' blocks alone; a single path writes no docs.
 *
 * Options (environment):
 *   BENCH_LATENCY_MS       the sandbox's latency on every supplier call (default 250)
 *   BENCH_CONCURRENCY      the worker's BOOKING_CONCURRENCY (default 16)
 *   BENCH_PAIRINGS         pairings of airline A's roster (default 3600)
 *   BENCH_DRAIN_WINDOW_S   length of each drain-rate window (default 20)
 *   BENCH_SUPPLIER         sandbox (default), duffel or compare
 *   BENCH_WORK             hotels (default: hotel layovers) or deadheads (deadhead flights)
 *   BENCH_RUNS             runs of each path with compare (default 1)
 *   BENCH_DEADLINE_S       a scenario gives up after this long (default 900)
 *   BENCH_DOCS=0           do not write docs/benchmarks.md
 */
import { benchCleanups, scoped } from './lib/cleanup';
import { step } from './lib/console';
import type { SupplierPath } from './lib/duffel-path';
import { RUNS, SUPPLIER } from './urgency/options';
import { compareReport, type ScenarioResult } from './urgency/report';
import { scenario } from './urgency/scenario';

const { cleanups, cleanup } = benchCleanups();

async function main(): Promise<void> {
  if (SUPPLIER !== 'compare') {
    await scoped(cleanups, (c) => scenario(SUPPLIER as SupplierPath, c));
    return;
  }
  const results: ScenarioResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    for (const path of ['sandbox', 'duffel'] as const) {
      step(`compare: run ${run} of ${RUNS}, ${path} path`);
      results.push(await scoped(cleanups, (c) => scenario(path, c)));
    }
  }
  compareReport(results);
}

main()
  .catch((err) => {
    console.error('[bench] failed:', err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());

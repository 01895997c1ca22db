import { killAllNow } from './processes';
import type { Cleanup } from './storage';

/**
 * A benchmark's cleanups, run in reverse order of registration, once, also on SIGINT/SIGTERM (exit 130);
 * on exit no child process outlives the benchmark.
 */
export function benchCleanups(): { cleanups: Cleanup[]; cleanup: () => Promise<void> } {
  const cleanups: Cleanup[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      for (const c of cleanups.reverse()) {
        try {
          await c.run();
        } catch (err) {
          console.error(`[bench] cleanup ${c.name} failed:`, err instanceof Error ? err.message : err);
        }
      }
    })());
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      console.error(`[bench] ${sig}: stopping every process and dropping the database`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  process.on('exit', killAllNow);
  return { cleanups, cleanup };
}

/**
 * Runs `run` with cleanups of its own (e.g. one scenario's stack among several), registered as one entry of
 * `outer` while it runs, so an interruption runs them too; they have all run when it returns.
 */
export async function scoped<T>(outer: Cleanup[], run: (cleanups: Cleanup[]) => Promise<T>): Promise<T> {
  const mine: Cleanup[] = [];
  const drainMine = async () => {
    for (let c = mine.pop(); c; c = mine.pop()) {
      try {
        await c.run();
      } catch (err) {
        console.error(`[bench] cleanup ${c.name} failed:`, err instanceof Error ? err.message : err);
      }
    }
  };
  const entry: Cleanup = { name: 'scenario', run: drainMine };
  outer.push(entry);
  try {
    return await run(mine);
  } finally {
    await drainMine();
    outer.splice(outer.indexOf(entry), 1);
  }
}

/**
 * SIGTERM's first step closes the worker runtime: it stops taking work at once, then lets what it has end within a
 * bound shorter than the process's shutdown deadline (so the bound's fallback, dropping the connections, runs).
 */
import { randomUUID } from 'node:crypto';
import { sql } from '@crew/db';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { type Stack, startStack, waitFor } from '@crew/test-support';
import { NO_METRICS, startWorkerRuntime, type WorkerRuntime } from '@crew/worker';

jest.setTimeout(60_000);

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('worker_shutdown', { env: { SHUTDOWN_DEADLINE_MS: '4000' } });
});
afterAll(() => stack.close());

function runtime(): WorkerRuntime {
  return startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
    airlineChangeSweepMs: 50,
    webhookPurgeMs: 0,
  });
}

describe('closing the worker runtime', () => {
  it('stops taking booking tasks at once while a long airline-change check ends, and ends within its bound', async () => {
    const rt = runtime();
    let sweeping = false;
    // A check at Duffel that takes far longer than the shutdown deadline (slow answers, many orders).
    rt.airlineChanges.sweep = () => {
      sweeping = true;
      return new Promise((resolve) =>
        setTimeout(() => resolve({ airlines: 0, orders: 0, changes: 0 }), 30_000).unref(),
      );
    };
    const taken: string[] = [];
    for (const w of rt.workers) w.on('active', (job) => taken.push(String(job.id)));
    while (!sweeping) await new Promise((r) => setTimeout(r, 20));

    const started = Date.now();
    let ended = false;
    const closed = rt.close().then(() => (ended = true));
    // The workers stop fetching while the check still runs (close() is still waiting for it). A task queued while
    // BullMQ disconnects its blocking fetch may still be taken (its fetch loop asks once more after the disconnect,
    // which under load can take some hundreds of milliseconds) and is then finished; one queued after the workers
    // stopped never is.
    while (rt.workers.some((w) => w.isRunning())) await new Promise((r) => setTimeout(r, 20));
    expect(ended).toBe(false);
    // Well before close()'s bound (four fifths of the deadline), which a close waiting for the check first would reach.
    expect(Date.now() - started).toBeLessThan(stack.config.shutdownDeadlineMs * 0.8 - 500);
    const job = await stack.queues.bookings.add(
      'execute-booking',
      { airline_id: randomUUID(), booking_id: randomUUID(), attempt: 1 },
      { jobId: `shutdown-${randomUUID()}` },
    );
    await closed;
    const took = Date.now() - started;

    expect(taken).toEqual([]);
    expect(await job.getState()).toBe('waiting');
    // Within the runtime's own bound, below the process deadline (4 s here), with room for the steps after it.
    expect(took).toBeLessThan(stack.config.shutdownDeadlineMs - 500);
    await job.remove();
  });
});

describe('the periodic coverage and review passes', () => {
  /** Holds `tables` locked (ACCESS EXCLUSIVE) from another connection until the returned release is called. */
  async function locked(tables: string): Promise<() => Promise<void>> {
    let release!: () => void;
    let taken!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const lockTaken = new Promise<void>((r) => (taken = r));
    const done = stack.database.db.transaction().execute(async (trx) => {
      await sql`lock table ${sql.raw(tables)} in access exclusive mode`.execute(trx);
      taken();
      await held;
    });
    await lockTaken;
    return async () => {
      release();
      await done;
    };
  }
  const waitingOnLocks = async () =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(stack.database.db)
      ).rows[0]!.n,
    );

  it('close() resolves only once the passes in flight have ended; no pass starts after it', async () => {
    // Each pass's first statement waits on these locks: both passes are in flight, held there.
    const unlock = await locked('rostered_layovers, action_items');
    const passes: { coverage: number[]; review: number[] } = { coverage: [], review: [] };
    const rt = startWorkerRuntime({
      // A close bound (16 s) well beyond the test's hold: close() waits for the passes, it does not give up on them.
      config: { ...stack.config, shutdownDeadlineMs: 20_000 },
      db: stack.database.db,
      logger: createLogger('worker', 'silent'),
      suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
      airlineChangeSweepMs: 0,
      webhookPurgeMs: 0,
      metrics: {
        ...NO_METRICS,
        setCoverage: () => void passes.coverage.push(Date.now()),
        setReviewQueue: () => void passes.review.push(Date.now()),
      },
      coverageMonitor: { intervalMs: 50 },
      reviewEscalation: { intervalMs: 50 },
    });
    let closedAt: number | null = null;
    try {
      await waitFor(async () => (await waitingOnLocks()) === 2, 10_000, 'both passes to wait on the locks');
      const closed = rt.close().then(() => (closedAt = Date.now()));
      // All else close() waits for has ended (the queue consumers and the webhook drain thread take the longest,
      // the steps after them milliseconds): the passes are still held, and so is close().
      await Promise.all([...rt.workers.map((w) => w.close()), rt.webhooks.close()]);
      await new Promise((r) => setTimeout(r, 500));
      expect(closedAt).toBeNull();
      expect(passes).toEqual({ coverage: [], review: [] });

      const releasedAt = Date.now();
      await unlock();
      await closed;
      // Each pass in flight ended (and reported) before close() resolved.
      expect(passes.coverage).toHaveLength(1);
      expect(passes.review).toHaveLength(1);
      for (const at of [...passes.coverage, ...passes.review]) {
        expect(at).toBeGreaterThanOrEqual(releasedAt);
        expect(at).toBeLessThanOrEqual(closedAt!);
      }
    } finally {
      await unlock().catch(() => undefined);
      await rt.close();
    }

    // No pass starts after close(): neither on the timers (many periods) nor when asked for one.
    await rt.coverage!.sample();
    await rt.review!.pass();
    await new Promise((r) => setTimeout(r, 500));
    expect(passes.coverage).toHaveLength(1);
    expect(passes.review).toHaveLength(1);
  });
});

/**
 * SIGTERM's first step closes the worker runtime: it stops taking work at once, then lets what it has end within a
 * bound shorter than the process's shutdown deadline (so the bound's fallback, dropping the connections, runs).
 */
import { randomUUID } from 'node:crypto';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { type Stack, startStack } from '@crew/test-support';
import { startWorkerRuntime, type WorkerRuntime } from '@crew/worker';

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
    const closed = rt.close();
    // A task queued in the same instant as close() may still be taken (BullMQ's blocking fetch can be answered
    // before close() disconnects it) and is then finished; one queued a moment later never is.
    await new Promise((r) => setTimeout(r, 300));
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

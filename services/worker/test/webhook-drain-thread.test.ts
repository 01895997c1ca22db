import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime, type WorkerRuntime } from '@crew/worker';
import { http, scheduleCompletedWithSubscriber, type Stack, startStack, waitFor } from '@crew/test-support';

/*
 * Webhook deliveries run on the worker's drain thread. A thread that dies mid-delivery fails the drains it had in
 * flight; the poll queues the endpoint again, the next drain starts a new thread, and once the dead drain's lease
 * on the endpoint runs out the delivery is sent again with the same webhook-id (at least once, nothing lost).
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('webhook_drain_thread');
});
afterAll(() => stack.close());

/** The drain thread now running, if any (private to DrainThread: this test stands in for whatever kills it). */
const drainThreadOf = (runtime: WorkerRuntime) =>
  (runtime.webhooks as unknown as { drains: { worker: Worker | null } }).drains.worker;

it('a drain thread that dies mid-delivery is started again, and the delivery is sent again with the same webhook-id', async () => {
  const received: { id: string; type: string }[] = [];
  const held: ServerResponse[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), type: (JSON.parse(body) as { type: string }).type });
      // The first request is never answered: the thread dies while it waits.
      if (received.length === 1) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // Lease = webhookTimeoutMs + 5 s: the redelivery waits for the dead drain's lease to run out.
  const w = startWorkerRuntime({
    config: { ...stack.config, webhookPollMs: 200, webhookTimeoutMs: 1_500 },
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    await w.webhooks.ready();
    const first = drainThreadOf(w);
    expect(first).not.toBeNull();
    const firstId = first!.threadId;
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const { tenant: t, endpointId } = await scheduleCompletedWithSubscriber(
      stack,
      { name: 'Thread Air', carrier: 'TH' },
      url,
    );
    await waitFor(async () => received.length === 1, 10_000, 'the first delivery attempt reaches the receiver');
    await first!.terminate();

    await waitFor(async () => received.length >= 2, 20_000, 'the delivery sent again after the thread died');
    expect(received[1]).toEqual(received[0]);
    expect(received[0]!.type).toBe('schedule.processing_completed');
    const second = drainThreadOf(w);
    expect(second).not.toBeNull();
    expect(second!.threadId).not.toBe(firstId);
    // Recorded as delivered: nothing is sent a third time.
    await waitFor(
      async () =>
        (await http(`${stack.apiUrl}/api/v1/crew/webhooks/${endpointId}/deliveries`, { token: t.accessToken })).body
          .deliveries?.[0]?.status === 'SUCCEEDED',
      10_000,
      'the delivery recorded as delivered',
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(received).toHaveLength(2);
  } finally {
    await w.close();
    for (const r of held) r.destroy();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}, 60_000);

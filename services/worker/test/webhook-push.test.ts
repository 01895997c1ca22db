import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import { scheduleCompletedWithSubscriber, type Stack, startStack, waitFor } from '@crew/test-support';

/*
 * A schedule's webhook events are pushed when its transaction commits. The worker here looks for due
 * deliveries once a minute: only the kick after the commit can deliver them within the test.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('webhook_push');
});
afterAll(() => stack.close());

it('a processed schedule’s events leave when its transaction commits, not at the next poll', async () => {
  const received: string[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push((JSON.parse(body) as { type: string }).type);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const w = startWorkerRuntime({
    config: { ...stack.config, webhookPollMs: 60_000 },
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await scheduleCompletedWithSubscriber(stack, { name: 'Push Air', carrier: 'PU' }, url);
    await waitFor(
      async () => received.includes('schedule.processing_completed'),
      10_000,
      'schedule.processing_completed delivered',
    );
  } finally {
    await w.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

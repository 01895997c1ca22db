import { Writable } from 'node:stream';
import { outboxRepo } from '@crew/db';
import { createLogger } from '@crew/platform';
import { OutboxRelay } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime, type WorkerRuntime } from '@crew/worker';
import {
  allActionItems,
  http,
  onboard,
  onePairingRoster,
  redisTarget,
  type Stack,
  startStack,
  startTcpRelay,
  type TcpRelay,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let relay: TcpRelay;
let stack: Stack;
let worker: WorkerRuntime;

beforeAll(async () => {
  // Every process reaches Redis only through a relay this test can cut (either one's outbox relay could enqueue).
  relay = await startTcpRelay(redisTarget(REDIS));
  stack = await startStack('outbox', { env: { REDIS_URL: `redis://127.0.0.1:${relay.port}` } });
  worker = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
});
afterAll(async () => {
  await worker.close();
  await stack.close();
  await relay.close();
});

/**
 * Resolves once a relay has taken the outbox's rows while Redis is down and failed to enqueue them (they stay):
 * a relay of the test's own, which logs its first failure. It sees no row (and does not fail) while the
 * stack's or the worker's relay holds them, so it tries until it has had them.
 */
async function relayAttemptFailed(): Promise<void> {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk, _enc, cb) => (lines.push(String(chunk)), cb()) });
  const probe = new OutboxRelay(stack.database.db, stack.queues, createLogger('outbox-probe', 'warn', sink));
  await waitFor(
    async () => {
      await probe.drain();
      return lines.some((l) => l.includes('outbox relay failed'));
    },
    10_000,
    'a relay attempt to fail while Redis is down',
  );
  await probe.close();
}

it('a roster accepted while Redis is down is stored, answered 202, and processed once Redis is back', async () => {
  const t = await onboard(stack, {
    scopes: 'schedules:read schedules:write events:read',
    settings: { schedules_access: true },
  });
  await relay.cut();
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    method: 'POST',
    token: t.accessToken,
    body: onePairingRoster(),
  });
  expect(res.status).toBe(202);
  expect((await http(`${stack.apiUrl}/readyz`)).status).toBe(503);
  await relayAttemptFailed();
  const waiting = await http(`${stack.apiUrl}/api/v1/crew/schedules/${res.body.schedule_id}/processing-status`, {
    token: t.accessToken,
  });
  expect(waiting.body).toMatchObject({ status: 'QUEUED', poll_recommended: true });
  expect(await outboxRepo.outboxSize(stack.database.db)).toBe(1);

  await relay.restore();
  const done = await waitForSchedule(stack, t.accessToken, res.body.schedule_id, 30_000);
  expect(done.status).toBe('COMPLETED');
  expect(await outboxRepo.outboxSize(stack.database.db)).toBe(0);
  const items = await allActionItems(stack, t.accessToken, res.body.schedule_id);
  expect(items.map((i) => i.classification).sort()).toEqual(['NEW_DEADHEAD', 'NEW_LAYOVER']);
});

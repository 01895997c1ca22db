import { Client } from 'pg';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import { http, onboard, onePairingRoster, type Stack, startStack, waitFor, waitForSchedule } from '@crew/test-support';

// Reading a schedule's stored roster can fail for reasons that say nothing about the roster: here an operator
// cancels the worker's query (pg_cancel_backend) while it waits on a lock. That is infrastructure trouble, retried;
// the schedule must not end FAILED with Postgres' own words as its error.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('schedule_read_cancelled');
});
afterAll(() => stack.close());

it('a cancelled read of the stored roster is retried, not FAILED', async () => {
  const t = await onboard(stack, {
    name: 'Cancel Air',
    carrier: 'CQ',
    scopes: 'schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
    method: 'POST',
    token: t.accessToken,
    body: onePairingRoster(),
  });
  expect(res.status).toBe(202);
  const scheduleId = res.body.schedule_id as string;

  const holder = new Client({ connectionString: stack.database.url });
  await holder.connect();
  await holder.query('begin');
  await holder.query('lock table schedule_payloads in access exclusive mode');
  const w = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    // The worker's read of the payload waits on the lock; cancel it as an operator would.
    // (Matched by its lock: a statement waiting in its parse step does not show its text in pg_stat_activity yet.)
    const pid = await waitFor(async () => {
      const r = await holder.query<{ pid: number }>(
        `select pid from pg_locks where relation = 'schedule_payloads'::regclass and not granted`,
      );
      return r.rows[0]?.pid;
    }, 10_000);
    await holder.query('select pg_cancel_backend($1)', [pid]);
    await holder.query('rollback');
    const done = await waitForSchedule(stack, t.accessToken, scheduleId, 30_000);
    expect(done).toMatchObject({ status: 'COMPLETED', error: null });
  } finally {
    await holder.end().catch(() => undefined);
    await w.close();
  }
});

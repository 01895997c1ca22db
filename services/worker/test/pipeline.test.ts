import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import {
  allActionItems,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';
beforeAll(async () => {
  // The worker is started by each test, after its submissions are in.
  stack = await startStack('pipeline');
});
afterAll(() => stack.close());

const submit = async (t: Tenant, body: unknown) => {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
};
const worker = () =>
  startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });

it('processes one airline’s submissions strictly in the order received, each against the one before', async () => {
  const t = await onboard(stack, {
    name: 'Order Air',
    carrier: 'OR',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  // Queued back to back before any worker runs: the order must come from the receipt, not from chance.
  const ids = [
    await submit(t, onePairingRoster()),
    await submit(t, onePairingRoster({ legSequence: 2 })),
    await submit(t, onePairingRoster()),
  ];
  const w = worker();
  try {
    for (const id of ids) await waitForSchedule(stack, t.accessToken, id);
  } finally {
    await w.close();
  }
  const classes = await Promise.all(
    ids.map(async (id) => (await allActionItems(stack, t.accessToken, id)).map((i) => i.classification).sort()),
  );
  expect(classes).toEqual([
    ['NEW_DEADHEAD', 'NEW_LAYOVER'],
    ['DEADHEAD_CANCELLED', 'NEW_DEADHEAD'],
    // Leg 1 is back, but its booking still exists (its cancellation awaits review): no second booking for it.
    ['DEADHEAD_CANCELLED'],
  ]);
  const rows = await stack.database.db
    .selectFrom('schedules')
    .select(['schedule_id', 'started_at', 'completed_at'])
    .where('schedule_id', 'in', ids)
    .orderBy('seq')
    .execute();
  for (let i = 1; i < rows.length; i++)
    expect(rows[i]!.started_at!.getTime()).toBeGreaterThanOrEqual(rows[i - 1]!.completed_at!.getTime());
});

it('a submission that cannot be processed at all is FAILED with an error, and the airline’s next one still runs', async () => {
  const t = await onboard(stack, {
    name: 'Broken Air',
    carrier: 'BR',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const broken = await submit(t, onePairingRoster());
  const next = await submit(t, onePairingRoster());
  await stack.database.db
    .updateTable('schedule_payloads')
    .set({ body_gzip: Buffer.from('not gzip') })
    .where('schedule_id', '=', broken)
    .execute();
  const w = worker();
  try {
    const failed = await waitForSchedule(stack, t.accessToken, broken);
    expect(failed).toMatchObject({
      status: 'FAILED',
      poll_recommended: false,
      error: expect.stringContaining('cannot be read'),
      completed_at: expect.any(String),
    });
    expect((await waitForSchedule(stack, t.accessToken, next)).status).toBe('COMPLETED');
  } finally {
    await w.close();
  }
  expect((await allActionItems(stack, t.accessToken, next)).map((i) => i.classification).sort()).toEqual([
    'NEW_DEADHEAD',
    'NEW_LAYOVER',
  ]);
});

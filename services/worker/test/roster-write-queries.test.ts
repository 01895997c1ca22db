import { gzipSync } from 'node:zlib';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import {
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  waitForSchedule,
  watchQueryOverlaps,
} from '@crew/test-support';

/*
 * The roster write sends its statements ahead on its transaction's connection. When Postgres refuses one of
 * them, the rollback must still be the only query on that pg client (pg 8 warns "Calling client.query() when
 * the client is already executing a query"; its next major refuses it).
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('roster_write_queries');
});
afterAll(() => stack.close());

it('a roster write Postgres refuses rolls back with one query at a time on its connection', async () => {
  const t = await onboard(stack, {
    name: 'Queue Air',
    carrier: 'QQ',
    scopes: 'schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const submit = async () => {
    const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      token: t.accessToken,
      body: onePairingRoster(),
    });
    expect(res.status).toBe(202);
    return res.body.schedule_id as string;
  };
  const [nul, surrogate, next] = [await submit(), await submit(), await submit()];
  // Stored as intake once accepted them: a NUL in a crew name, a lone surrogate in a pairing number.
  const store = async (id: string, edit: (r: ReturnType<typeof onePairingRoster>) => void) => {
    const roster = onePairingRoster();
    edit(roster);
    await stack.database.db
      .updateTable('schedule_payloads')
      .set({ body_gzip: gzipSync(JSON.stringify(roster)) })
      .where('schedule_id', '=', id)
      .execute();
  };
  await store(nul, (r) => (r.pairings[0]!.crew[0]!.name = 'Ada\u0000Lovelace'));
  await store(surrogate, (r) => (r.pairings[0]!.pairing_number = 'P\ud800'));

  const watch = watchQueryOverlaps();
  const w = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    for (const id of [nul, surrogate])
      expect((await waitForSchedule(stack, t.accessToken, id, 30_000)).status).toBe('FAILED');
    expect((await waitForSchedule(stack, t.accessToken, next, 30_000)).status).toBe('COMPLETED');
  } finally {
    await w.close();
  }
  expect(watch.stop().map((o) => ({ text: o.text, at: o.stack.split('\n').slice(2, 8).join('\n') }))).toEqual([]);
});

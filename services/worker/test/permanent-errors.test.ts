import { gzipSync } from 'node:zlib';
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
  waitForSchedule,
} from '@crew/test-support';
import { isPermanentScheduleError } from '../src/schedules/schedule.processor';

// A roster whose data Postgres refuses is FAILED at once, not retried for
// minutes in PROCESSING while the airline's next roster waits.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('permanent_errors');
});
afterAll(() => stack.close());

it('rosters Postgres cannot store (stored before intake refused them) are FAILED at once; the airline’s next roster runs', async () => {
  const t = await onboard(stack, {
    name: 'Nul Air',
    carrier: 'NU',
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
  // What intake accepted before the storable-string rule: a NUL in a crew name, a lone surrogate in a pairing number.
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

  const started = Date.now();
  const w = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    // Retried as infrastructure trouble, the first would sit in PROCESSING for minutes (8 attempts, backoff from 2 s).
    for (const id of [nul, surrogate]) {
      const failed = await waitForSchedule(stack, t.accessToken, id, 15_000);
      expect(failed).toMatchObject({
        status: 'FAILED',
        poll_recommended: false,
        // What the airline can do, not Postgres' words ("invalid byte sequence for encoding…").
        error: expect.stringMatching(/^processing failed: the roster holds a value that cannot be stored/),
        completed_at: expect.any(String),
      });
    }
    expect((await waitForSchedule(stack, t.accessToken, next, 15_000)).status).toBe('COMPLETED');
  } finally {
    await w.close();
  }
  // All three done well before the first retry backoff (2 s) would even have elapsed twice.
  expect(Date.now() - started).toBeLessThan(15_000);
  expect((await allActionItems(stack, t.accessToken, next)).map((i) => i.classification).sort()).toEqual([
    'NEW_DEADHEAD',
    'NEW_LAYOVER',
  ]);
});

it('classifies data and integrity errors as permanent, connection trouble as retryable', () => {
  const pg = (code: string) => Object.assign(new Error(code), { code });
  for (const code of ['22P05', '22021', '22003', '22007', '23505', '23503', '23514'])
    expect([code, isPermanentScheduleError(pg(code))]).toEqual([code, true]);
  expect(isPermanentScheduleError(new SyntaxError('Unexpected token'))).toBe(true);
  for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '08006', '53300', '40001', '40P01', '57014'])
    expect([code, isPermanentScheduleError(pg(code))]).toEqual([code, false]);
  expect(isPermanentScheduleError(new Error('Connection terminated unexpectedly'))).toBe(false);
});

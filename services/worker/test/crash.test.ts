import { sql } from '@crew/db';
import { generateRoster, ROSTER_SIZES } from '@crew/roster-generator';
import {
  contractStations,
  exited,
  expectUndisturbedRun,
  hasStarted,
  http,
  onboard,
  spawnWorker,
  type Stack,
  startStack,
  type Tenant,
  undisturbedRun,
  waitFor,
} from '@crew/test-support';

jest.setTimeout(240_000);

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';

beforeAll(async () => {
  // No in-process worker: the workers here are real processes, killed with SIGKILL.
  stack = await startStack('crash', { sandboxLatencyMs: 15 });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const scheduleStatus = async (id: string) =>
  (
    await stack.database.db
      .selectFrom('schedules')
      .select('status')
      .where('schedule_id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

it('a worker killed (SIGKILL) while processing an M roster: a new worker completes it with the same action items and no duplicates', async () => {
  const t = await onboard(stack, {
    name: 'Crash Air',
    carrier: 'CZ',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const roster = generateRoster({ ...ROSTER_SIZES.M, seed: 11, startDate: '2027-03-01' });
  const expected = undisturbedRun(roster);

  const first = spawnWorker(stack);
  const res = await api(t, '/crew/schedules', { method: 'POST', body: roster });
  expect(res.status).toBe(202);
  const id = res.body.schedule_id as string;
  await waitFor(async () => (await scheduleStatus(id)) === 'PROCESSING', 60_000, 'PROCESSING');
  first.kill('SIGKILL');
  expect((await exited(first)).signal).toBe('SIGKILL');
  // Killed mid-diff: nothing of the diff was committed.
  expect(await scheduleStatus(id)).toBe('PROCESSING');
  expect(
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from action_items where schedule_id = ${id}`.execute(
          stack.database.db,
        )
      ).rows[0]!.n,
    ),
  ).toBe(0);

  const second = spawnWorker(stack);
  try {
    await waitFor(
      async () => ['BOOKING', 'COMPLETED'].includes(await scheduleStatus(id)),
      120_000,
      'the schedule to be processed',
    );
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
  await expectUndisturbedRun(stack.database.db, id, expected);
});

it('a worker killed while booking tasks are in flight: every booking ends terminal, one live reservation per booked item', async () => {
  const t = await onboard(stack, {
    name: 'Book Crash Air',
    carrier: 'BZ',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  await api(t, '/crew/config/company', { method: 'PUT', body: { crew_booker_email: 'booker@bz.test' } });
  await contractStations(stack, t, ['JFK', 'LHR', 'FRA', 'DXB'], {
    terms: { policy: 'FLEXIBLE', flex_window_minutes: 1440 },
    rate: { amount: 150, currency: 'USD' },
  });
  const roster = generateRoster({ ...ROSTER_SIZES.S, seed: 12, startDate: '2027-03-01', carrier: 'BZ' });

  const first = spawnWorker(stack);
  const res = await api(t, '/crew/schedules', { method: 'POST', body: roster });
  const id = res.body.schedule_id as string;
  const countBy = async (status: 'PENDING' | 'CONFIRMED') =>
    (
      await stack.database.db
        .selectFrom('bookings')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('schedule_id', '=', id)
        .where('status', '=', status)
        .executeTakeFirstOrThrow()
    ).n;
  // Kill it once some rooms are booked and more are still in flight.
  await waitFor(
    async () => (await countBy('CONFIRMED')) >= 30 && (await countBy('PENDING')) > 0,
    120_000,
    'booking tasks in flight',
  );
  first.kill('SIGKILL');
  await exited(first);
  expect(await countBy('PENDING')).toBeGreaterThan(0);

  const second = spawnWorker(stack);
  try {
    await waitFor(
      async () => (await countBy('PENDING')) === 0 && (await scheduleStatus(id)) === 'COMPLETED',
      180_000,
      'every booking to settle',
    );
  } finally {
    second.kill('SIGTERM');
    await exited(second);
  }
  const booked = await stack.database.db
    .selectFrom('bookings')
    .select(['booking_id', 'status'])
    .where('schedule_id', '=', id)
    .where('status', 'in', ['CONFIRMED', 'MODIFIED'])
    .execute();
  expect(booked.length).toBeGreaterThan(30);
  const live = (
    (await http(`${stack.sandboxUrl}/_control/reservations?kind=hotel&status=CONFIRMED`)).body.reservations as {
      reference: string;
      booker_email: string;
    }[]
  ).filter((r) => r.booker_email === 'booker@bz.test');
  const perBooking = new Map<string, number>();
  for (const r of live) perBooking.set(r.reference, (perBooking.get(r.reference) ?? 0) + 1);
  expect(live.length).toBe(booked.length);
  for (const b of booked) expect(perBooking.get(`bk-${b.booking_id}`)).toBe(1);
  const terminal = await stack.database.db
    .selectFrom('bookings')
    .select('status')
    .where('schedule_id', '=', id)
    .where('status', 'not in', ['CONFIRMED', 'MODIFIED', 'CANCELLED', 'FAILED', 'NEEDS_REVIEW'])
    .execute();
  expect(terminal).toEqual([]);
});

it('SIGTERM while a roster is processed: the worker finishes or hands back its job, exits 0 within the deadline, and no job is lost', async () => {
  const t = await onboard(stack, {
    name: 'Term Air',
    carrier: 'TZ',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const roster = generateRoster({ ...ROSTER_SIZES.S, seed: 13, startDate: '2027-03-01', carrier: 'TZ' });
  const worker = spawnWorker(stack, { SHUTDOWN_DEADLINE_MS: '20000' });
  const res = await api(t, '/crew/schedules', { method: 'POST', body: roster });
  const id = res.body.schedule_id as string;
  await waitFor(async () => (await scheduleStatus(id)) === 'PROCESSING', 60_000, 'PROCESSING');
  const started = Date.now();
  worker.kill('SIGTERM');
  const exit = await exited(worker);
  expect(exit).toEqual({ code: 0, signal: null });
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(worker.output.join('')).toContain('stopped');

  // Whatever it did not finish is still queued: a new worker completes it.
  const next = spawnWorker(stack);
  try {
    await hasStarted(next);
    await waitFor(
      async () => ['BOOKING', 'COMPLETED'].includes(await scheduleStatus(id)),
      60_000,
      'the schedule to be processed',
    );
  } finally {
    next.kill('SIGTERM');
    expect((await exited(next)).code).toBe(0);
  }
  const items = await stack.database.db
    .selectFrom('action_items')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('schedule_id', '=', id)
    .executeTakeFirstOrThrow();
  expect(items.n).toBeGreaterThan(0);
});

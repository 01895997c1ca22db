import { sql } from '@crew/db';
import { generateRoster } from '@crew/roster-generator';
import {
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

/*
 * A diff that writes more rows than autovacuum's analyze threshold (50 + 10 % of the table) has the tables it
 * wrote analyzed as soon as it commits, so the next roster's reads by pairing_number are planned with the rows
 * that are there (planner-statistics.ts); a diff that writes a few rows leaves the statistics to autovacuum.
 */

let stack: Stack;
const SCOPES = 'schedules:read schedules:write';
beforeAll(async () => {
  stack = await startStack('planner-statistics', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

/** Until the worker is done with the schedule: its "schedule processed" line comes after the analyze. */
async function submitAndWait(t: Tenant, body: unknown): Promise<{ analyzed: string[] }> {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  expect((await waitForSchedule(stack, t.accessToken, res.body.schedule_id)).status).toBe('COMPLETED');
  for (let i = 0; i < 200; i++) {
    const line = stack.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === 'schedule processed' && l.schedule_id === res.body.schedule_id);
    if (line) return line as { analyzed: string[] };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the worker never logged "schedule processed"');
}

/** Manual (not autovacuum) analyze counts, and the row counts the planner has, of the diff's tables. */
async function statistics() {
  const { rows } = await sql<{
    name: string;
    analyzed: number;
    reltuples: number;
  }>`select s.relname as name, s.analyze_count::int as analyzed, c.reltuples::float8 as reltuples
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.relname in ('action_items', 'bookings', 'rostered_layovers', 'rostered_deadheads')`.execute(
    stack.database.db,
  );
  return Object.fromEntries(rows.map((r) => [r.name, { analyzed: r.analyzed, reltuples: r.reltuples }]));
}

it('analyzes the tables a big diff wrote when it commits, and leaves a small diff’s to autovacuum', async () => {
  const before = await statistics();
  expect(before.action_items).toEqual({ analyzed: 0, reltuples: -1 });
  const big = await onboard(stack, {
    name: 'Big Air',
    carrier: 'BG',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const roster = generateRoster({
    pairings: 60,
    seed: 5,
    startDate: '2027-03-02',
    days: 5,
    crewPool: 80,
    carrier: 'BG',
  });
  expect((await submitAndWait(big, roster)).analyzed.sort()).toEqual([
    'action_items',
    'bookings',
    'rostered_deadheads',
    'rostered_layovers',
  ]);
  const items = Number(
    (
      await stack.database.db
        .selectFrom('action_items')
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  expect(items).toBeGreaterThan(100);
  const after = await statistics();
  // Each item has its review booking, each layover item its rostered row: all above 50 rows from nothing.
  for (const table of ['action_items', 'bookings', 'rostered_layovers']) {
    expect(after[table]!.analyzed).toBe(1);
    expect(after[table]!.reltuples).toBeGreaterThan(50);
  }
  expect(after.action_items!.reltuples).toBe(items);

  const small = await onboard(stack, {
    name: 'Small Air',
    carrier: 'SM',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  expect((await submitAndWait(small, onePairingRoster({ pairing: 'SM1' }))).analyzed).toEqual([]);
  expect(await statistics()).toEqual(after);
});

it('does not wait long for a table another session holds (a VACUUM, say): that analyze is skipped and logged, the schedule is processed', async () => {
  const tenant = await onboard(stack, {
    name: 'Locked Air',
    carrier: 'LK',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  let release!: () => void;
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const holder = stack.database.db.transaction().execute(async (trx) => {
    // The lock VACUUM and ANALYZE take: it lets every reader and writer through, and no other ANALYZE.
    await sql`lock table action_items, bookings, rostered_layovers, rostered_deadheads in share update exclusive mode`.execute(
      trx,
    );
    locked();
    await new Promise<void>((resolve) => (release = resolve));
  });
  await isLocked;
  try {
    const started = Date.now();
    const roster = generateRoster({
      pairings: 400,
      seed: 9,
      startDate: '2027-03-02',
      days: 5,
      crewPool: 500,
      carrier: 'LK',
    });
    expect((await submitAndWait(tenant, roster)).analyzed).toEqual([]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(
      stack.logLines.some((l) => l.includes('the tables written could not be analyzed') && l.includes('lock timeout')),
    ).toBe(true);
  } finally {
    release();
    await holder;
  }
});

import { sql } from '@crew/db';
import {
  http,
  type HttpResult,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

// Concurrent posts of one airline must get received_at values in the order the service
// lists and processes them.
let stack: Stack;
let t: Tenant;

beforeAll(async () => {
  stack = await startStack('schedule_order', {
    worker: true,
    now: () => new Date('2027-03-01T00:00:00Z'),
    env: { RATE_LIMIT_PER_MINUTE: '100000' },
  });
  t = await onboard(stack, {
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
});
afterAll(() => stack.close());

const submit = (body: unknown) =>
  http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });

/** Pairs of neighbours (in the given order) whose values go backwards (or repeat, when strict). */
function inversions<T>(rows: T[], value: (r: T) => string, label: (r: T) => string, strict: boolean): string[] {
  const out: string[] = [];
  for (let i = 1; i < rows.length; i++) {
    const [a, b] = [value(rows[i - 1]!), value(rows[i]!)];
    if (strict ? !(a < b) : a > b) out.push(`${label(rows[i - 1]!)} ${a} then ${label(rows[i]!)} ${b}`);
  }
  return out;
}

it('received_at order == listing order == processing order for 3 rounds of 20 concurrent posts of one airline', async () => {
  const accepted: { schedule_id: string; received_at: string }[] = [];
  for (let round = 0; round < 3; round++) {
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(onePairingRoster({ pairing: `ORD${round}-${i}` }))),
    );
    for (const r of res) expect(r.status).toBe(202);
    accepted.push(...res.map((r) => r.body));
  }
  for (const a of accepted) await waitForSchedule(stack, t.accessToken, a.schedule_id);

  // The listing, newest first, followed to its end.
  const listed: { schedule_id: string; received_at: string; started_at: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: HttpResult = await http(
      `${stack.apiUrl}/api/v1/crew/schedules?limit=25${cursor ? `&cursor=${cursor}` : ''}`,
      { token: t.accessToken },
    );
    expect(page.status).toBe(200);
    listed.push(...page.body.schedules);
    cursor = page.body.next_cursor;
  } while (cursor);
  expect(listed).toHaveLength(accepted.length);
  const oldestFirst = listed.reverse();
  // The 202 told the client the same received_at the listing shows.
  const told = new Map(accepted.map((a) => [a.schedule_id, a.received_at]));
  for (const s of oldestFirst) expect(s.received_at).toBe(told.get(s.schedule_id));
  // As the API shows them (milliseconds): never backwards along the listing.
  expect(
    inversions(
      oldestFirst,
      (s) => s.received_at,
      (s) => s.schedule_id,
      false,
    ),
  ).toEqual([]);
  expect(
    inversions(
      oldestFirst,
      (s) => s.started_at,
      (s) => s.schedule_id,
      false,
    ),
  ).toEqual([]);

  // As stored (microseconds): the processing order (seq, started_at) and received_at strictly agree.
  const us = (c: 'received_at' | 'started_at') =>
    sql<string>`to_char(${sql.ref(c)} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`;
  const stored = await stack.database.db
    .selectFrom('schedules')
    .select(['schedule_id', 'seq', us('received_at').as('received'), us('started_at').as('started')])
    .where('airline_id', '=', t.airlineId)
    .orderBy('seq')
    .execute();
  expect(stored.map((s) => s.schedule_id)).toEqual(oldestFirst.map((s) => s.schedule_id));
  expect(
    inversions(
      stored,
      (s) => s.received,
      (s) => `seq ${s.seq}`,
      true,
    ),
  ).toEqual([]);
  expect(
    inversions(
      stored,
      (s) => s.started,
      (s) => `seq ${s.seq}`,
      true,
    ),
  ).toEqual([]);
});

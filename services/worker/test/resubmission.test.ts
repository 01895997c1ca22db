import { Writable } from 'node:stream';
import { gunzipText, sql } from '@crew/db';
import { isStateLinesText } from '@crew/engine';
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

/*
 * A byte-identical resubmission whose diff would derive nothing skips the diff (copying the audit
 * events of the roster before it), and runs the full diff as soon as anything the diff reads has changed.
 */

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';
beforeAll(async () => {
  stack = await startStack('resubmission');
});
afterAll(() => stack.close());

const submit = async (t: Tenant, body: unknown) => {
  const res = await http(`${stack.apiUrl}/api/v1/crew/schedules`, { method: 'POST', token: t.accessToken, body });
  expect(res.status).toBe(202);
  return res.body.schedule_id as string;
};

/** The roster with its pairing sent twice: DUPLICATE_ROW audit events that every resubmission must carry too. */
function roster() {
  const r = onePairingRoster();
  return { ...r, pairings: [r.pairings[0]!, structuredClone(r.pairings[0]!)] };
}

/** Row versions of the airline's rostered layovers: the full diff rewrites them, the shortcut does not. */
async function rosteredVersions(airlineId: string): Promise<string[]> {
  const r = await sql<{
    v: string;
  }>`select row_key || ':' || xmin::text as v from rostered_layovers where airline_id = ${airlineId} order by 1`.execute(
    stack.database.db,
  );
  return r.rows.map((x) => x.v);
}

async function auditEvents(scheduleId: string) {
  return stack.database.db
    .selectFrom('audit_events')
    .select(['event_key', 'classification', 'message'])
    .where('schedule_id', '=', scheduleId)
    .orderBy('event_key')
    .execute();
}

it('a byte-identical resubmission derives nothing without re-diffing, and the full diff runs again once a booking changed', async () => {
  const t = await onboard(stack, {
    name: 'Same Air',
    carrier: 'SA',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const airline = await stack.database.db
    .selectFrom('airlines')
    .select('airline_id')
    .where('name', '=', 'Same Air')
    .executeTakeFirstOrThrow();
  const w = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    const first = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, first)).status).toBe('COMPLETED');
    const firstItems = await allActionItems(stack, t.accessToken, first);
    // No hotel configuration: every item is a review item with its new booking, so the state settles.
    expect(firstItems.map((i) => i.classification).sort()).toEqual(['NEW_DEADHEAD', 'NEW_LAYOVER']);
    const state = await stack.database.db
      .selectFrom('roster_states')
      .selectAll()
      .where('airline_id', '=', airline.airline_id)
      .executeTakeFirstOrThrow();
    expect(state.settled_fingerprint).not.toBeNull();
    const firstAudit = await auditEvents(first);
    expect(firstAudit.length).toBeGreaterThan(0);
    const versions = await rosteredVersions(airline.airline_id);

    const again = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, again)).status).toBe('COMPLETED');
    expect(await allActionItems(stack, t.accessToken, again)).toEqual([]);
    expect(await auditEvents(again)).toEqual(firstAudit);
    // The shortcut ran: the rostered rows were not rewritten, the state is the same and now the new schedule's.
    expect(await rosteredVersions(airline.airline_id)).toEqual(versions);
    const after = await stack.database.db
      .selectFrom('roster_states')
      .selectAll()
      .where('airline_id', '=', airline.airline_id)
      .executeTakeFirstOrThrow();
    expect(after.schedule_id).toBe(again);
    expect(after.state_gzip.equals(state.state_gzip)).toBe(true);

    // Someone moves the hotel booking's stay: the same roster must now ask for the roster's stay again.
    await stack.database.db
      .updateTable('bookings')
      .set({ checkin_time_local: '2027-03-10T18:00:00-05:00' })
      .where('airline_id', '=', airline.airline_id)
      .where('type', '=', 'HOTEL')
      .execute();
    const third = await submit(t, roster());
    expect((await waitForSchedule(stack, t.accessToken, third)).status).toBe('COMPLETED');
    expect((await allActionItems(stack, t.accessToken, third)).map((i) => i.classification)).toEqual([
      'LAYOVER_DATE_CHANGE',
    ]);
    expect(await auditEvents(third)).toEqual(firstAudit);
  } finally {
    await w.close();
  }
});

/** A worker whose log lines the test reads (its "schedule processed" lines say how many pairings were diffed). */
function loggedWorker() {
  const lines: { airline_id?: string; msg?: string; diffed_pairings?: number | string; skipped_pairings?: number }[] =
    [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  });
  const w = startWorkerRuntime({
    config: stack.config,
    db: stack.database.db,
    logger: createLogger('worker', 'info', sink),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  return { lines, w };
}

const processed = (lines: ReturnType<typeof loggedWorker>['lines'], airlineId: string) =>
  lines.filter((l) => l.airline_id === airlineId && l.msg === 'schedule processed');
const diffedPairings = (lines: ReturnType<typeof loggedWorker>['lines'], airlineId: string) =>
  processed(lines, airlineId).map((l) => l.diffed_pairings);

/** Four pairings, one crew member each: what a diff of pairings alone can tell apart. */
function fourPairings() {
  const pairings = [1, 2, 3, 4].map(
    (n) => onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test` }).pairings[0]!,
  );
  return { ...onePairingRoster(), pairings };
}

/** Today's roster: P1 as it was, P2's first layover ends two hours later, P3 gone, P4 as it was, P5 new; in another order. */
function fourPairingsEdited() {
  const r = fourPairings();
  const p2 = structuredClone(r.pairings[1]!);
  const layover = p2.duty_periods[0]!.layover!;
  layover.checkout_time_local = layover.checkout_time_local.replace('T09:00', 'T11:00');
  const p5 = onePairingRoster({ pairing: 'P5', employee: 'E5', email: 'e5@crew.test' }).pairings[0]!;
  return { ...r, pairings: [p5, r.pairings[3]!, p2, r.pairings[0]!] };
}

/**
 * Two rosters for a new airline, with a booking of P4 moved in between when `moveP4`; `whole` drops the basis the
 * first left, so the second runs the whole diff. What the second derived, wrote and kept, and how many pairings each diffed.
 */
async function twoRosters(
  lines: ReturnType<typeof loggedWorker>['lines'],
  opts: { name: string; carrier: string; whole: boolean; rosters: [unknown, unknown]; moveP4: boolean },
) {
  const db = stack.database.db;
  const t = await onboard(stack, {
    name: opts.name,
    carrier: opts.carrier,
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const { airline_id } = await db
    .selectFrom('airlines')
    .select('airline_id')
    .where('name', '=', opts.name)
    .executeTakeFirstOrThrow();
  const first = await submit(t, opts.rosters[0]);
  expect((await waitForSchedule(stack, t.accessToken, first)).status).toBe('COMPLETED');
  expect(
    (
      await db
        .selectFrom('roster_states')
        .select('diff_basis_gzip')
        .where('airline_id', '=', airline_id)
        .executeTakeFirstOrThrow()
    ).diff_basis_gzip,
  ).not.toBeNull();
  if (opts.whole)
    await db.updateTable('roster_states').set({ diff_basis_gzip: null }).where('airline_id', '=', airline_id).execute();
  if (opts.moveP4)
    await db
      .updateTable('bookings')
      .set({ checkin_time_local: '2027-03-10T18:00:00-05:00' })
      .where('airline_id', '=', airline_id)
      .where('type', '=', 'HOTEL')
      .where('pairing_number', '=', 'P4')
      .execute();
  const second = await submit(t, opts.rosters[1]);
  expect((await waitForSchedule(stack, t.accessToken, second)).status).toBe('COMPLETED');
  const items = (await allActionItems(stack, t.accessToken, second)).map((i) => ({
    classification: i.classification,
    anchors: i.anchors,
    source_rows: i.source_rows,
    message: i.message,
  }));
  const rostered = await sql<
    Record<string, unknown>
  >`select roster_date::text, row_key, employee_id, pairing_number, duty_period_num, traveller_email, station, checkin_time_local, checkout_time_local
    from rostered_layovers where airline_id = ${airline_id} order by row_key`.execute(db);
  const deadheads = await sql<
    Record<string, unknown>
  >`select roster_date::text, row_key, from_airport, to_airport, dep_time_local from rostered_deadheads where airline_id = ${airline_id} order by row_key`.execute(
    db,
  );
  const stateRow = await db
    .selectFrom('roster_states')
    .select('state_gzip')
    .where('airline_id', '=', airline_id)
    .executeTakeFirstOrThrow();
  const diffed = diffedPairings(lines, airline_id);
  const skipped = processed(lines, airline_id).map((l) => l.skipped_pairings);
  return {
    items,
    rostered: rostered.rows,
    deadheads: deadheads.rows,
    state: await gunzipText(stateRow.state_gzip),
    diffed,
    skipped,
  };
}

/**
 * The same two rosters for two new airlines: one diffs the changed pairings, the other (its basis dropped) the
 * whole roster. Both must derive, write and keep the same; the first's result is returned.
 */
async function againstTheWholeDiff(
  lines: ReturnType<typeof loggedWorker>['lines'],
  opts: { names: [string, string]; carriers: [string, string]; rosters: [unknown, unknown]; moveP4: boolean },
) {
  const changed = await twoRosters(lines, {
    name: opts.names[0],
    carrier: opts.carriers[0],
    whole: false,
    rosters: opts.rosters,
    moveP4: opts.moveP4,
  });
  const whole = await twoRosters(lines, {
    name: opts.names[1],
    carrier: opts.carriers[1],
    whole: true,
    rosters: opts.rosters,
    moveP4: opts.moveP4,
  });
  expect(whole.diffed).toEqual(['all', 'all']);
  expect(whole.skipped).toEqual([0, 0]);
  expect(changed.items).toEqual(whole.items);
  expect(changed.rostered).toEqual(whole.rostered);
  expect(changed.deadheads).toEqual(whole.deadheads);
  // The stored state, a line per pairing_number, to the byte.
  expect(isStateLinesText(changed.state)).toBe(true);
  expect(changed.state).toBe(whole.state);
  return changed;
}

it('a resubmission diffs only the pairings that changed, and derives, writes and keeps what the whole diff does', async () => {
  const { lines, w } = loggedWorker();
  try {
    const rosters: [unknown, unknown] = [fourPairings(), fourPairingsEdited()];
    const changed = await againstTheWholeDiff(lines, {
      names: ['Changed Air', 'Whole Air'],
      carriers: ['CH', 'WH'],
      rosters,
      moveP4: true,
    });
    // P2 (its layover), P3 (gone), P4 (its booking) and P5 (new) are diffed; P1 is not, nor even parsed.
    expect(changed.diffed).toEqual(['all', 4]);
    expect(changed.skipped).toEqual([0, 1]);
    expect(changed.items.map((i) => `${i.anchors.pairing_number} ${i.classification}`).sort()).toEqual([
      'P2 LAYOVER_EXTENDED',
      'P3 DEADHEAD_CANCELLED',
      'P3 LAYOVER_CANCELLED',
      'P4 LAYOVER_DATE_CHANGE',
      'P5 NEW_DEADHEAD',
      'P5 NEW_LAYOVER',
    ]);
  } finally {
    await w.close();
  }
});

/** A rolling window: pairings on 10, 12, 14 and 15 March in a window of 10-16 March, then the window a day later. */
function rollingRosters(): [unknown, unknown] {
  const on = (n: number, day1: string) =>
    onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test`, day1 }).pairings[0]!;
  const first = {
    ...onePairingRoster(),
    pairings: [on(1, '2027-03-10'), on(2, '2027-03-12'), on(3, '2027-03-14'), on(4, '2027-03-15')],
  };
  // Tomorrow's: P2's first layover ends two hours later, P5 is new on 16 March; P1 (10-11 March) is still sent.
  const p2 = structuredClone(first.pairings[1]!);
  p2.duty_periods[0]!.layover!.checkout_time_local = p2.duty_periods[0]!.layover!.checkout_time_local.replace(
    'T09:00',
    'T11:00',
  );
  const second = {
    ...first,
    schedule_start_date: '2027-03-11',
    schedule_end_date: '2027-03-17',
    pairings: [first.pairings[0]!, p2, first.pairings[2]!, first.pairings[3]!, on(5, '2027-03-16')],
  };
  return [first, second];
}

it('when the window moves, a resubmission still diffs only the pairings that changed or have rows outside either window', async () => {
  const { lines, w } = loggedWorker();
  try {
    const changed = await againstTheWholeDiff(lines, {
      names: ['Rolling Air', 'Rolling Whole Air'],
      carriers: ['RO', 'RW'],
      rosters: rollingRosters(),
      moveP4: false,
    });
    // P1 (10 March, outside the new window), P2 (its layover) and P5 (new) are diffed; P3 and P4, inside both windows, are not.
    expect(changed.diffed).toEqual(['all', 3]);
    // In a moved window the whole roster is flattened.
    expect(changed.skipped).toEqual([0, 0]);
    expect(changed.items.map((i) => `${i.anchors.pairing_number} ${i.classification}`).sort()).toEqual([
      'P2 LAYOVER_EXTENDED',
      'P5 NEW_DEADHEAD',
      'P5 NEW_LAYOVER',
    ]);
  } finally {
    await w.close();
  }
});

it('with emit_unchanged on, every resubmission runs the whole diff (it derives items for unchanged rows) and leaves no basis', async () => {
  const { lines, w } = loggedWorker();
  const db = stack.database.db;
  try {
    const t = await onboard(stack, {
      name: 'Unchanged Air',
      carrier: 'UN',
      scopes: SCOPES,
      settings: { schedules_access: true, emit_unchanged: true },
    });
    const { airline_id } = await db
      .selectFrom('airlines')
      .select('airline_id')
      .where('name', '=', 'Unchanged Air')
      .executeTakeFirstOrThrow();
    for (const body of [fourPairings(), fourPairingsEdited()]) {
      const id = await submit(t, body);
      expect((await waitForSchedule(stack, t.accessToken, id)).status).toBe('COMPLETED');
      expect(
        (
          await db
            .selectFrom('roster_states')
            .select('diff_basis_gzip')
            .where('airline_id', '=', airline_id)
            .executeTakeFirstOrThrow()
        ).diff_basis_gzip,
      ).toBeNull();
    }
    expect(diffedPairings(lines, airline_id)).toEqual(['all', 'all']);
  } finally {
    await w.close();
  }
});

/**
 * A layover of a duty period dated the day before the window, checking in after midnight on its first day: inside the
 * window (a layover is dated by its check-in), booked with its duty period's date.
 */
function afterMidnightRoster(layover: boolean) {
  const r = onePairingRoster({ day1: '2027-03-10' });
  const duty = r.pairings[0]!.duty_periods[0]!;
  duty.layover = {
    station: 'CDG',
    booking_required: layover,
    checkin_time_local: '2027-03-11T00:30:00+01:00',
    checkout_time_local: '2027-03-11T18:00:00+01:00',
  };
  return { ...r, schedule_start_date: '2027-03-11', schedule_end_date: '2027-03-14' };
}

it('a layover checking in after midnight on the window’s first day is booked once: the same roster again derives nothing, and a roster dropping it cancels that booking', async () => {
  const t = await onboard(stack, {
    name: 'Midnight Air',
    carrier: 'MI',
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const db = stack.database.db;
  const { airline_id } = await db
    .selectFrom('airlines')
    .select('airline_id')
    .where('name', '=', 'Midnight Air')
    .executeTakeFirstOrThrow();
  const hotels = () =>
    db
      .selectFrom('bookings')
      .select(['booking_id', 'status', 'pending_cancel', 'duty_date'])
      .where('airline_id', '=', airline_id)
      .where('type', '=', 'HOTEL')
      .execute();
  const w = startWorkerRuntime({
    config: stack.config,
    db,
    logger: createLogger('worker', 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
  });
  try {
    const body = JSON.stringify(afterMidnightRoster(true));
    const first = await submit(t, JSON.parse(body));
    expect((await waitForSchedule(stack, t.accessToken, first)).status).toBe('COMPLETED');
    expect((await allActionItems(stack, t.accessToken, first)).map((i) => i.classification)).toEqual(['NEW_LAYOVER']);
    const booked = await hotels();
    // Booked with its duty period's date, the day before the window.
    expect(booked).toEqual([expect.objectContaining({ duty_date: '2027-03-10' })]);

    // The identical roster: nothing new, and no second room (spec rule 5), whether or not the diff is skipped.
    for (let n = 0; n < 2; n++) {
      const again = await submit(t, JSON.parse(body));
      expect((await waitForSchedule(stack, t.accessToken, again)).status).toBe('COMPLETED');
      expect(await allActionItems(stack, t.accessToken, again)).toEqual([]);
      expect(await hotels()).toEqual(booked);
      // The next one runs the whole diff, against the bookings it reads.
      await db
        .updateTable('roster_states')
        .set({ diff_basis_gzip: null, settled_fingerprint: null })
        .where('airline_id', '=', airline_id)
        .execute();
    }

    // A roster that no longer wants the layover cancels the booking made for it.
    const dropped = await submit(t, afterMidnightRoster(false));
    expect((await waitForSchedule(stack, t.accessToken, dropped)).status).toBe('COMPLETED');
    expect(await allActionItems(stack, t.accessToken, dropped)).toEqual([
      expect.objectContaining({ classification: 'LAYOVER_CANCELLED', booking_id: booked[0]!.booking_id }),
    ]);
  } finally {
    await w.close();
  }
});

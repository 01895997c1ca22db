import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  dueBy,
  dueSoon,
  reviewSettingsOf,
  storedReviewStateOf,
  type ReviewItem,
  type ReviewSettings,
} from '@crew/engine';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { setDisposition } from '../src/bookings/booking.repository';
import { markDueSoon, redateOpenItems, reviewQueueFigures } from '../src/schedules/review-writes.repository';
import type { ActionItemRow } from '../src/schedules/schedule.table';

/*
 * The review queue's set-based writes against the engine's rules: redateOpenItems' SQL gives the instants the
 * engine's dueBy gives, a disposition's write keeps review_status and due_by with the rules passed in, and the
 * due-soon mark goes to one caller only.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('review_writes');
});
afterAll(() => t.drop());

async function newAirline(): Promise<string> {
  const id = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${id}, 'Review Air', 'RV')`.execute(t.db);
  return id;
}

interface Seed {
  priority: string;
  disposition?: string | null;
  recommended_action?: string | null;
  review_status?: string | null;
  event_at?: string | null;
  created_at?: string;
  due_by?: string | null;
  due_soon_at?: string | null;
}

async function item(airlineId: string, s: Seed): Promise<string> {
  const id = randomUUID();
  await sql`insert into action_items (action_id, airline_id, item_key, source, type, subtype, classification, priority, disposition,
      auto_eligible, anchors, source_rows, details, recommended_action, review_status, event_at, due_by, due_soon_at, created_at)
    values (${id}, ${airlineId}, ${`k-${id}`}, 'SCHEDULE_DIFF', 'HOTEL', 'NEW_BOOKING', 'NEW_LAYOVER', ${s.priority},
      ${s.disposition === undefined ? 'PENDING_REVIEW' : s.disposition}, false, '{}', '{}', '{}', ${s.recommended_action ?? null}, ${s.review_status === undefined ? 'OPEN' : s.review_status},
      ${s.event_at ?? null}, ${s.due_by ?? null}, ${s.due_soon_at ?? null}, ${s.created_at ?? '2027-03-01T10:00:00.123456Z'})`.execute(
    t.db,
  );
  return id;
}

const rowOf = (id: string): Promise<ActionItemRow> =>
  t.db.selectFrom('action_items').selectAll().where('action_id', '=', id).executeTakeFirstOrThrow();

/** The engine's view of a stored item (times as the pg driver reads them: milliseconds). */
function reviewItemOf(r: ActionItemRow): ReviewItem {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ...r,
    created_at: r.created_at.toISOString(),
    disposition_at: iso(r.disposition_at),
    action_taken_at: iso(r.action_taken_at),
    review_deadline: iso(r.review_deadline),
  } as unknown as ReviewItem;
}

describe('redateOpenItems', () => {
  it('gives every OPEN item the instant the engine’s dueBy gives it, and leaves the others alone', async () => {
    const airlineId = await newAirline();
    const settings: ReviewSettings = {
      lead_time_minutes: 135,
      due_soon_minutes: 30,
      // No P3 target: a P3 item is bound by its event alone.
      priority_targets_minutes: { P1: 4, P2: 3000 },
    };
    const seeds: Seed[] = [];
    const events = [null, '2027-03-01T10:30:00Z', '2027-03-01T14:59:59.999Z', '2027-03-04T02:00:00.5Z'];
    const created = ['2027-03-01T10:00:00.123456Z', '2027-03-01T09:59:59.999999Z', '2027-02-28T23:00:00Z'];
    for (const priority of ['P1', 'P2', 'P3', 'P4'])
      for (const event_at of events) for (const created_at of created) seeds.push({ priority, event_at, created_at });
    const open = await Promise.all(seeds.map((s) => item(airlineId, s)));
    const resolved = await item(airlineId, {
      priority: 'P1',
      disposition: 'AUTO_BOOKED',
      review_status: 'RESOLVED',
      event_at: events[1],
    });
    const elsewhere = await item(await newAirline(), { priority: 'P1', event_at: events[1], due_by: events[1] });

    const changed = await t.db.transaction().execute((trx) => redateOpenItems(trx, airlineId, settings));
    let expectedChanges = 0;
    for (const id of open) {
      const r = await rowOf(id);
      const expected = dueBy(reviewItemOf(r), r.event_at?.toISOString() ?? null, settings);
      if (expected !== null) expectedChanges++;
      expect([id, r.due_by?.toISOString() ?? null]).toEqual([id, expected]);
    }
    // Without an event, P3 (no target here) and P4 (never one) have neither bound.
    expect(expectedChanges).toBe(open.length - 2 * created.length);
    expect(changed).toBe(expectedChanges);
    expect((await rowOf(resolved)).due_by).toBeNull();
    expect((await rowOf(elsewhere)).due_by?.toISOString()).toBe('2027-03-01T10:30:00.000Z');
    // Again with the same settings: nothing to change.
    expect(await t.db.transaction().execute((trx) => redateOpenItems(trx, airlineId, settings))).toBe(0);
  });
});

describe('redateOpenItems and an item bound to a deadline', () => {
  it('leaves an OPEN item with a deadline of its own (review_deadline) due at it, as the engine’s dueBy does', async () => {
    const airlineId = await newAirline();
    const deadline = '2027-03-01T09:30:00.000Z';
    const id = await item(airlineId, { priority: 'P2', event_at: '2027-03-04T02:00:00Z', due_by: deadline });
    await sql`update action_items set review_deadline = ${deadline} where action_id = ${id}`.execute(t.db);
    const settings: ReviewSettings = {
      lead_time_minutes: 5,
      due_soon_minutes: 30,
      priority_targets_minutes: { P2: 1 },
    };
    expect(await t.db.transaction().execute((trx) => redateOpenItems(trx, airlineId, settings))).toBe(0);
    const r = await rowOf(id);
    expect(r.due_by?.toISOString()).toBe(deadline);
    expect(dueBy(reviewItemOf(r), r.event_at?.toISOString() ?? null, settings)).toBe(deadline);
  });
});

describe('setDisposition with the review rules', () => {
  it('opens an item a task leaves for a person, resolves it when a later task settles it, and leaves an item no person needed alone', async () => {
    const airlineId = await newAirline();
    await sql`insert into review_settings (airline_id, lead_time_minutes, due_soon_minutes, priority_targets_minutes)
      values (${airlineId}, 60, 15, '{"P1": 5, "P2": 20, "P3": 45}')`.execute(t.db);
    const id = await item(airlineId, {
      priority: 'P2',
      disposition: null,
      review_status: null,
      event_at: '2027-03-02T08:00:00Z',
    });
    const write = (disposition: string) =>
      t.db.transaction().execute((trx) => setDisposition(trx, id, disposition, {}, storedReviewStateOf));

    await write('FAILED');
    const failed = await rowOf(id);
    expect(failed.review_status).toBe('OPEN');
    const settings = reviewSettingsOf({
      lead_time_minutes: 60,
      due_soon_minutes: 15,
      priority_targets_minutes: { P1: 5, P2: 20, P3: 45 },
    });
    expect(failed.due_by?.toISOString()).toBe(dueBy(reviewItemOf(failed), '2027-03-02T08:00:00.000Z', settings));
    expect(failed.due_by?.toISOString()).toBe('2027-03-01T10:20:00.123Z');

    await write('AUTO_BOOKED');
    expect(await rowOf(id)).toMatchObject({ review_status: 'RESOLVED', due_by: null });

    const never = await item(airlineId, { priority: 'P2', disposition: null, review_status: null });
    await t.db.transaction().execute((trx) => setDisposition(trx, never, 'AUTO_BOOKED', {}, storedReviewStateOf));
    expect(await rowOf(never)).toMatchObject({ disposition: 'AUTO_BOOKED', review_status: null, due_by: null });
  });
});

describe('markDueSoon', () => {
  // Before every other test's due_by: only this block's items are due.
  const NOW = new Date('2027-01-01T12:00:00Z');

  it('marks the OPEN items due within their airline’s due_soon_minutes (or past) once, as the engine’s dueSoon says', async () => {
    const a = await newAirline();
    const b = await newAirline();
    // Airline b warns an hour ahead; a has the default 30 minutes.
    await sql`insert into review_settings (airline_id, lead_time_minutes, due_soon_minutes, priority_targets_minutes)
      values (${b}, 240, 60, '{}')`.execute(t.db);
    const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();
    const seeds: [string, Seed][] = [
      [a, { priority: 'P1', due_by: at(-10) }], // overdue
      [a, { priority: 'P2', due_by: at(30) }], // on the edge
      [a, { priority: 'P3', due_by: at(31) }],
      [a, { priority: 'P2', due_by: at(5), due_soon_at: at(-1) }], // warned before
      [a, { priority: 'P2', due_by: at(5), review_status: 'RESOLVED', disposition: 'AUTO_BOOKED' }],
      [a, { priority: 'P4', due_by: null }],
      [b, { priority: 'P1', due_by: at(45) }],
      [b, { priority: 'P1', due_by: at(61) }],
    ];
    const ids = await Promise.all(seeds.map(([airline, s]) => item(airline, s)));
    const engineSays = await Promise.all(
      ids.map(async (id, i) => {
        const r = await rowOf(id);
        const settings = reviewSettingsOf(
          seeds[i]![0] === b ? { ...reviewSettingsOf(null), due_soon_minutes: 60 } : null,
        );
        const facts = {
          ...reviewItemOf(r),
          due_by: r.due_by?.toISOString() ?? null,
          due_soon_emitted: !!r.due_soon_at,
        };
        return dueSoon(facts, NOW.getTime(), settings);
      }),
    );
    const expected = ids.filter((_, i) => engineSays[i]);
    expect(expected).toEqual([ids[0], ids[1], ids[6]]);

    const marked = await t.db.transaction().execute((trx) => markDueSoon(trx, NOW, 30, 100));
    expect(marked.map((m) => m.action_id).sort()).toEqual([...expected].sort());
    expect(await t.db.transaction().execute((trx) => markDueSoon(trx, NOW, 30, 100))).toEqual([]);
    expect((await rowOf(ids[0]!)).due_soon_at?.toISOString()).toBe(NOW.toISOString());

    // The queue's figures count what is due whether warned or not: overdue, and due within the airline's window.
    const figures = await reviewQueueFigures(t.db, NOW, 30);
    const byPriority = Object.fromEntries(figures.map((f) => [f.priority, f]));
    expect(byPriority).toEqual({
      P1: { priority: 'P1', overdue: 1, due_soon: 1 },
      P2: { priority: 'P2', overdue: 0, due_soon: 2 },
    });
  });

  it('of two callers at once, each item goes to one', async () => {
    const a = await newAirline();
    const ids = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        item(a, { priority: 'P2', due_by: new Date(NOW.getTime() - i * 1000).toISOString() }),
      ),
    );
    // The second caller starts while the first's marks are not committed yet: it finds the same items unmarked,
    // waits for their rows, and then finds them marked.
    let second: Promise<{ action_id: string }[]> | null = null;
    const first = await t.db.transaction().execute(async (trx) => {
      const marked = await markDueSoon(trx, NOW, 30, 1000);
      second = t.db.transaction().execute((other) => markDueSoon(other, NOW, 30, 1000));
      await new Promise((r) => setTimeout(r, 300));
      return marked;
    });
    expect(first.map((m) => m.action_id).sort()).toEqual([...ids].sort());
    expect(await second!).toEqual([]);
  });
});

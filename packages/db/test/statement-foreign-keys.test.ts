import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { copyInsert } from '../src/bulk';
import { BOOKING_COLUMNS } from '../src/bookings/booking.table';
import { ACTION_ITEM_COLUMNS } from '../src/schedules/schedule.table';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';

/*
 * Migration 2026_11_24_0120: action_items → airlines / schedules and bookings → airlines are checked once per
 * statement instead of per row. They must behave as the foreign keys they replace: a missing parent is
 * refused with 23503 (a COPY too, and nothing of it is stored), a changed key is checked, a parent's delete
 * cascades, a referenced parent key cannot change.
 */

let t: TestDatabase;
let airlineId: string;
let scheduleId: string;
beforeAll(async () => {
  t = await createTestDatabase('statement_fk');
});
afterAll(() => t.drop());

beforeEach(async () => {
  airlineId = randomUUID();
  scheduleId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'FK Air', 'FK')`.execute(t.db);
  await sql`insert into schedules (schedule_id, airline_id, schedule_start_date, schedule_end_date, pairing_count, status) values (${scheduleId}, ${airlineId}, '2027-03-01', '2027-03-07', 1, 'PROCESSING')`.execute(
    t.db,
  );
});

const item = (over: Record<string, unknown> = {}) => ({
  action_id: randomUUID(),
  airline_id: airlineId,
  schedule_id: scheduleId,
  item_key: `k-${randomUUID()}`,
  source: 'SCHEDULE_DIFF',
  type: 'HOTEL',
  subtype: 'NEW_BOOKING',
  classification: 'NEW_LAYOVER',
  priority: 'P3',
  disposition: null,
  auto_eligible: false,
  anchors: { employee_id: 'E1' },
  source_rows: { day1_row: 1, day2_row: null },
  details: {},
  ...over,
});
const booking = (over: Record<string, unknown> = {}) => ({
  booking_id: randomUUID(),
  airline_id: airlineId,
  type: 'HOTEL',
  status: 'NEEDS_REVIEW',
  source: 'SCHEDULE_DIFF',
  manual_override: false,
  ...over,
});
const count = async (table: 'action_items' | 'bookings', col: 'airline_id' | 'schedule_id', id: string) =>
  (
    await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(col)} = ${id}`.execute(
      t.db,
    )
  ).rows[0]!.n;

it('accepts rows whose parents exist (COPY, many rows, one statement)', async () => {
  await t.db.transaction().execute(async (trx) => {
    await copyInsert(trx, 'action_items', ACTION_ITEM_COLUMNS, [item(), item(), item()]);
    await copyInsert(trx, 'bookings', BOOKING_COLUMNS, [booking(), booking()]);
  });
  expect(await count('action_items', 'airline_id', airlineId)).toBe(3);
  expect(await count('bookings', 'airline_id', airlineId)).toBe(2);
});

it.each([
  [
    'action_items',
    'an unknown airline',
    () => copyInsert(t.db, 'action_items', ACTION_ITEM_COLUMNS, [item(), item({ airline_id: randomUUID() })]),
  ],
  [
    'action_items',
    'an unknown schedule',
    () => copyInsert(t.db, 'action_items', ACTION_ITEM_COLUMNS, [item({ schedule_id: randomUUID() }), item()]),
  ],
  [
    'bookings',
    'an unknown airline',
    () => copyInsert(t.db, 'bookings', BOOKING_COLUMNS, [booking({ airline_id: randomUUID() })]),
  ],
] as const)('refuses %s rows with %s with 23503, storing none of the statement', async (table, _what, write) => {
  await expect(write()).rejects.toMatchObject({ code: '23503' });
  expect(await count(table, 'airline_id', airlineId)).toBe(0);
});

it('allows an action item without a schedule (IROP items), and checks a changed key per row', async () => {
  const a = item({ schedule_id: null });
  const b = booking();
  await copyInsert(t.db, 'action_items', ACTION_ITEM_COLUMNS, [a]);
  await copyInsert(t.db, 'bookings', BOOKING_COLUMNS, [b]);
  await expect(
    sql`update action_items set schedule_id = ${randomUUID()} where action_id = ${a.action_id}`.execute(t.db),
  ).rejects.toMatchObject({ code: '23503' });
  await expect(
    sql`update bookings set airline_id = ${randomUUID()} where booking_id = ${b.booking_id}`.execute(t.db),
  ).rejects.toMatchObject({ code: '23503' });
  await sql`update action_items set schedule_id = ${scheduleId} where action_id = ${a.action_id}`.execute(t.db);
  await sql`update bookings set status = 'CANCELLED' where booking_id = ${b.booking_id}`.execute(t.db);
});

it('cascades a schedule delete to its action items, and an airline delete to its action items and bookings', async () => {
  await copyInsert(t.db, 'action_items', ACTION_ITEM_COLUMNS, [item(), item({ schedule_id: null })]);
  await copyInsert(t.db, 'bookings', BOOKING_COLUMNS, [booking()]);
  await sql`delete from schedules where schedule_id = ${scheduleId}`.execute(t.db);
  expect(await count('action_items', 'schedule_id', scheduleId)).toBe(0);
  expect(await count('action_items', 'airline_id', airlineId)).toBe(1);
  await sql`delete from airlines where airline_id = ${airlineId}`.execute(t.db);
  expect(await count('action_items', 'airline_id', airlineId)).toBe(0);
  expect(await count('bookings', 'airline_id', airlineId)).toBe(0);
});

it('refuses to change a referenced parent key', async () => {
  await copyInsert(t.db, 'bookings', BOOKING_COLUMNS, [booking()]);
  await expect(
    sql`update airlines set airline_id = ${randomUUID()} where airline_id = ${airlineId}`.execute(t.db),
  ).rejects.toMatchObject({ code: '23503' });
});

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { createDb } from '../src';
import { listQueue, reviewPageFacts } from '../src/schedules/review.repository';

/*
 * What a queue page reads of each item's booking: the fields of its hotel or flight block the engine's review
 * rules read (ReviewBooking), not the whole block, which the api would otherwise parse on every row of every page.
 */

let t: TestDatabase;
let airlineId: string;
beforeAll(async () => {
  t = await createTestDatabase('review_facts');
  airlineId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Facts Air', 'FA')`.execute(
    t.db,
  );
});
afterAll(() => t.drop());

async function booking(type: 'HOTEL' | 'FLIGHT', block: object | null, travellerEmail?: string): Promise<string> {
  const id = randomUUID();
  await sql`insert into bookings (booking_id, airline_id, type, status, source, hotel, flight, traveller_email)
    values (${id}, ${airlineId}, ${type}, 'NEEDS_REVIEW', 'SCHEDULE_DIFF',
      ${type === 'HOTEL' && block ? JSON.stringify(block) : null}::jsonb,
      ${type === 'FLIGHT' && block ? JSON.stringify(block) : null}::jsonb, ${travellerEmail ?? null})`.execute(t.db);
  return id;
}

async function openItem(bookingId: string): Promise<void> {
  const id = randomUUID();
  await sql`insert into action_items (action_id, airline_id, item_key, source, type, subtype, classification, priority,
      disposition, auto_eligible, anchors, source_rows, details, booking_id, review_status, due_by)
    values (${id}, ${airlineId}, ${`k-${id}`}, 'SCHEDULE_DIFF', 'HOTEL', 'NEW_BOOKING', 'NEW_LAYOVER', 'P3',
      'PENDING_REVIEW', false, '{}', '{}', '{}', ${bookingId}, 'OPEN', '2027-03-01T10:00:00Z')`.execute(t.db);
}

const room = {
  property_id: 'P1',
  name: 'Crew Hotel JFK',
  address: '1 Airport Road',
  confirmation_number: 'C123',
  contracted_rate: { amount: 189, currency: 'USD' },
  supplier: 'SANDBOX',
  supplier_ref: 'H-1',
  supplier_status: 'CONFIRMED',
  rate_flag: 'the supplier price differs',
};
const ticket = {
  flight_option_id: 'o-1',
  supplier: 'SANDBOX',
  supplier_ref: 'F-1',
  supplier_status: 'CONFIRMED',
  pnr: 'ABC123',
  ticket_id: 'T-1',
  fare: { amount: 420, currency: 'USD' },
};

test('a page and reviewPageFacts carry only the block fields the review rules read; no block reads null', async () => {
  const hotel = await booking('HOTEL', room);
  const flight = await booking('FLIGHT', ticket);
  const none = await booking('HOTEL', null);
  for (const id of [hotel, flight, none]) await openItem(id);

  const expected = new Map([
    [hotel, { hotel: { supplier_ref: 'H-1', supplier_status: 'CONFIRMED', rate_flag: room.rate_flag }, flight: null }],
    [flight, { hotel: null, flight: { supplier_ref: 'F-1', supplier_status: 'CONFIRMED', pnr: 'ABC123' } }],
    [none, { hotel: null, flight: null }],
  ]);
  const facts = await reviewPageFacts(t.db, airlineId, [hotel, flight, none]);
  expect(facts.bookings).toHaveLength(3);
  for (const b of facts.bookings) expect({ hotel: b.hotel, flight: b.flight }).toEqual(expected.get(b.booking_id));

  const page = await listQueue(t.db, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
  expect(page).toHaveLength(3);
  for (const r of page) {
    const b = r.booking_facts!;
    expect({ hotel: b.hotel, flight: b.flight }).toEqual(expected.get(b.booking_id));
  }
});

test('a flight booking says whether its traveller has a date of birth (no flight option is bookable without); a hotel booking null', async () => {
  const traveller = async (email: string, hasDob: boolean) =>
    sql`insert into travellers (airline_id, traveller_email, has_date_of_birth)
      values (${airlineId}, ${email}, ${hasDob})`.execute(t.db);
  await traveller('no-dob@fa.test', false);
  await traveller('dob@fa.test', true);
  const withoutDob = await booking('FLIGHT', ticket, 'no-dob@fa.test');
  const withDob = await booking('FLIGHT', ticket, 'dob@fa.test');
  const unknown = await booking('FLIGHT', ticket, 'nobody@fa.test');
  const hotel = await booking('HOTEL', room, 'no-dob@fa.test');
  const expected = new Map([
    [withoutDob, false],
    [withDob, true],
    [unknown, null],
    [hotel, null],
  ]);
  const facts = await reviewPageFacts(t.db, airlineId, [...expected.keys()]);
  expect(new Map(facts.bookings.map((b) => [b.booking_id, b.traveller_has_dob]))).toEqual(expected);

  for (const id of expected.keys()) await openItem(id);
  const page = await listQueue(t.db, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
  const read = new Map(page.flatMap((r) => (r.booking_facts ? [[r.booking_facts.booking_id, r.booking_facts]] : [])));
  for (const [id, hasDob] of expected) expect(read.get(id)?.traveller_has_dob).toBe(hasDob);
});

test('a page is one prepared statement: repeated, and after a column is added to action_items, it reads the same', async () => {
  const first = await listQueue(t.db, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
  for (let i = 0; i < 6; i++) await listQueue(t.db, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
  // A rolling deploy: a migration adds a column while this process runs. Its columns are listed, not `select *`.
  await sql`alter table action_items add column added_while_running text`.execute(t.db);
  try {
    const again = await listQueue(t.db, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
    expect(again).toEqual(first);
    expect(again[0]).not.toHaveProperty('added_while_running');
    expect(again[0]).not.toHaveProperty('airline_id');
  } finally {
    await sql`alter table action_items drop column added_while_running`.execute(t.db);
  }
});

test('a queue page has a generic plan worth running: after five runs Postgres takes it instead of planning each run', async () => {
  // Enough open items that a plan sorting them all costs far more than reading the partial index in order.
  await sql`insert into action_items (action_id, airline_id, item_key, source, type, subtype, classification, priority,
      disposition, auto_eligible, anchors, source_rows, details, review_status, due_by)
    select gen_random_uuid(), ${airlineId}, 'bulk-' || n, 'SCHEDULE_DIFF', 'HOTEL', 'NEW_BOOKING', 'NEW_LAYOVER', 'P3',
      'PENDING_REVIEW', false, '{}', '{}', '{}', 'OPEN', timestamptz '2027-03-01T10:00:00Z' + n * interval '1 minute'
    from generate_series(1, 5000) n`.execute(t.db);
  await sql`analyze action_items`.execute(t.db);
  const one = createDb(t.url, { max: 1 });
  try {
    for (let i = 0; i < 8; i++) {
      const first = await listQueue(one, airlineId, { review_status: 'OPEN' }, 'due_by', 50, null);
      const last = first[first.length - 2]!;
      await listQueue(one, airlineId, { review_status: 'OPEN' }, 'due_by', 50, {
        key: last.keyset_key,
        id: last.action_id,
      });
    }
    const plans = await sql<{ generic_plans: number; custom_plans: number }>`
      select generic_plans::int, custom_plans::int from pg_prepared_statements
      where statement like '%from "action_items"%'`.execute(one);
    expect(plans.rows).toHaveLength(2);
    for (const p of plans.rows) expect(p.generic_plans).toBeGreaterThanOrEqual(3);
  } finally {
    await one.destroy();
  }
});

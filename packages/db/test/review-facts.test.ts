import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
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

async function booking(type: 'HOTEL' | 'FLIGHT', block: object | null): Promise<string> {
  const id = randomUUID();
  await sql`insert into bookings (booking_id, airline_id, type, status, source, hotel, flight)
    values (${id}, ${airlineId}, ${type}, 'NEEDS_REVIEW', 'SCHEDULE_DIFF',
      ${type === 'HOTEL' && block ? JSON.stringify(block) : null}::jsonb,
      ${type === 'FLIGHT' && block ? JSON.stringify(block) : null}::jsonb)`.execute(t.db);
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

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { bookingRepo } from '../src';

/* A stay moved away from is recorded once per move and once per room (the old hotel's invoice finds it once). */

let t: TestDatabase;
let airlineId: string;
let bookingId: string;
beforeAll(async () => {
  t = await createTestDatabase('moved_stays');
  airlineId = randomUUID();
  bookingId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Moved Air', 'MA')`.execute(
    t.db,
  );
  await t.db
    .insertInto('bookings')
    .values({
      booking_id: bookingId,
      airline_id: airlineId,
      type: 'HOTEL',
      status: 'MODIFIED',
      source: 'SCHEDULE_DIFF',
      duty_date: '2027-03-03',
    } as never)
    .execute();
});
afterAll(() => t.drop());

const NIGHT = { amount: 180, currency: 'USD' };
const stay = (moveRef: string, over: Partial<bookingRepo.MovedStay> = {}): bookingRepo.MovedStay => ({
  booking_id: bookingId,
  move_ref: moveRef,
  airline_id: airlineId,
  property_id: 'GDS-JFK-001',
  confirmation_number: 'HR-1',
  check_in_date: '2027-03-03',
  check_out_date: '2027-03-04',
  contract_id: null,
  contracted_rate: null,
  cancellation_penalty: NIGHT,
  ...over,
});
const rows = () =>
  t.db
    .selectFrom('hotel_moved_stays')
    .select(['move_ref', 'confirmation_number', 'cancellation_penalty'])
    .where('booking_id', '=', bookingId)
    .orderBy('move_ref')
    .execute();

it('the same room under a second move (two tasks that cancelled it) is one stay: the first recorded stands', async () => {
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-1'));
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-2', { cancellation_penalty: null }));
  // The same move again (a retried task): nothing either.
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-1', { confirmation_number: 'HR-9' }));
  expect(await rows()).toEqual([{ move_ref: 'AMEND-1', confirmation_number: 'HR-1', cancellation_penalty: NIGHT }]);
});

it('another room of the booking (another number or other nights), or one with no number known, is another stay', async () => {
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-3', { confirmation_number: 'HR-2' }));
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-4', { check_in_date: '2027-03-02' }));
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-5', { confirmation_number: null }));
  await bookingRepo.recordMovedStay(t.db, stay('AMEND-6', { confirmation_number: null }));
  expect((await rows()).map((r) => r.move_ref)).toEqual(['AMEND-1', 'AMEND-3', 'AMEND-4', 'AMEND-5', 'AMEND-6']);
});

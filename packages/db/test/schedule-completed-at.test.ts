import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { finishProcessing } from '../src/schedules/schedule-lifecycle.repository';

/*
 * A schedule's completed_at is when its processing ended, not when the transaction that writes its results began:
 * a big roster's write takes seconds, and completed_at − started_at is what an integrator reads as its processing
 * time.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('schedule_completed_at');
});
afterAll(() => t.drop());

async function processingSchedule(): Promise<string> {
  const airlineId = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airlineId}, 'Clock Air', 'CK')`.execute(
    t.db,
  );
  const row = await t.db
    .insertInto('schedules')
    .values({
      airline_id: airlineId,
      external_ref: null,
      as_of: null,
      schedule_start_date: '2027-03-01',
      schedule_end_date: '2027-03-31',
      pairing_count: 0,
      status: 'PROCESSING',
      error: null,
      started_at: new Date(),
      completed_at: null,
    })
    .returning('schedule_id')
    .executeTakeFirstOrThrow();
  return row.schedule_id;
}

test('completed_at is the end of the write transaction, not its start', async () => {
  const scheduleId = await processingSchedule();
  const began = await t.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ began: Date }>`select now() as began`.execute(trx);
    // The write of the roster's rows, standing in.
    await sql`select pg_sleep(0.3)`.execute(trx);
    expect(await finishProcessing(trx, scheduleId, 'COMPLETED', { count: 0, ids: [] })).toBe(true);
    return rows[0]!.began;
  });
  const done = await t.db
    .selectFrom('schedules')
    .select(['status', 'completed_at'])
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  expect(done.status).toBe('COMPLETED');
  expect(done.completed_at!.getTime() - began.getTime()).toBeGreaterThanOrEqual(300);
});

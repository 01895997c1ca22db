import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The worker looks every 30 seconds for held cancellations whose hold ran out without their timer job firing
// (a job lost with Redis): the held bookings alone, by the end of their hold, instead of a scan of every booking.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index if not exists bookings_held_cancellation_idx on bookings ((cancellation -> 'hold' ->> 'hold_until'))
      where (cancellation -> 'hold' ->> 'status') = 'HELD'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_held_cancellation_idx`.execute(db);
}

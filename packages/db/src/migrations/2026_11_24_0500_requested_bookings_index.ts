import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The airline's own requested bookings the diff may adopt (booking.repository requestedLiveBookings)
// were found by reading every booking of the window through (airline_id, type, duty_date) and dropping the
// diff's own: 77-107 ms for an L roster's 165k bookings, inside every write transaction. Only bookings that are
// not the diff's and not yet tied to a roster row are entered here, so the diff's bookings cost no entry.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists bookings_requested_ix on bookings (airline_id, duty_date)
    where source <> 'SCHEDULE_DIFF' and duty_period_num is null and leg_sequence is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_requested_ix`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A diff reads a window's hotel bookings by the local date of their check-in as well as by their duty date (a stay
// checking in after midnight is stored with its duty period's date, the day before): an index of hotel bookings by
// that date, so the read stays an index read.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index if not exists bookings_hotel_checkin_date_idx on bookings (airline_id, (left(checkin_time_local, 10)))
      where type = 'HOTEL'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_hotel_checkin_date_idx`.execute(db);
}

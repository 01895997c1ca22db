import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A stay moved away from is one room at the old hotel: two tasks of the same booking may each cancel that room (one
// superseded after the supplier cancelled it, the newer one finding it still named on the booking) and each record
// the stay under its own move, and the old hotel's invoice would then find the room twice. One row per room (its
// hotel, confirmation number and dates) where the confirmation number is known: the first recorded stands.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    delete from hotel_moved_stays m
    using hotel_moved_stays o
    where o.booking_id = m.booking_id and o.property_id = m.property_id
      and o.confirmation_number = m.confirmation_number
      and o.check_in_date = m.check_in_date and o.check_out_date = m.check_out_date
      and (o.cancelled_at, o.move_ref) < (m.cancelled_at, m.move_ref)`.execute(db);
  await sql`
    create unique index if not exists hotel_moved_stays_room_key
      on hotel_moved_stays (booking_id, property_id, confirmation_number, check_in_date, check_out_date)
      where confirmation_number is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists hotel_moved_stays_room_key`.execute(db);
}

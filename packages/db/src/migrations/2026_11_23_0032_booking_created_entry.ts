import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A booking the schedule diff creates carries its first history entry ({status, reason}, at created_at, by
// the engine) in its own row instead of a booking_events row: one row, index entry and foreign-key check
// fewer per booking of a big roster. Null for bookings made elsewhere, which record an event.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings add column created_status text, add column created_reason text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings drop column created_status, drop column created_reason`.execute(db);
}

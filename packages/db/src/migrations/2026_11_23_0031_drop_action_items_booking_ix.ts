import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// No query looks action items up by booking_id (indexes nothing uses only slow the diff's writes).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists action_items_booking_ix`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists action_items_booking_ix on action_items (booking_id)`.execute(db);
}

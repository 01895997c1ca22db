import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The worker deletes webhook events past their retention with their finished deliveries: a delivery is found by its
// event. The same index serves the foreign key's cascade (deleting an event deletes its deliveries), which had none
// and would scan every delivery per event deleted.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists webhook_deliveries_event on webhook_deliveries (event_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists webhook_deliveries_event`.execute(db);
}

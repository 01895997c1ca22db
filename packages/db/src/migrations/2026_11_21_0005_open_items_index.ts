import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// "Any open item left in this schedule?" is asked after every booking task; without this index it scans
// every settled item of the schedule.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index action_items_open_ix on action_items (schedule_id) where disposition is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists action_items_open_ix`.execute(db);
}

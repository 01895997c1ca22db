import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// No query reads action items by (schedule_id, item_key), and nothing relies on the index to refuse a
// second item: a schedule's items are written by one transaction together with its move out of PROCESSING (a
// retry after a crash writes them again only because the first attempt left nothing), and the engine gives every
// item of a diff its own key (a property test holds it). Keeping it up cost the L first submission's 172k items
// 279 ms of Postgres CPU, more than any other index of action_items (measured 2026-11-24).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists action_items_schedule_key_uq`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create unique index if not exists action_items_schedule_key_uq on action_items (schedule_id, item_key) where schedule_id is not null`.execute(
    db,
  );
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The deadline an action item is due by instead of the review rules' bounds (a roster cancellation a person
// decides on: the hotel's cancellation deadline), so an assignment or a settings change that dates the item again
// keeps it. Nullable without a default, so adding it rewrites no row of a large action_items table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items add column if not exists review_deadline timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items drop column if exists review_deadline`.execute(db);
}

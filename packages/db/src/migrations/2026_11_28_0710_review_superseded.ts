import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An action item a later roster replaced: the item of that roster which took over its booking. Nullable without a
// default, so adding it rewrites no row of a large action_items table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items add column if not exists superseded_by uuid`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items drop column if exists superseded_by`.execute(db);
}

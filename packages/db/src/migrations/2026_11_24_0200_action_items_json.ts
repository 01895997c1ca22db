import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An action item's anchors, source_rows and details are written once by the diff and only ever read
// whole (no query looks inside them, none compares them), so they are stored as json, not jsonb: Postgres then
// only checks the text instead of building jsonb's binary form, ~10 % of the COPY of a big roster's items.
// Their text keeps the engine's key order.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items
    alter column anchors type json using anchors::json,
    alter column source_rows type json using source_rows::json,
    alter column details drop default,
    alter column details type json using details::json,
    alter column details set default '{}'::json`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items
    alter column anchors type jsonb using anchors::jsonb,
    alter column source_rows type jsonb using source_rows::jsonb,
    alter column details drop default,
    alter column details type jsonb using details::jsonb,
    alter column details set default '{}'::jsonb`.execute(db);
}

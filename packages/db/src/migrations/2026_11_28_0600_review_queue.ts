import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The review queue a travel desk works: each action item's review status, deadline, the person who acted and
// what they did, who it is assigned to, and when its due-soon warning went out; each airline's review settings.
// Added columns are nullable without defaults, so adding them rewrites no row of a large action_items table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table action_items
      add column if not exists review_status text,
      add column if not exists due_by timestamptz,
      add column if not exists action_taken text,
      add column if not exists action_taken_at timestamptz,
      add column if not exists action_taken_by text,
      add column if not exists action_reason text,
      add column if not exists assignee text,
      add column if not exists due_soon_at timestamptz
  `.execute(db);
  // The airline-wide queue: open items by deadline (keyset on due_by, action_id), and the escalation's scan.
  await sql`
    create index if not exists action_items_open_due_idx on action_items (airline_id, due_by, action_id)
      where review_status = 'OPEN'
  `.execute(db);
  // The airline-wide list by creation (keyset on created_at, action_id).
  await sql`create index if not exists action_items_airline_created_idx on action_items (airline_id, created_at, action_id)`.execute(
    db,
  );
  await sql`
    create table if not exists review_settings (
      airline_id uuid primary key references airlines (airline_id) on delete cascade,
      lead_time_minutes integer not null,
      due_soon_minutes integer not null,
      priority_targets_minutes jsonb not null,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists review_settings`.execute(db);
  await sql`drop index if exists action_items_airline_created_idx`.execute(db);
  await sql`drop index if exists action_items_open_due_idx`.execute(db);
  await sql`
    alter table action_items
      drop column if exists review_status,
      drop column if exists due_by,
      drop column if exists action_taken,
      drop column if exists action_taken_at,
      drop column if exists action_taken_by,
      drop column if exists action_reason,
      drop column if exists assignee,
      drop column if exists due_soon_at
  `.execute(db);
}

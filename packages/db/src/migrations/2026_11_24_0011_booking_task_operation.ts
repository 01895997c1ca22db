import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The operation of a booking's current task (BOOK, AMEND, CANCEL) in its own column, so a retry reads it
// instead of splitting task_ref. Rows written before it take it from task_ref's prefix once, here.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings add column task_operation text check (task_operation in ('BOOK', 'AMEND', 'CANCEL'))`.execute(
    db,
  );
  await sql`update bookings set task_operation = case split_part(task_ref, '-', 1) when 'AMEND' then 'AMEND' when 'CANCEL' then 'CANCEL' else 'BOOK' end
    where task_ref is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings drop column task_operation`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A retry job's bookings that a later retry job took over: how many had succeeded and how many not when they
// left it. The job's progress adds these to the bookings it still holds. A constant default, so adding the
// columns rewrites no row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table retry_jobs
    add column if not exists left_succeeded integer not null default 0,
    add column if not exists left_failed integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table retry_jobs drop column if exists left_succeeded, drop column if exists left_failed`.execute(db);
}

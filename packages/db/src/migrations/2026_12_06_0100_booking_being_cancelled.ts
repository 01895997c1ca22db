import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The room or ticket a superseded task is having cancelled at the supplier (engine BeingCancelled: supplier,
// supplier_ref, task), written under the booking's lock with that judgment and cleared when the cancellation is
// recorded, so a task of the booking that finds it meanwhile does not keep it. Nullable without a default: adding it
// rewrites no row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings add column if not exists being_cancelled jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings drop column if exists being_cancelled`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A PNR a person recorded on a booking whose last order's answer was lost (RECORD_PNR on a FAILED booking): that
// order may have ticketed all the same, beside the recorded seat. `stray_order_reference` is the reference it went
// under, until the worker has looked it up there (and cancelled what it found); `stray_order_due_at` when the worker
// looks next (a lease while it does). Nullable without defaults, so adding them rewrites no row; the partial index
// holds only the bookings still to look at, so the worker's frequent pass reads an empty index almost always.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings add column if not exists stray_order_reference text`.execute(db);
  await sql`alter table bookings add column if not exists stray_order_due_at timestamptz`.execute(db);
  await sql`
    create index if not exists bookings_stray_order_due_idx on bookings (stray_order_due_at)
      where stray_order_reference is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_stray_order_due_idx`.execute(db);
  await sql`alter table bookings drop column if exists stray_order_due_at`.execute(db);
  await sql`alter table bookings drop column if exists stray_order_reference`.execute(db);
}

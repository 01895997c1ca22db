import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The supplier reference of a booking's latest order (a ticket, a room) when it is not the first booking's
// `bk-<booking>`: a rebook's own, or one a person's choice replaces. A later task looks an order whose answer was
// lost up under it. Nullable without a default, so adding it rewrites no row of a large bookings table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings add column if not exists order_reference text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings drop column if exists order_reference`.execute(db);
}

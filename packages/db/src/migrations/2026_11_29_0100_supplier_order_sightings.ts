import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Orders a supplier announced (Duffel's order.created event), kept so that a booking whose order call timed out
// reads the announced order directly before it scans the supplier's order list or orders again.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table if not exists supplier_order_sightings (
      airline_id uuid not null references airlines (airline_id) on delete cascade,
      supplier text not null,
      supplier_ref text not null,
      reference text,
      event_id text not null,
      seen_at timestamptz not null default now(),
      primary key (airline_id, supplier, supplier_ref)
    )`.execute(db);
  await sql`
    create index if not exists supplier_order_sightings_reference_ix
      on supplier_order_sightings (airline_id, supplier, reference)`.execute(db);
  await sql`
    create index if not exists supplier_order_sightings_seen_ix
      on supplier_order_sightings (airline_id, supplier, seen_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists supplier_order_sightings`.execute(db);
}

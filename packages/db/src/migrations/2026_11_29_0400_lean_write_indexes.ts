import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Two indexes every roster's write paid for and no query needed:
// - action_items by (airline_id, created_at, action_id): the airline-wide list in creation order reads the
//   (airline_id, seq) index instead, as the per-schedule list does;
// - an entry per hotel booking without a property (every booking waiting for a person or a supplier) in the
//   index of hotel bookings by property, which the invoices' stays read looks up by a property_id only.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists action_items_airline_created_idx`.execute(db);
  await sql`drop index if exists bookings_hotel_property_idx`.execute(db);
  await sql`
    create index if not exists bookings_hotel_property_idx on bookings (airline_id, (hotel->>'property_id'))
      where type = 'HOTEL' and hotel->>'property_id' is not null
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_hotel_property_idx`.execute(db);
  await sql`
    create index if not exists bookings_hotel_property_idx on bookings (airline_id, (hotel->>'property_id'))
      where type = 'HOTEL'
  `.execute(db);
  await sql`create index if not exists action_items_airline_created_idx on action_items (airline_id, created_at, action_id)`.execute(
    db,
  );
}

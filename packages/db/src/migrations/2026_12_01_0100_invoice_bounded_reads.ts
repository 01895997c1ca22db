import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An invoice's reconciliation reads what its lines can touch instead of the hotel's whole history
// (invoice-reads.ts in the engine):
// - the dates its lines look stays up on, stored with the invoice at intake (lines_from, lines_to: exclusive);
// - the stays by hotel and check-out date: this index replaces the one by hotel, whose two columns lead it, so the
//   previous release's read by hotel uses it as it used the old one; and the stays by their confirmation number's
//   read key (its digits), for the few numbers a line names beyond those dates;
// - the span of dates what it billed can touch (billed_from, billed_to), stored as reconciled: a later invoice
//   reads the billed nights of the invoices whose span meets its own.
// All nullable: an invoice stored or reconciled by the previous release has none, and is read as before (every
// stay, and compared with every later invoice).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table invoices
      add column if not exists lines_from date,
      add column if not exists lines_to date,
      add column if not exists billed_from date,
      add column if not exists billed_to date`.execute(db);
  // Dates compared as the engine compares them, byte by byte, whatever the database's collation.
  await sql`
    create index if not exists bookings_hotel_stays_idx on bookings (
      airline_id, (hotel->>'property_id'),
      (coalesce(hotel->>'check_out_date', left(checkout_time_local, 10))) collate "C")
    where type = 'HOTEL' and hotel->>'property_id' is not null`.execute(db);
  await sql`drop index if exists bookings_hotel_property_idx`.execute(db);
  await sql`
    create index if not exists bookings_hotel_confirmation_idx on bookings (
      airline_id, (hotel->>'property_id'), (regexp_replace(hotel->>'confirmation_number', '[^0-9]', '', 'g')))
    where type = 'HOTEL' and hotel->>'property_id' is not null and hotel->>'confirmation_number' is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_hotel_confirmation_idx`.execute(db);
  await sql`
    create index if not exists bookings_hotel_property_idx on bookings (airline_id, (hotel->>'property_id'))
      where type = 'HOTEL' and hotel->>'property_id' is not null`.execute(db);
  await sql`drop index if exists bookings_hotel_stays_idx`.execute(db);
  await sql`
    alter table invoices
      drop column if exists lines_from,
      drop column if exists lines_to,
      drop column if exists billed_from,
      drop column if exists billed_to`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Hotel invoices checked against the bookings: the invoice (unique per airline, hotel and number), the lines as
// posted with what reconciliation found, and the room-nights and one-time fees each airline was billed for at
// each hotel, so a night billed again on a later invoice is a duplicate.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table if not exists invoices (
      invoice_id uuid primary key default gen_random_uuid(),
      airline_id uuid not null references airlines (airline_id) on delete cascade,
      property_id text not null,
      invoice_number text not null,
      currency text not null,
      status text not null,
      error text,
      line_count integer not null,
      counts jsonb,
      total_billed numeric not null,
      total_disputed numeric not null default 0,
      created_at timestamptz not null default now(),
      reconciled_at timestamptz,
      constraint invoices_number_key unique (airline_id, property_id, invoice_number)
    )
  `.execute(db);
  // The lines as posted, compressed, until the worker has reconciled them (then dropped).
  await sql`
    create table if not exists invoice_payloads (
      invoice_id uuid primary key references invoices (invoice_id) on delete cascade,
      lines_gz bytea not null
    )
  `.execute(db);
  await sql`
    create table if not exists invoice_lines (
      invoice_id uuid not null references invoices (invoice_id) on delete cascade,
      line_number integer not null,
      airline_id uuid not null,
      property_id text not null,
      check_in_date date not null,
      line jsonb not null,
      status text not null,
      booking_id uuid,
      billed_amount numeric not null,
      disputed_amount numeric not null,
      disputed_currency text not null,
      findings jsonb not null,
      needs_review jsonb not null,
      primary key (invoice_id, line_number)
    )
  `.execute(db);
  // What was disputed per booking (the spend report sums it by the stay's dates).
  await sql`
    create index if not exists invoice_lines_booking_idx on invoice_lines (airline_id, booking_id)
      where booking_id is not null
  `.execute(db);
  // An invoice's reconciliation reads the airline's stays at one hotel: without this, each invoice scanned every
  // hotel booking of the airline and read its jsonb.
  await sql`
    create index if not exists bookings_hotel_property_idx on bookings (airline_id, (hotel->>'property_id'))
      where type = 'HOTEL'
  `.execute(db);
  await sql`
    create table if not exists invoice_billed_keys (
      airline_id uuid not null references airlines (airline_id) on delete cascade,
      property_id text not null,
      key text not null,
      invoice_id uuid not null references invoices (invoice_id) on delete cascade,
      line_number integer not null,
      primary key (airline_id, property_id, key)
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists invoice_billed_keys`.execute(db);
  await sql`drop index if exists bookings_hotel_property_idx`.execute(db);
  await sql`drop table if exists invoice_lines`.execute(db);
  await sql`drop table if exists invoice_payloads`.execute(db);
  await sql`drop table if exists invoices`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The stays a hotel booking moved away from (a roster's move to another hotel cancels the old room and books the
// new one on the same booking): the old hotel, its confirmation number, the old room's dates and contract, and the
// late fee its cancellation cost (null: in time, or no terms). The old hotel's invoice matches its lines to these,
// since the booking itself names the new hotel. One row per move (its task's ref); read by hotel and check-out
// date, and by a confirmation number's digits, as the bookings' stays are.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table if not exists hotel_moved_stays (
      booking_id uuid not null references bookings (booking_id) on delete cascade,
      move_ref text not null,
      airline_id uuid not null,
      property_id text not null,
      confirmation_number text,
      check_in_date text not null,
      check_out_date text not null,
      contract_id bigint,
      contracted_rate jsonb,
      cancellation_penalty jsonb,
      cancelled_at timestamptz not null default now(),
      primary key (booking_id, move_ref)
    )`.execute(db);
  await sql`
    create index if not exists hotel_moved_stays_idx
      on hotel_moved_stays (airline_id, property_id, check_out_date collate "C")`.execute(db);
  await sql`
    create index if not exists hotel_moved_stays_confirmation_idx
      on hotel_moved_stays (airline_id, property_id, (regexp_replace(confirmation_number, '[^0-9]', '', 'g')))
      where confirmation_number is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists hotel_moved_stays`.execute(db);
}

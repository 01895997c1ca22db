import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Cost control: a hotel contract's cancellation terms (the deadline in the hotel's time zone and the fees),
// whether the airline pays incidentals there, the airline's cost settings (the roster cancellation hold and what
// happens after the deadline), a booking's cancellation until it is made (the fee it records or avoids, and a
// roster cancellation's hold: HELD until released or kept), and the held item's held_until.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table hotel_contracts
      add column if not exists cancellation_terms jsonb,
      add column if not exists hotel_time_zone text,
      add column if not exists incidentals_covered boolean not null default false
  `.execute(db);
  await sql`
    create table if not exists cost_settings (
      airline_id uuid primary key references airlines (airline_id) on delete cascade,
      cancel_hold_minutes integer not null,
      after_deadline text not null,
      updated_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`alter table bookings add column if not exists cancellation jsonb`.execute(db);
  // The held cancellations a roster may bring back: few rows, read by every schedule of the airline.
  await sql`
    create index if not exists bookings_held_cancellation_idx on bookings (airline_id)
    where (cancellation -> 'hold' ->> 'status') = 'HELD'
  `.execute(db);
  await sql`alter table action_items add column if not exists held_until timestamptz`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items drop column if exists held_until`.execute(db);
  await sql`drop index if exists bookings_held_cancellation_idx`.execute(db);
  await sql`alter table bookings drop column if exists cancellation`.execute(db);
  await sql`drop table if exists cost_settings`.execute(db);
  await sql`
    alter table hotel_contracts
      drop column if exists cancellation_terms,
      drop column if exists hotel_time_zone,
      drop column if exists incidentals_covered
  `.execute(db);
}

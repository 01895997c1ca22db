import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Cost control: a hotel contract's cancellation terms (the deadline in the hotel's time zone and the fees),
// whether the airline pays incidentals there, the airline's cost settings (the roster cancellation hold and what
// happens after the deadline), and a booking's held roster cancellation (HELD until released or kept).
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
  await sql`alter table bookings add column if not exists cancel_hold jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table bookings drop column if exists cancel_hold`.execute(db);
  await sql`drop table if exists cost_settings`.execute(db);
  await sql`
    alter table hotel_contracts
      drop column if exists cancellation_terms,
      drop column if exists hotel_time_zone,
      drop column if exists incidentals_covered
  `.execute(db);
}

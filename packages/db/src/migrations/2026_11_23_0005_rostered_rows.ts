import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The latest processed roster's layovers and DH legs as rows (roster_states keeps it as gzip JSON, which no
// query can read): the coverage monitor joins them to the bookings. The diff rewrites an airline's rows
// dated inside each processed window, in its own transaction.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table rostered_layovers (
    airline_id uuid not null references airlines (airline_id) on delete cascade,
    -- The local date of check-in: the date the diff's window judges the row by.
    roster_date date not null,
    row_key text not null,
    employee_id text not null,
    pairing_number text not null,
    duty_period_num integer not null,
    duty_date date not null,
    traveller_email text,
    station text not null,
    checkin_time_local text not null,
    checkout_time_local text not null,
    checkin_at timestamptz not null,
    -- The layover's identity (as the diff keys it) first: coverage looks a booking's layover up by it.
    primary key (airline_id, employee_id, pairing_number, duty_period_num, roster_date)
  )`.execute(db);
  await sql`create index rostered_layovers_checkin_ix on rostered_layovers (airline_id, checkin_at)`.execute(db);

  await sql`create table rostered_deadheads (
    airline_id uuid not null references airlines (airline_id) on delete cascade,
    -- The leg's duty date: the date the diff's window judges the row by.
    roster_date date not null,
    row_key text not null,
    employee_id text not null,
    pairing_number text not null,
    duty_period_num integer not null,
    leg_sequence integer not null,
    traveller_email text,
    from_airport text not null,
    to_airport text not null,
    flight_number text,
    dep_time_local text not null,
    arr_time_local text not null,
    dep_at timestamptz not null,
    primary key (airline_id, employee_id, pairing_number, roster_date, leg_sequence)
  )`.execute(db);
  await sql`create index rostered_deadheads_dep_ix on rostered_deadheads (airline_id, dep_at)`.execute(db);

  // Layovers the coverage monitor last saw AT_RISK inside the next 24 h: a row inserted here is one that just
  // became at risk (its coverage.at_risk event is sent once, by whichever worker inserts it first).
  await sql`create table coverage_at_risk (
    airline_id uuid not null references airlines (airline_id) on delete cascade,
    row_key text not null,
    checkin_at timestamptz not null,
    since timestamptz not null default now(),
    primary key (airline_id, row_key)
  )`.execute(db);

  // Rosters processed before this migration: their live roster bookings stand for them (each holds the
  // roster's last wish for its stay or leg), until the airline's next roster rewrites its window.
  await sql`insert into rostered_layovers
    select distinct on (airline_id, employee_id, pairing_number, duty_period_num, left(checkin_time_local, 10)::date) airline_id, left(checkin_time_local, 10)::date, row_key, employee_id, pairing_number, duty_period_num, coalesce(duty_date, left(checkin_time_local, 10)::date),
      traveller_email, station, checkin_time_local, checkout_time_local, checkin_time_local::timestamptz
    from (select *, employee_id || '|' || pairing_number || '|' || duty_period_num as row_key from bookings
      where type = 'HOTEL' and source = 'SCHEDULE_DIFF' and status <> 'CANCELLED' and not pending_cancel
        and employee_id is not null and pairing_number is not null and duty_period_num is not null
        and station is not null and checkin_time_local is not null and checkout_time_local is not null) b
    order by airline_id, employee_id, pairing_number, duty_period_num, left(checkin_time_local, 10)::date, seq desc`.execute(
    db,
  );
  await sql`insert into rostered_deadheads
    select distinct on (airline_id, employee_id, pairing_number, duty_date, leg_sequence) airline_id, duty_date, row_key, employee_id, pairing_number, coalesce(duty_period_num, 0), leg_sequence, traveller_email,
      from_airport, to_airport, flight_number, dep_time_local, arr_time_local, dep_time_local::timestamptz
    from (select *, employee_id || '|' || pairing_number || '|' || duty_date || '|' || leg_sequence as row_key from bookings
      where type = 'FLIGHT' and source = 'SCHEDULE_DIFF' and status <> 'CANCELLED' and not pending_cancel
        and employee_id is not null and pairing_number is not null and duty_date is not null and leg_sequence is not null
        and from_airport is not null and to_airport is not null and dep_time_local is not null and arr_time_local is not null) b
    order by airline_id, employee_id, pairing_number, duty_date, leg_sequence, seq desc`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists coverage_at_risk`.execute(db);
  await sql`drop table if exists rostered_deadheads`.execute(db);
  await sql`drop table if exists rostered_layovers`.execute(db);
}

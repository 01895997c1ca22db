import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A booking leaving PENDING (its supplier task settled) notifies channel `booking_settled` with its id.
// Postgres delivers a NOTIFY when the settling transaction commits, never before and never for a rollback:
// the api's PATCH and DELETE wait on it for the outcome instead of polling the row.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create function notify_booking_settled() returns trigger language plpgsql as $$
    begin
      perform pg_notify('booking_settled', new.booking_id::text);
      return null;
    end $$`.execute(db);
  await sql`create trigger bookings_settled_notify after update of status on bookings
    for each row when (old.status = 'PENDING' and new.status <> 'PENDING') execute function notify_booking_settled()`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists bookings_settled_notify on bookings`.execute(db);
  await sql`drop function if exists notify_booking_settled()`.execute(db);
}

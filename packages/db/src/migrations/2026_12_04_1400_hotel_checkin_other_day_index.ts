import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The index of hotel bookings by check-in date only has to find those whose check-in date is not their duty date
// (a check-in after midnight): the others a window read finds by duty_date. Indexing every hotel booking cost the
// first submission of a big roster about 7 % of its time. The date is spelled with immutable parts (duty_date::text
// and to_char depend on settings, which an index predicate may not); window-bookings.ts repeats it word for word so
// that the planner can prove its read implies this predicate.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create index if not exists bookings_hotel_checkin_other_day_idx on bookings (airline_id, (left(checkin_time_local, 10)))
      where type = 'HOTEL'
        and (lpad(extract(year from duty_date)::text, 4, '0') || '-' || lpad(extract(month from duty_date)::text, 2, '0')
          || '-' || lpad(extract(day from duty_date)::text, 2, '0')) is distinct from left(checkin_time_local, 10)`.execute(
    db,
  );
  await sql`drop index if exists bookings_hotel_checkin_date_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create index if not exists bookings_hotel_checkin_date_idx on bookings (airline_id, (left(checkin_time_local, 10)))
      where type = 'HOTEL'`.execute(db);
  await sql`drop index if exists bookings_hotel_checkin_other_day_idx`.execute(db);
}

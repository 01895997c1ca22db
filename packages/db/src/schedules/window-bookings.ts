import { sql, type RawBuilder } from 'kysely';

/**
 * A hotel booking whose check-in date is not its duty date (a check-in after midnight, or no duty date): the rows of
 * index bookings_hotel_checkin_other_day_idx, whose predicate this is word for word (so the planner can use it; see
 * that migration for why the date is spelled out).
 */
const HOTEL_CHECKIN_OTHER_DAY = sql`type = 'HOTEL'
      and (lpad(extract(year from duty_date)::text, 4, '0') || '-' || lpad(extract(month from duty_date)::text, 2, '0')
        || '-' || lpad(extract(day from duty_date)::text, 2, '0')) is distinct from left(checkin_time_local, 10)`;

/**
 * The bookings a diff in the window reads (the engine's readInWindow, docs/roster-rules.md "Window"): every booking
 * dated inside it (a hotel booking by the local date of its check-in, a flight booking by its duty_date), and a hotel
 * booking whose duty_date is inside it. A hotel booking that checks in on its duty date is found by duty_date, so
 * only the others are looked for by check-in date.
 */
export function readInWindow(window: { start: string; end: string }): RawBuilder<boolean> {
  return sql<boolean>`(duty_date between ${window.start}::date and ${window.end}::date
    or (${HOTEL_CHECKIN_OTHER_DAY} and left(checkin_time_local, 10) between ${window.start}::text and ${window.end}::text))`;
}

import { sql, type RawBuilder } from 'kysely';

/**
 * The bookings a diff in the window reads (the engine's readInWindow, docs/roster-rules.md "Window"): every booking
 * dated inside it (a hotel booking by the local date of its check-in, a flight booking by its duty_date), and a hotel
 * booking whose duty_date is inside it. The diff's read and the fingerprints of what it read select these same rows.
 * Hotel bookings by check-in date: index bookings_hotel_checkin_date_idx.
 */
export function readInWindow(window: { start: string; end: string }): RawBuilder<boolean> {
  return sql<boolean>`(duty_date between ${window.start}::date and ${window.end}::date
    or (type = 'HOTEL' and left(checkin_time_local, 10) between ${window.start}::text and ${window.end}::text))`;
}

import { inWindow, localDateOf, type DateWindow } from './time';

/*
 * Which bookings a diff in a window looks at (docs/roster-rules.md, Window): one definition for the diff and for the
 * read of a window's bookings in the db package (diffWriteRepo.bookingsInWindow, and the window fingerprints over
 * what it reads), which selects exactly the bookings readInWindow holds for.
 */

/**
 * The date the diff judges a hotel booking by: the local date of its check-in. Its stored duty_date is its duty
 * period's, the day before for a check-in after midnight.
 */
export function hotelBookingDate(b: { checkin_time_local: string }): string {
  return localDateOf(b.checkin_time_local);
}

/** A booking as stored, with what it is dated by. */
export interface DatedBooking {
  type: 'HOTEL' | 'FLIGHT';
  duty_date: string | null;
  checkin_time_local: string | null;
}

/** The date the diff judges a booking by: a hotel's check-in date, a flight's duty date (null: never in a window). */
export function bookingDateOf(b: DatedBooking): string | null {
  if (b.type === 'FLIGHT') return b.duty_date;
  return b.checkin_time_local === null ? null : hotelBookingDate({ checkin_time_local: b.checkin_time_local });
}

/**
 * Whether a diff in `window` reads the booking: every booking dated inside it (bookingDateOf), which the diff may
 * reconcile, and a hotel booking stored with a duty date inside it that checks in outside it (after midnight past
 * the window's end): seen, its key is left alone, where unseen its layover would be booked a second time.
 */
export function readInWindow(b: DatedBooking, window: DateWindow): boolean {
  const date = bookingDateOf(b);
  if (date !== null && inWindow(date, window)) return true;
  return b.type === 'HOTEL' && b.duty_date !== null && inWindow(b.duty_date, window);
}

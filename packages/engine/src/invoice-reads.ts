import type { DateSpan } from '@crew/contracts';
import {
  isCalendarDate,
  isIsoDate,
  lineLookupEnd,
  sharesNight,
  staysWithConfirmation,
  type InvoiceBookingIndex,
  type InvoiceLine,
} from './invoice-index';
import { addDays } from './time';

/*
 * What reconciling an invoice must read, and no more, whatever the length of the hotel's history: the stays its
 * lines can be matched to (by their dates, or by a confirmation number a line names, whatever that stay's dates:
 * invoiceBookingOf) and the nights and fees earlier invoices billed that its lines could bill again. Until
 * 2026-12-01 every invoice read all of the airline's stays at the hotel and everything billed there before.
 */

/**
 * The dates an invoice's lines look stays up on: from the earliest check-in to the latest end of a line's nights
 * (exclusive), which is its check-out, or the day after its check-in for a line of fees only. Every stay a line
 * can find by its guest overlaps it: it ends after `from` and begins before `to`. Null when a line's dates are not
 * calendar dates (then every stay is read, as before).
 */
export function invoiceLookupSpan(
  lines: Iterable<Pick<InvoiceLine, 'check_in_date' | 'check_out_date'>>,
): DateSpan | null {
  let from: string | null = null;
  let lastIn = '';
  let lastOut = '';
  for (const l of lines) {
    const checkIn = l.check_in_date;
    const checkOut = l.check_out_date;
    if (!isIsoDate(checkIn) || !isIsoDate(checkOut)) return null;
    if (from === null || checkIn < from) from = checkIn;
    if (checkIn > lastIn) lastIn = checkIn;
    if (checkOut > lastOut) lastOut = checkOut;
  }
  if (from === null || !isCalendarDate(from) || !isCalendarDate(lastIn)) return null;
  // A line ends at its check-out or the day after its check-in, whichever it is: the latest of either bounds all.
  const afterLastIn = addDays(lastIn, 1);
  const to = lastOut > afterLastIn ? lastOut : afterLastIn;
  return isCalendarDate(to) ? { from, to } : null;
}

/** What a line's stay is looked up by: the fields the reads before matching need. */
export type InvoiceLineLookup = Pick<InvoiceLine, 'confirmation_number' | 'check_in_date' | 'check_out_date'>;

/**
 * The key a stay is read by for a confirmation number: its ASCII digits. Two numbers the matching takes as one
 * (upper-cased, without spaces and hyphens) have the same digits, so reading the stays whose number has a line's
 * key reads every stay that line can name (and perhaps a few more, which the matching passes over).
 */
export function confirmationReadKey(confirmation: string): string {
  return confirmation.replace(/[^0-9]/g, '');
}

/**
 * The read keys of the confirmation numbers that the stays read so far (`index`) cannot settle: a line's number
 * names none of them that shares a night with the line. Among the stays a number names, one sharing a night with
 * the line always outranks one that shares none (invoiceBookingOf), and every stay that shares a night with a line
 * lies in the lookup span, so was read. Only for the other lines can a stay beyond the span be the one matched, or
 * decide that the number names a stay at all: only their numbers are read beyond the span.
 */
export function unsettledConfirmationKeys(
  lines: Iterable<InvoiceLineLookup>,
  property: string,
  index: InvoiceBookingIndex,
): string[] {
  const keys = new Set<string>();
  for (const line of lines) {
    const confirmation = line.confirmation_number;
    if (!confirmation) continue;
    const from = line.check_in_date;
    const to = lineLookupEnd(line);
    const named = staysWithConfirmation(index, property, confirmation);
    if (!named?.some((b) => sharesNight(b, from, to))) keys.add(confirmationReadKey(confirmation));
  }
  return [...keys];
}

/**
 * The dates whatever an invoice bills can touch: its lines' dates and those of every stay read for it. A night
 * billed twice lies in both invoices' lines; a one-time fee (a no-show) is billed on one booking, a stay both
 * invoices read. So an earlier invoice whose span does not meet this one's billed nothing this one can repeat.
 * Null (compare with everything) without a lookup span or with a stay whose dates are not calendar dates.
 */
export function invoiceBilledSpan(
  lookup: DateSpan | null,
  stays: Iterable<{ check_in_date: string; check_out_date: string }>,
): DateSpan | null {
  if (lookup === null) return null;
  let { from, to } = lookup;
  for (const s of stays) {
    if (!isIsoDate(s.check_in_date) || !isIsoDate(s.check_out_date)) return null;
    if (s.check_in_date < from) from = s.check_in_date;
    if (s.check_out_date > to) to = s.check_out_date;
  }
  return isCalendarDate(from) && isCalendarDate(to) ? { from, to } : null;
}

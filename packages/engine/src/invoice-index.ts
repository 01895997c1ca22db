import {
  INVOICE_FEE_TYPES,
  INVOICE_LINE_STATUSES,
  type BookingStatus,
  type Money,
  type RatePeriod,
} from '@crew/contracts';
import type { CancellationTerms } from './cancellation-terms';
import { normaliseGuestName } from './guest-names';
import { addDays } from './time';

/*
 * What an invoice is matched against: its lines and statuses, the airline's hotel bookings and their index.
 * The bookings are indexed once per batch (by confirmation number, and by guest, property and night), so a
 * line finds its booking by a few map lookups, never a scan of the bookings.
 */

// The fee types and line statuses are the contract's (one list for the api's schema and the rules here).
export { INVOICE_FEE_TYPES, INVOICE_LINE_STATUSES };
export type InvoiceFeeType = (typeof INVOICE_FEE_TYPES)[number];

export interface InvoiceFee {
  type: InvoiceFeeType;
  amount: Money;
}

export interface InvoiceLine {
  line_number: number;
  confirmation_number?: string | null;
  /** The guest: the airline's employee id, or the name as the hotel writes it. */
  employee_id?: string | null;
  guest_name?: string | null;
  check_in_date: string;
  check_out_date: string;
  /** Room-nights charged (0 on a line of fees only). */
  nights: number;
  nightly_rate: Money;
  taxes: Money;
  fees?: readonly InvoiceFee[];
}

/** What matching needs of a HOTEL booking. */
export interface InvoiceBooking {
  booking_id: string;
  status: BookingStatus;
  property_id: string;
  confirmation_number?: string | null;
  employee_id?: string | null;
  /** The traveller's name (matched by normaliseGuestName). */
  guest_name?: string | null;
  check_in_date: string;
  check_out_date: string;
  /** The contract whose rates and terms apply (a key of `contracts`, compared as text). */
  contract_id?: string | number | null;
  /** hotel.contracted_rate: the rate of a night no rate period covers. */
  contracted_rate?: Money | null;
  /** hotel.cancellation_penalty: set when the booking was cancelled after the deadline. */
  cancellation_penalty?: Money | null;
}

export interface InvoiceContract {
  rate_periods: readonly RatePeriod[];
  /** The terms in force for the stay (the no-show fee the airline agreed to). */
  cancellation_terms?: CancellationTerms | null;
  /** The airline pays incidentals at this hotel (false unless the contract says so). */
  incidentals_covered?: boolean;
}

export type InvoiceLineStatus = (typeof INVOICE_LINE_STATUSES)[number];

export interface InvoiceFinding {
  status: Exclude<InvoiceLineStatus, 'MATCHED'>;
  /** What this rule alone disputes, in the line's currency. */
  disputed: Money;
}

export interface InvoiceLineResult {
  line_number: number;
  /** The first status that applies. */
  status: InvoiceLineStatus;
  booking_id: string | null;
  /** The amount disputed, in the line's currency: the whole line, or the sum of every partial finding. */
  disputed: Money;
  /** Room-nights the line charges. */
  nights_billed: number;
  /** The dates of those nights that lie in its check-in..check-out. */
  billed_dates: string[];
  /** What the line bills (room-nights, one-time fees) as keys: added to the airline's billed set after it. */
  billed_keys: string[];
  /** Every rule that applies, in status order. */
  findings: InvoiceFinding[];
  /** Comparisons that could not be made (no exchange rate, no contracted rate): a person checks the line. */
  needs_review: string[];
}

// ---- dates ----

/** Days since the epoch of a `YYYY-MM-DD` date (Date.UTC, no string formatting: a batch reads millions). */
export function dayNumber(date: string): number {
  return Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) / 86_400_000;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const daysInMonth = (y: number, m: number) =>
  m === 2
    ? y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
      ? 29
      : 28
    : m === 4 || m === 6 || m === 9 || m === 11
      ? 30
      : 31;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The number written by the digits of `text` from `from` up to `to`. */
function digitsOf(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/** dayNumber of a date known to be `YYYY-MM-DD`, read digit by digit (no substring per part). */
function dayOfIsoDate(date: string): number {
  return Date.UTC(digitsOf(date, 0, 4), digitsOf(date, 5, 7) - 1, digitsOf(date, 8, 10)) / 86_400_000;
}

/** Dates by day number, each written once: the nights of a batch's 100k lines are a few hundred dates. */
const dateTexts = new Map<number, string>();
const MAX_DATE_TEXTS = 50_000;

function dateOfDay(day: number): string {
  let text = dateTexts.get(day);
  if (text === undefined) {
    const t = new Date(day * 86_400_000);
    text = `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`;
    if (dateTexts.size < MAX_DATE_TEXTS) dateTexts.set(day, text);
  }
  return text;
}

/** Written as `YYYY-MM-DD` (perhaps not a day of the calendar: 2027-02-30). */
export function isIsoDate(date: string): boolean {
  return ISO_DATE.test(date);
}

/** A `YYYY-MM-DD` that is a day of the calendar (not 2027-02-30): what Postgres takes as a date. */
export function isCalendarDate(date: string): boolean {
  return ISO_DATE.test(date) && dateOfDay(dayOfIsoDate(date)) === date;
}

/**
 * The end (exclusive) of the dates a line looks its stay up on, from its check-in: its check-out when the line has
 * a night (nightsOf gives one at least exactly when the check-in is a date before the check-out), else the day after
 * its check-in: a line of fees only is looked up on its check-in night.
 */
export function lineLookupEnd(line: { check_in_date: string; check_out_date: string }): string {
  const checkIn = line.check_in_date;
  return ISO_DATE.test(checkIn) && checkIn < line.check_out_date ? line.check_out_date : addDays(checkIn, 1);
}

/** The nights from check-in up to the day before check-out (roomNights, without a Date per night). */
export function nightsOf(checkIn: string, checkOut: string): string[] {
  if (!ISO_DATE.test(checkIn) || !(checkIn < checkOut)) return [];
  const first = dayOfIsoDate(checkIn);
  // Calendar dates: by day number, each later night's text shared. Anything else (30 February, a check-out with
  // a time) is walked as text, as it always was.
  if (ISO_DATE.test(checkOut) && dateOfDay(first) === checkIn) {
    const nights = dayOfIsoDate(checkOut) - first;
    const dates = new Array<string>(nights);
    dates[0] = checkIn;
    for (let i = 1; i < nights; i++) dates[i] = dateOfDay(first + i);
    return dates;
  }
  const out: string[] = [];
  let y = +checkIn.slice(0, 4);
  let m = +checkIn.slice(5, 7);
  let d = +checkIn.slice(8, 10);
  for (let cur = checkIn; cur < checkOut;) {
    out.push(cur);
    if (++d > daysInMonth(y, m)) {
      d = 1;
      if (++m > 12) {
        m = 1;
        y++;
      }
    }
    cur = `${y}-${pad2(m)}-${pad2(d)}`;
  }
  return out;
}

// ---- the bookings' index ----

/** Something of the bookings by property, then by a key within it (no key string built per booking). */
type ByProperty<V> = ReadonlyMap<string, ReadonlyMap<string, V>>;

export interface InvoiceBookingIndex {
  /** property → normalised confirmation number → its bookings. */
  byConfirmation: ByProperty<readonly InvoiceBooking[]>;
  /** property → employee id → that guest's stays there, by check-in. */
  byEmployee: ByProperty<GuestStays>;
  /**
   * property → normalised name → that guest's stays there: built when a line is first looked up by name
   * (most lines carry a confirmation number or an employee id; normalising every traveller's name costs more
   * than the rest of the index).
   */
  byName(): ByProperty<GuestStays>;
}

/** A guest's bookings at one hotel by check-in date, with the latest check-out so far (stays may overlap). */
export interface GuestStays {
  bookings: InvoiceBooking[];
  latestOut: string[];
}

/** A confirmation number as hotels write it in either place: case, spaces and hyphens aside. */
const normalConfirmation = (c: string) => c.toUpperCase().replace(/[\s-]/g, '');

/*
 * A guest's key (`E|property|employee id`, `N|property|normalised name`) names the guest of a line without a
 * booking in its billed nights (nightKey): stored with the line, so its form never changes.
 */
const employeeKey = (property: string, id: string) => `E|${property}|${id}`;
const nameKey = (property: string, normalised: string) => `N|${property}|${normalised}`;

function push<V>(map: Map<string, Map<string, V[]>>, property: string, key: string, value: V): void {
  let inProperty = map.get(property);
  if (!inProperty) map.set(property, (inProperty = new Map<string, V[]>()));
  const list = inProperty.get(key);
  if (list) list.push(value);
  else inProperty.set(key, [value]);
}

/** Whether the stays are by check-in already (most guests' few stays at a hotel are: sort copies every list it sorts). */
function inCheckInOrder(list: readonly InvoiceBooking[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.check_in_date > list[i]!.check_in_date) return false;
  return true;
}

/** Each guest's bookings by check-in, with the running latest check-out (staysOverlapping's search). */
function guestStays(byProperty: Map<string, Map<string, InvoiceBooking[]>>): Map<string, Map<string, GuestStays>> {
  const out = new Map<string, Map<string, GuestStays>>();
  for (const [property, lists] of byProperty) {
    const guests = new Map<string, GuestStays>();
    for (const [key, list] of lists) {
      if (!inCheckInOrder(list))
        list.sort((a, b) => (a.check_in_date < b.check_in_date ? -1 : a.check_in_date > b.check_in_date ? 1 : 0));
      const latestOut: string[] = [];
      let latest = '';
      for (const b of list) latestOut.push((latest = b.check_out_date > latest ? b.check_out_date : latest));
      guests.set(key, { bookings: list, latestOut });
    }
    out.set(property, guests);
  }
  return out;
}

/** Indexes the airline's hotel bookings once per batch: O(bookings log bookings). */
export function indexInvoiceBookings(bookings: readonly InvoiceBooking[]): InvoiceBookingIndex {
  const byConfirmation = new Map<string, Map<string, InvoiceBooking[]>>();
  const employees = new Map<string, Map<string, InvoiceBooking[]>>();
  for (const b of bookings) {
    if (b.confirmation_number) push(byConfirmation, b.property_id, normalConfirmation(b.confirmation_number), b);
    if (b.employee_id) push(employees, b.property_id, b.employee_id.trim(), b);
  }
  let byName: Map<string, Map<string, GuestStays>> | undefined;
  return {
    byConfirmation,
    byEmployee: guestStays(employees),
    byName() {
      if (!byName) {
        const names = new Map<string, Map<string, InvoiceBooking[]>>();
        for (const b of bookings) {
          const name = b.guest_name ? normaliseGuestName(b.guest_name) : '';
          if (name) push(names, b.property_id, name, b);
        }
        byName = guestStays(names);
      }
      return byName;
    },
  };
}

/** The guest's stays sharing a night with from..to (to exclusive): a binary search, then back over overlaps. */
function staysOverlapping(stays: GuestStays, from: string, to: string): InvoiceBooking[] {
  const { bookings, latestOut } = stays;
  let lo = 0;
  let hi = bookings.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bookings[mid]!.check_in_date < to) lo = mid + 1;
    else hi = mid;
  }
  const found: InvoiceBooking[] = [];
  for (let i = lo - 1; i >= 0 && latestOut[i]! > from; i--)
    if (bookings[i]!.check_out_date > from) found.push(bookings[i]!);
  return found;
}

/** Of several bookings, the one invoiceBookingOf picks for the line's nights from..to. */
function bestBooking(
  candidates: readonly InvoiceBooking[],
  line: InvoiceLine,
  from: string,
  to: string,
): InvoiceBooking | null {
  if (candidates.length === 1) return candidates[0]!;
  const feesOnly = line.nights === 0;
  const start = dayNumber(from);
  const end = dayNumber(to);
  let best: InvoiceBooking | null = null;
  let bestScore = -1;
  for (const b of candidates) {
    const overlap = Math.max(
      0,
      Math.min(end, dayNumber(b.check_out_date)) - Math.max(start, dayNumber(b.check_in_date)),
    );
    const score = overlap * 2 + ((b.status === 'CANCELLED') === feesOnly ? 1 : 0);
    if (score > bestScore || (score === bestScore && best && b.booking_id < best.booking_id)) {
      best = b;
      bestScore = score;
    }
  }
  return best;
}

/** The stays at the property whose confirmation number the matching takes as `confirmation` (none: undefined). */
export function staysWithConfirmation(
  index: InvoiceBookingIndex,
  property: string,
  confirmation: string,
): readonly InvoiceBooking[] | undefined {
  return index.byConfirmation.get(property)?.get(normalConfirmation(confirmation));
}

/**
 * Whether a stay shares a night with the line's from..to (to exclusive): among the stays a confirmation number
 * names, such a one always outranks one that shares none (bestBooking). A stay of no night shares none.
 */
export function sharesNight(b: InvoiceBooking, from: string, to: string): boolean {
  // bestBooking counts nights by calendar day: a stay's dates that are not ISO dates share none.
  const checkIn = b.check_in_date;
  const checkOut = b.check_out_date;
  return checkIn < to && checkOut > from && checkIn < checkOut && ISO_DATE.test(checkIn) && ISO_DATE.test(checkOut);
}

/**
 * The booking a line bills: by confirmation number first; else by the guest (employee id, then name) at the
 * property on the line's nights (from..to, to exclusive). Among several, the one sharing most nights with the
 * line; then a live booking for a line of room-nights, a cancelled one for a line of fees only; then the lowest
 * booking_id. `guest`: the guest key the line was matched by, or its first (a line without a booking has its
 * nights keyed by it); null when the confirmation number found the booking, as most lines' does.
 */
export function invoiceBookingOf(
  line: InvoiceLine,
  property: string,
  index: InvoiceBookingIndex,
  from: string,
  to: string,
): { booking: InvoiceBooking | null; guest: string | null } {
  if (line.confirmation_number) {
    const found = staysWithConfirmation(index, property, line.confirmation_number);
    if (found && found.length > 0) return { booking: bestBooking(found, line, from, to), guest: null };
  }
  // The guest: by employee id first, then by the hotel's spelling of a name.
  const byId = Boolean(line.employee_id);
  const id = byId ? line.employee_id!.trim() : '';
  if (byId) {
    const stays = index.byEmployee.get(property)?.get(id);
    const candidates = stays ? staysOverlapping(stays, from, to) : null;
    if (candidates && candidates.length > 0)
      return { booking: bestBooking(candidates, line, from, to), guest: employeeKey(property, id) };
  }
  const name = line.guest_name ? normaliseGuestName(line.guest_name) : '';
  if (name) {
    const stays = index.byName().get(property)?.get(name);
    const candidates = stays ? staysOverlapping(stays, from, to) : null;
    if (candidates && candidates.length > 0)
      return { booking: bestBooking(candidates, line, from, to), guest: nameKey(property, name) };
  }
  return { booking: null, guest: byId ? employeeKey(property, id) : name ? nameKey(property, name) : null };
}

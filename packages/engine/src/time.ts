/*
 * Timestamp helpers. A roster timestamp is local time with its UTC offset
 * ('2026-12-01T23:30:00+02:00'): the calendar date is the one written in the string,
 * the instant is what comparisons use.
 */

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const MS_PER_MINUTE = 60_000;
export const MS_PER_HOUR = 3_600_000;
export const MS_PER_DAY = 86_400_000;

/** Two decimal digits at `i`, or NaN. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : Number.NaN;
}

/**
 * Epoch milliseconds of a timestamp with offset; NaN when it is not one. The fast path reads
 * the usual 'YYYY-MM-DDTHH:MM:SS+HH:MM' / '...Z' shapes by character (the diff parses
 * hundreds of thousands of them); anything else goes through the full pattern.
 */
export function instantOf(timestamp: string): number {
  const s = timestamp;
  const n = s.length;
  const sep = s.charCodeAt(10);
  if (
    (n === 25 || n === 20 || n === 24) &&
    (sep === 84 || sep === 116 || sep === 32) &&
    s.charCodeAt(4) === 45 &&
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(13) === 58 &&
    s.charCodeAt(16) === 58
  ) {
    const local = Date.UTC(two(s, 0) * 100 + two(s, 2), two(s, 5) - 1, two(s, 8), two(s, 11), two(s, 14), two(s, 17));
    const tz = s.charCodeAt(19);
    if (n === 20 && (tz === 90 || tz === 122)) return local;
    // '...SS.sssZ', as toISOString writes it (an item's created_at, a clock's now).
    if (n === 24 && tz === 46 && (s.charCodeAt(23) === 90 || s.charCodeAt(23) === 122)) {
      const last = s.charCodeAt(22) - 48;
      return last >= 0 && last <= 9 ? local + two(s, 20) * 10 + last : Number.NaN;
    }
    if (n === 25 && (tz === 43 || tz === 45) && s.charCodeAt(22) === 58) {
      const offsetMinutes = (two(s, 20) * 60 + two(s, 23)) * (tz === 45 ? -1 : 1);
      return local - offsetMinutes * MS_PER_MINUTE;
    }
  }
  const m = TIMESTAMP.exec(s);
  if (!m) return Number.NaN;
  const local = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, m[6] ? +m[6] : 0, m[7] ? +m[7].padEnd(3, '0') : 0);
  if (m[8]) return local;
  const offsetMinutes = (+m[10]! * 60 + (m[11] ? +m[11] : 0)) * (m[9] === '-' ? -1 : 1);
  return local - offsetMinutes * MS_PER_MINUTE;
}

/** The calendar date written in a local timestamp (no time-zone conversion). */
export function localDateOf(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** ISO instant in UTC. */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/** `YYYY-MM-DD` shifted by whole days. */
export function addDays(date: string, days: number): string {
  const ms = Date.UTC(+date.slice(0, 4), +date.slice(5, 7) - 1, +date.slice(8, 10)) + days * MS_PER_DAY;
  return new Date(ms).toISOString().slice(0, 10);
}

/** Inclusive date window of a submission (schedule_start_date..schedule_end_date). */
export interface DateWindow {
  start: string;
  end: string;
}

/** YYYY-MM-DD strings order like dates. */
export function inWindow(date: string, window: DateWindow): boolean {
  return date >= window.start && date <= window.end;
}

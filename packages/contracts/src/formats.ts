import { fullFormats } from 'ajv-formats/dist/formats';

/*
 * The project's `date`, `date-time` and `uuid` formats: those of ajv-formats' full mode, narrowed to the values
 * Postgres and V8 both read, so a value the schema layer accepts never fails later as a 500.
 *  - date: years 0001-9999 (Postgres has no year 0: 22008).
 *  - date-time: the same years; `T`, `t` or a space between date and time (ajv-formats takes any Unicode
 *    space, which Postgres does not read); and one `Date` parses: no leap second (`23:59:60`) and no offset
 *    without its minutes (`+05`), both Invalid Date, which pg sends as NaN.
 *  - uuid: no `urn:uuid:` prefix (Postgres' uuid input refuses it: 22P02).
 *
 * `date` and `date-time` also have a fast path. A big airline's roster carries about a million timestamps, and
 * ajv-formats' checks (split, regex, number conversions) were half of its validation time. The fast path reads
 * the canonical shapes character by character and only ever says "valid" where the narrowed check would;
 * everything else (other shapes, and every invalid value) gets the narrowed check's own answer.
 */

type Check = (value: string) => boolean;
type Compare = (a: string, b: string) => number | undefined;
/** ajv's shape of a format with a validate function (and the comparison formatMinimum and friends use). */
export interface StringFormat {
  type: 'string';
  validate: Check;
  compare?: Compare;
}

function definitionOf(name: 'date' | 'date-time'): { validate: Check; compare?: Compare } {
  const f = fullFormats[name] as unknown;
  return typeof f === 'function' ? { validate: f as Check } : (f as { validate: Check; compare?: Compare });
}

const fullDate = definitionOf('date');
const fullDateTime = definitionOf('date-time');

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two decimal digits at `i` as a number, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** `YYYY-MM-DD` at the start of `s`, a real calendar day of years 0001-9999. */
function dateAtStart(s: string): boolean {
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  if (hi < 0 || lo < 0 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || month < 1 || month > 12 || day < 1)
    return false;
  const year = hi * 100 + lo;
  if (year === 0) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month]!);
}

/** Year 0000, which ajv-formats takes and Postgres does not (a date or a date-time starts with its year). */
const yearZero = (s: string) => s.startsWith('0000');

export const isDate: Check = (s) => (s.length === 10 && dateAtStart(s)) || (!yearZero(s) && fullDate.validate(s));

/** `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS±HH:MM` (seconds 00-59); other shapes go to the full check. */
function canonicalDateTime(s: string): boolean {
  const n = s.length;
  if (n !== 20 && n !== 25) return false;
  if (s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || !dateAtStart(s))
    return false;
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  const tz = s.charCodeAt(19);
  if (n === 20) return tz === 90; /* Z */
  if ((tz !== 43 && tz !== 45) || s.charCodeAt(22) !== 58) return false;
  const tzHour = two(s, 20);
  const tzMinute = two(s, 23);
  return tzHour >= 0 && tzHour <= 23 && tzMinute >= 0 && tzMinute <= 59;
}

/** RFC 3339's separators: `T`, `t`, or a space (its note allows one). ajv-formats splits on any `\s`. */
function rfc3339Separator(s: string): boolean {
  const c = s.charCodeAt(10);
  return c === 84 || c === 116 || c === 32;
}

export const isDateTime: Check = (s) =>
  canonicalDateTime(s) ||
  (!yearZero(s) && rfc3339Separator(s) && fullDateTime.validate(s) && !Number.isNaN(Date.parse(s)));

/**
 * A uuid as Postgres' uuid type reads it and as the service writes it: 8-4-4-4-12 hex digits. ajv-formats'
 * full mode also takes a `urn:uuid:` prefix, which Postgres refuses (22P02): a valid id would then be a 500.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid: Check = (s) => UUID.test(s);

/** The project's formats, registered after ajv-formats' own in place of theirs (same comparisons). */
export const FORMATS: Record<'date' | 'date-time' | 'uuid', StringFormat> = {
  date: { type: 'string', validate: isDate, compare: fullDate.compare },
  'date-time': { type: 'string', validate: isDateTime, compare: fullDateTime.compare },
  uuid: { type: 'string', validate: isUuid },
};

import pg from 'pg';

/**
 * pg's own timestamptz parser (postgres-date): any offset, BC years, infinity. Read when this module loads, which
 * is before connect.ts (its only importer) installs parseTimestamptz in its place.
 */
const generalParser = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (value: string) => Date | number;

const DASH = 45;
const SPACE = 32;
const COLON = 58;
const DOT = 46;
const PLUS = 43;
const ZERO = 48;

/**
 * A timestamptz as Postgres writes it in a UTC session, '2027-03-01 12:00:05.123456+00', read without
 * postgres-date's regular expressions: a page of 50 action items has 300 of them, and the general parser was the
 * api's third cost per page. Anything else (another offset, a BC or five-digit year, infinity) goes to pg's
 * parser. Either way the same instant; fractions below a millisecond are dropped as pg drops them.
 */
export function parseTimestamptz(value: string): Date | number {
  const n = value.length;
  if (
    (n === 22 || (n > 23 && n <= 29 && value.charCodeAt(19) === DOT)) &&
    value.charCodeAt(4) === DASH &&
    value.charCodeAt(7) === DASH &&
    value.charCodeAt(10) === SPACE &&
    value.charCodeAt(13) === COLON &&
    value.charCodeAt(16) === COLON &&
    value.charCodeAt(n - 3) === PLUS &&
    value.charCodeAt(n - 2) === ZERO &&
    value.charCodeAt(n - 1) === ZERO
  ) {
    const year = +value.slice(0, 4);
    // Date.UTC reads years 0-99 as 1900-1999: those go to the general parser.
    if (year >= 100) {
      const time = Date.UTC(
        year,
        +value.slice(5, 7) - 1,
        +value.slice(8, 10),
        +value.slice(11, 13),
        +value.slice(14, 16),
        +value.slice(17, 19),
        n === 22 ? 0 : 1000 * +value.slice(19, n - 3),
      );
      if (!Number.isNaN(time)) return new Date(time);
    }
  }
  return generalParser(value);
}

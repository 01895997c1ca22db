import fc from 'fast-check';
import pg from 'pg';
import { parseTimestamptz } from '../src/timestamptz';

// pg's parser as shipped (parseTimestamptz is installed on pg's registry by connect.ts, not by importing it).
const postgresDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (v: string) => Date | number;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** An instant as Postgres writes it in a UTC session: microseconds, trailing zeros of the fraction left out. */
function asPostgresWrites(ms: number, micros: number): string {
  const d = new Date(ms);
  const fraction = pad(d.getUTCMilliseconds() * 1000 + micros, 6).replace(/0+$/, '');
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}` +
    `${fraction ? `.${fraction}` : ''}+00`
  );
}

const time = (v: Date | number) => (v instanceof Date ? v.getTime() : v);

it('reads every UTC timestamptz as the same instant as pg’s own parser', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: Date.UTC(100, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }),
      fc.integer({ min: 0, max: 999 }),
      (ms, micros) => {
        const text = asPostgresWrites(ms, micros);
        expect([text, time(parseTimestamptz(text))]).toEqual([text, time(postgresDate(text))]);
        expect(time(parseTimestamptz(text))).toBe(Math.floor(ms));
      },
    ),
    { numRuns: 2000 },
  );
});

it.each([
  '2027-03-01 12:00:00+00',
  '2027-03-01 12:00:00.5+00',
  '2027-03-01 12:00:00.123456+00',
  '2027-03-01 12:00:00+05:30',
  '2027-03-01 12:00:00.25-08',
  '0099-03-01 12:00:00+00',
  '0001-03-01 12:00:00+00 BC',
  '12027-03-01 12:00:00+00',
  'infinity',
  '-infinity',
])('%s: the same as pg’s own parser (other offsets, early and BC years, infinity go to it)', (text) => {
  expect(time(parseTimestamptz(text))).toEqual(time(postgresDate(text)));
});

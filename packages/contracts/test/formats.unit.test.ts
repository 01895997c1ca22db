import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats';
import { FORMATS } from '../src/formats';
import { checkBody, ScheduleSubmission } from '../src';

/*
 * The `date` / `date-time` checks accept exactly what ajv-formats' full mode does, less what Postgres or V8's
 * Date cannot read (year 0000, a separator other than T, t or a space, a value Date.parse refuses). Strings are
 * drawn around the canonical shapes (where the fast path decides), plus arbitrary text.
 */

const full = (name: 'date' | 'date-time') => (fullFormats[name] as { validate: (s: string) => boolean }).validate;
const yearZero = (s: string) => s.startsWith('0000');
const fullDate = (s: string) => full('date')(s) && !yearZero(s);
const fullDateTime = (s: string) =>
  full('date-time')(s) && !yearZero(s) && /^.{10}[Tt ]/.test(s) && !Number.isNaN(Date.parse(s));

/** Characters a mistyped timestamp is made of. */
const TIMESTAMP_CHARS = [...'0123456789', '-', ':', 'T', 't', 'Z', 'z', '+', ' ', '.'];
const nearChar = fc.constantFrom(...TIMESTAMP_CHARS);
const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, '0'));

/** Canonical-looking timestamps with every field drawn beyond its range too (month 13, hour 24, offset +24:60...). */
const canonicalish = fc
  .tuple(
    digits(4, 9999),
    digits(2, 14),
    digits(2, 32),
    fc.constantFrom('T', 't', ' '),
    digits(2, 25),
    digits(2, 61),
    digits(2, 61),
    fc.constantFrom('Z', 'z', '+', '-'),
    digits(2, 25),
    digits(2, 61),
  )
  .map(
    ([y, mo, d, sep, h, mi, s, tz, th, tm]) =>
      `${y}-${mo}-${d}${sep}${h}:${mi}:${s}${tz === 'Z' || tz === 'z' ? tz : `${tz}${th}:${tm}`}`,
  );

/** A canonical timestamp with one character replaced, dropped or inserted. */
const mutated = fc
  .tuple(canonicalish, fc.nat(26), nearChar, fc.constantFrom('replace', 'drop', 'insert'))
  .map(([s, i, c, how]) => {
    const at = i % (s.length + 1);
    if (how === 'replace') return s.slice(0, at) + c + s.slice(at + 1);
    if (how === 'drop') return s.slice(0, at) + s.slice(at + 1);
    return s.slice(0, at) + c + s.slice(at);
  });

const dateish = fc.tuple(digits(4, 9999), digits(2, 14), digits(2, 32)).map(([y, m, d]) => `${y}-${m}-${d}`);

describe('fast date-time format', () => {
  test('agrees with ajv-formats, narrowed, on canonical-looking, mutated and arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(canonicalish, mutated, fc.string({ unit: nearChar, maxLength: 30 }), fc.string()), (s) => {
        expect(FORMATS['date-time'].validate(s)).toBe(fullDateTime(s));
      }),
      { numRuns: 20_000 },
    );
  });

  test.each([
    ['2027-03-01T10:00:00Z', true],
    ['2027-03-01T10:00:00+05:30', true],
    ['2027-03-01T10:00:00-12:00', true],
    ['2028-02-29T23:59:59+01:00', true],
    ['2027-02-29T10:00:00Z', false],
    ['2027-03-01T24:00:00Z', false],
    ['2027-03-01T10:60:00Z', false],
    ['2027-03-01T10:00:00', false],
    ['2027-03-01T10:00:00+24:00', false],
    ['2027-13-01T10:00:00Z', false],
    ['2027-03-01T10:00:00.123+02:00', true],
    ['2027-03-01t10:00:00z', true],
    ['2027-03-01 10:00:00Z', true],
    ['2027-03-01T10:00:00+0530', true],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999999Z', true],
    // ajv-formats takes these; Date gives Invalid Date (a leap second, an offset without minutes)...
    ['2026-12-31T23:59:60Z', false],
    ['2026-12-31T18:59:60-05:00', false],
    ['2026-12-31T23:59:60.5Z', false],
    ['2027-03-01T10:00:00+05', false],
    // ...or Postgres refuses them (no year 0; only T, t or a space between date and time).
    ['0000-01-01T00:00:00Z', false],
    ['2027-03-01\u00a010:00:00Z', false],
    ['2027-03-01\t10:00:00Z', false],
  ])('%j → %s', (s, valid) => {
    expect(FORMATS['date-time'].validate(s)).toBe(valid);
    expect(fullDateTime(s)).toBe(valid);
  });
});

describe('fast date format', () => {
  test('agrees with ajv-formats, narrowed', () => {
    fc.assert(
      fc.property(fc.oneof(dateish, fc.string({ unit: nearChar, maxLength: 12 }), fc.string()), (s) => {
        expect(FORMATS.date.validate(s)).toBe(fullDate(s));
      }),
      { numRuns: 20_000 },
    );
  });

  test.each([
    ['2028-02-29', true],
    ['2027-02-29', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2027-04-31', false],
    ['2027-00-10', false],
    ['2027-1-10', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['0000-01-01', false],
    ['0000-02-29', false],
  ])('%s → %s', (s, valid) => expect(FORMATS.date.validate(s)).toBe(valid));
});

describe('uuid format', () => {
  test.each([
    ['00000000-0000-4000-8000-000000000000', true],
    ['0192F3A4-B5C6-7D8E-9F00-112233445566', true],
    // ajv-formats' full mode takes these; Postgres' uuid input does not.
    ['urn:uuid:00000000-0000-4000-8000-000000000000', false],
    ['URN:UUID:00000000-0000-4000-8000-000000000000', false],
    ['00000000000040008000000000000000', false],
    ['{00000000-0000-4000-8000-000000000000}', false],
    ['00000000-0000-4000-8000-00000000000g', false],
  ])('%s → %s', (s, valid) => expect(FORMATS.uuid.validate(s)).toBe(valid));
});

test('the shared body validator uses them: a submission with an impossible date-time is refused where the field is', () => {
  const r = checkBody(ScheduleSubmission, {
    schedule_start_date: '2027-02-29',
    schedule_end_date: '2027-03-01',
    pairings: [],
    as_of: '2027-03-01T25:00:00Z',
  });
  expect(r.ok).toBe(false);
  if (!r.ok)
    expect(r.issues).toEqual(
      expect.arrayContaining([
        { field: '/schedule_start_date', issue: 'must be a valid date' },
        { field: '/as_of', issue: 'must be a valid date-time' },
      ]),
    );
});

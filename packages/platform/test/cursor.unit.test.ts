import fc from 'fast-check';
import {
  decodeCursor,
  encodeCursor,
  isBigintPosition,
  isIntegerPosition,
  isTimestamptzPosition,
  isUuidPosition,
  seqCursor,
} from '../src/cursor';

/* Cursor positions hold only what their query's parameter takes: a forged one is a 400, never a Postgres error. */

const forged = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

/** An instant as Postgres prints a timestamptz in a UTC session with the ISO DateStyle. */
function asPostgresPrints(ms: number, micros: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = micros === 0 ? '' : `.${String(micros).padStart(6, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction}+00`;
}

describe('timestamptz positions', () => {
  test('every instant of years 0001-9999 as Postgres prints it is a position', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('0001-01-01T00:00:00Z'), max: Date.parse('9999-12-31T23:59:59Z') }),
        fc.integer({ min: 0, max: 999_999 }),
        (ms, micros) => {
          const s = asPostgresPrints(ms - (ms % 1000), micros);
          expect(isTimestamptzPosition(s)).toBe(true);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  test.each([
    ['2027-03-01 12:00:05.123456+00', true],
    ['2027-03-01 12:00:05+05:30', true],
    ['2027-03-01 12:00:05-15:59:59', true],
    ['2028-02-29 00:00:00+00', true],
    ['0001-02-29 00:00:00+00 BC', true],
    ['12345-06-07 08:09:10+00', true],
    ['x', false],
    ['', false],
    ['0000-01-01 00:00:00+00', false],
    ['2027-13-01 00:00:00+00', false],
    ['2027-02-29 00:00:00+00', false],
    ['0004-02-29 00:00:00+00 BC', false],
    ['2027-03-01 24:00:00+00', false],
    ['2027-03-01 23:59:60+00', false],
    ['2027-03-01 12:00:00+16', false],
    ['2027-03-01 12:00:00.1234567+00', false],
    ['2027-03-01T12:00:00Z', false],
    ['2027-03-01 12:00:00', false],
    ['294276-01-01 00:00:00+00', false],
    ['4713-01-01 00:00:00+00 BC', false],
  ])('%j → %s', (s, ok) => expect(isTimestamptzPosition(s)).toBe(ok));

  test('only strings', () => {
    expect(isTimestamptzPosition(null)).toBe(false);
    expect(isTimestamptzPosition(1803895200000)).toBe(false);
  });
});

describe('number and uuid positions', () => {
  test.each([
    [1, true, true],
    [0, true, true],
    [2_147_483_647, true, true],
    [2_147_483_648, true, false],
    [-2_147_483_648, true, true],
    [-2_147_483_649, true, false],
    [Number.MAX_SAFE_INTEGER, true, false],
    [1e21, false, false],
    [1e19, false, false],
    [1.5, false, false],
    ['1', false, false],
  ])('%p → bigint %s, integer %s', (v, bigint, integer) => {
    expect(isBigintPosition(v)).toBe(bigint);
    expect(isIntegerPosition(v)).toBe(integer);
  });

  test.each([
    ['00000000-0000-4000-8000-000000000000', true],
    ['urn:uuid:00000000-0000-4000-8000-000000000000', false],
    ['x', false],
    [null, false],
  ])('uuid %p → %s', (v, ok) => expect(isUuidPosition(v)).toBe(ok));
});

describe('seqCursor', () => {
  test('reads back what keysetPage writes', () => {
    expect(seqCursor(encodeCursor({ s: 42 }))).toBe(42);
    expect(seqCursor(undefined)).toBeNull();
  });

  test.each(['{"s":1e21}', '{"s":10000000000000000000}', '{"s":1.5}', '{"s":"1"}', '[1]', 'null'])(
    'a forged %s is 400 INVALID_REQUEST',
    (json) => {
      expect(() => seqCursor(forged(json))).toThrow(expect.objectContaining({ status: 400 }));
    },
  );

  test('decodeCursor refuses what its check refuses', () => {
    expect(() => decodeCursor(forged('{"l":2147483648}'), (v) => isIntegerPosition(v.l))).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});

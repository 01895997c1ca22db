import fc from 'fast-check';
import { instantOf, isoInstant } from '../src/time';

// Instants from 1970 to 9999 (the written-by-arithmetic range) and beyond it on both sides.
const MAX = 253402300799999;

describe('isoInstant', () => {
  it('writes every instant exactly as toISOString does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (ms) => {
        expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes the calendar edges right: leap days, century years, ends of months and years, the range ends', () => {
    for (const iso of [
      '1970-01-01T00:00:00.000Z',
      '1972-02-29T23:59:59.999Z',
      '2000-02-29T12:00:00.001Z',
      '2000-03-01T00:00:00.000Z',
      '2100-02-28T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
    ])
      expect(isoInstant(Date.parse(iso))).toBe(iso);
  });

  it('leaves instants outside 1970-9999 to Date, and refuses an invalid one as Date does', () => {
    for (const ms of [-1, -86_400_000 * 366, MAX + 1, 8.64e15, 1.5])
      expect(isoInstant(ms)).toBe(new Date(ms).toISOString());
    expect(() => isoInstant(Number.NaN)).toThrow(RangeError);
  });
});

describe('instantOf', () => {
  it('reads back what toISOString writes, milliseconds included', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: MAX }), (ms) => {
        expect(instantOf(new Date(ms).toISOString())).toBe(ms);
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads offsets and the other shapes as Date.parse does; NaN for what is no timestamp', () => {
    for (const s of [
      '2026-12-01T23:30:00+02:00',
      '2026-12-01T23:30:00-05:30',
      '2026-12-01T23:30:00Z',
      '2026-12-01 23:30:00.5Z',
      '2026-12-01T23:30:00.123456Z',
      '2026-12-01T23:30:00.123z',
    ])
      expect(instantOf(s)).toBe(Date.parse(s.replace(' ', 'T').toUpperCase()));
    for (const s of ['2026-12-01T23:30:00.12xZ', '2026-12-01T23:30:00.123+', 'not a time', '2026-1a-01T23:30:00.000Z'])
      expect(instantOf(s)).toBeNaN();
  });
});

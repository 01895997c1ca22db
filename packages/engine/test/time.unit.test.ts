import fc from 'fast-check';
import { instantOf } from '../src/time';

// The last instant of 9999.
const MAX = 253402300799999;

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

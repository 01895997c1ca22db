import fc from 'fast-check';
import { flattenRoster, pairingElementRanges, pairingRowCount } from '../src';
import { crew, p1, submission } from './fixtures';

const bytes = (text: string) => new TextEncoder().encode(text);
const elementsAt = (body: Uint8Array, ranges: [number, number][]) => ranges.map(([s, e]) => JSON.parse(new TextDecoder().decode(body.subarray(s, e))) as unknown);

describe('pairingElementRanges (issue 12: a resubmission parses only the pairings it diffs)', () => {
  it('finds every element of the top-level pairings array, whatever the values, the other keys, their order and the spacing', () => {
    // Keys and strings that look like structure: quotes, escapes, brackets, commas, colons, "pairings" itself.
    const tricky = fc.oneof(fc.string(), fc.constantFrom('"', '\\', '\\"', '],[', '{"pairings":[1]}', 'pairings', ':', ',', '\u00e9\u4e2d\ud83d\ude00'));
    const value = fc.oneof(fc.jsonValue(), tricky, fc.dictionary(tricky, fc.jsonValue()), fc.array(tricky));
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 8 }),
        fc.dictionary(
          tricky.filter((k) => k !== 'pairings'),
          value,
          { maxKeys: 4 },
        ),
        fc.boolean(),
        fc.constantFrom(undefined, 0, 1, 2, '\t', ' \r\n '),
        (elements, others, pairingsFirst, space) => {
          const doc = pairingsFirst ? { pairings: elements, ...others } : { ...others, pairings: elements };
          const body = bytes(JSON.stringify(doc, null, space));
          const ranges = pairingElementRanges(body);
          expect(ranges).not.toBeNull();
          expect(elementsAt(body, ranges!)).toEqual(JSON.parse(JSON.stringify(elements)));
          // Each range is the element's text, without the spacing around it.
          for (const [s, e] of ranges!) expect(new TextDecoder().decode(body.subarray(s, e))).toBe(new TextDecoder().decode(body.subarray(s, e)).trim());
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the pairings of a roster as sent, escaped key included', () => {
    const roster = submission([p1(), { ...p1([crew('E3')]), pairing_number: 'P"2\\' }]);
    const body = bytes(JSON.stringify(roster));
    expect(elementsAt(body, pairingElementRanges(body)!)).toEqual(roster.pairings);
    const escaped = bytes(`{"pairing\\u0073" : [ {"a":1} , [2] ,"3" ] , "schedule_start_date":"2026-12-01"}`);
    expect(elementsAt(escaped, pairingElementRanges(escaped)!)).toEqual([{ a: 1 }, [2], '3']);
    expect(pairingElementRanges(bytes('{"pairings":[]}'))).toEqual([]);
  });

  it('gives null where the whole document must be parsed: no top-level pairings array, or two of them', () => {
    for (const text of [
      '{"schedule_start_date":"2026-12-01"}',
      '{"nested":{"pairings":[{"a":1}]}}',
      '{"pairings":null}',
      '{"pairings":{"a":1}}',
      '{"pairings":[{"a":1}],"pairings":[{"b":2}]}',
      '[{"pairings":[1]}]',
      '{"pairings":[{"a":1},,{"b":2}]}',
      '{"pairings":[{"a":"unterminated}]}',
      '{"pairings":[{"a":1}]',
    ]) {
      expect([text, pairingElementRanges(bytes(text))]).toEqual([text, null]);
    }
  });
});

describe('pairingRowCount', () => {
  it('counts a row per crew member and leg or layover, as flattenRoster numbers them', () => {
    // P1: four rows per crew member (fixtures).
    expect(pairingRowCount(p1())).toBe(8);
    expect(pairingRowCount(p1([crew('E3')]))).toBe(4);
    expect(flattenRoster(submission([p1(), { ...p1([crew('E3')]), pairing_number: 'P2' }])).rowCount).toBe(12);
  });
});

import fc from 'fast-check';
import { flattenRoster, pairingElementRanges, pairingRowCount } from '../src';
import { crew, p1, submission } from './fixtures';

const bytes = (text: string) => new TextEncoder().encode(text);
const elementsAt = (body: Uint8Array, ranges: [number, number][]) =>
  ranges.map(([s, e]) => JSON.parse(new TextDecoder().decode(body.subarray(s, e))) as unknown);

describe('pairingElementRanges (a resubmission parses only the pairings it diffs)', () => {
  it('finds every element of the top-level pairings array, whatever the values, the other keys, their order and the spacing', () => {
    // Keys and strings that look like structure: quotes, escapes, brackets, commas, colons, "pairings" itself.
    const tricky = fc.oneof(
      fc.string(),
      fc.constantFrom('"', '\\', '\\"', '],[', '{"pairings":[1]}', 'pairings', ':', ',', '\u00e9\u4e2d\ud83d\ude00'),
    );
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
          for (const [s, e] of ranges!)
            expect(new TextDecoder().decode(body.subarray(s, e))).toBe(
              new TextDecoder().decode(body.subarray(s, e)).trim(),
            );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds the same ranges when guided by the elements of a document before, whatever was kept, changed, added or dropped', () => {
    const element = fc.oneof(
      fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
      fc.array(fc.jsonValue(), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(
        fc.array(element, { maxLength: 8 }),
        fc.array(fc.constantFrom('keep', 'keep', 'change', 'drop', 'add'), { maxLength: 8 }),
        element,
        (before, edits, other) => {
          const now: unknown[] = [];
          before.forEach((e, i) => {
            const edit = edits[i] ?? 'keep';
            if (edit === 'keep') now.push(e);
            else if (edit === 'change') now.push(other);
            else if (edit === 'add') now.push(other, e);
          });
          const body = bytes(JSON.stringify({ x: 1, pairings: now }));
          const last = before.map((e) => bytes(JSON.stringify(e)));
          const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, k) => x === b[k]);
          let next = 0;
          let guided = 0;
          // An honest guide: an element's end only where its bytes are those of the next expected one (or the one after).
          const guide = {
            guess(start: number) {
              for (const i of [next, next + 1]) {
                const e = last[i];
                if (e !== undefined && same(body.subarray(start, start + e.length), e)) {
                  next = i + 1;
                  guided++;
                  return start + e.length;
                }
              }
              return -1;
            },
            scanned(start: number, end: number) {
              const i = last.findIndex((e) => same(body.subarray(start, end), e));
              if (i >= 0) next = i + 1;
            },
          };
          expect(pairingElementRanges(body, guide)).toEqual(pairingElementRanges(body));
          if (edits.every((e) => e === 'keep')) expect(guided).toBe(now.length);
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

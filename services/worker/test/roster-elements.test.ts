import { decodePairingElements, encodePairingElements } from '@crew/db';
import { pairingElementRanges } from '@crew/engine';
import { onePairingRoster } from '@crew/test-support';
import { rosterElementsOf } from '../src/schedules/roster-elements';

/** Three pairings, the middle one sent with spaces and an escaped character, as any client may. */
function body(): Buffer {
  const pairings = [1, 2, 3].map((n) => onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test` }).pairings[0]!);
  const text = JSON.stringify({ ...onePairingRoster(), pairings: [] }).replace(
    '"pairings":[]',
    `"pairings":[${JSON.stringify(pairings[0])}, \n ${JSON.stringify(pairings[1], null, 2).replace('"P2"', '"\\u00502"')} ,${JSON.stringify(pairings[2])}]`,
  );
  return Buffer.from(text);
}

describe('a stored roster as pairing elements (issue 12)', () => {
  it('stores each element’s range and the hash of its bytes, and reads them back', () => {
    const bytes = body();
    const ranges = pairingElementRanges(bytes)!;
    const stored = decodePairingElements(encodePairingElements(bytes, ranges))!;
    expect(stored.ranges).toEqual(ranges);
    expect(stored.contents).toHaveLength(3);
    // Equal bytes, equal content; any other bytes, another.
    const again = decodePairingElements(encodePairingElements(Buffer.concat([Buffer.from(' '), bytes]), pairingElementRanges(Buffer.concat([Buffer.from(' '), bytes]))!))!;
    expect(again.contents).toEqual(stored.contents);
    expect(new Set(stored.contents).size).toBe(3);
    expect(decodePairingElements(Buffer.from([1, 0, 0]))).toBeNull();
    expect(decodePairingElements(Buffer.from([2, 0, 0, 0, 1, 2]))).toBeNull();
  });

  it('gives the same elements from what the api stored as from a scan of a roster stored without them, and parses each alone', () => {
    const bytes = body();
    const fromStored = rosterElementsOf(bytes, encodePairingElements(bytes, pairingElementRanges(bytes)!))!;
    const scanned = rosterElementsOf(bytes, null)!;
    expect(fromStored.contents).toEqual(scanned.contents);
    expect([0, 1, 2].map((i) => fromStored.pairing(i).pairing_number)).toEqual(['P1', 'P2', 'P3']);
    expect(scanned.pairing(1)).toEqual(JSON.parse(bytes.toString()).pairings[1]);
    // Stored ranges that do not fit the bytes are not believed: the roster is scanned.
    expect(rosterElementsOf(bytes, encodePairingElements(Buffer.concat([bytes, bytes]), [[0, bytes.length + 1]]))!.contents).toEqual(scanned.contents);
    expect(rosterElementsOf(Buffer.from('{"pairings":null}'), null)).toBeNull();
  });
});

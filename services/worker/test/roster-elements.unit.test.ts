import { onePairingRoster } from '@crew/test-support';
import type { ElementBasis } from '@crew/engine';
import { rosterElementsOf } from '../src/schedules/roster-element-scan';

/** Three pairings, the middle one sent with spaces and an escaped character, as any client may. */
function body(prefix = ''): Buffer {
  const pairings = [1, 2, 3].map(
    (n) => onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test` }).pairings[0]!,
  );
  const text = JSON.stringify({ ...onePairingRoster(), pairings: [] }).replace(
    '"pairings":[]',
    `"pairings":[${JSON.stringify(pairings[0])}, \n ${JSON.stringify(pairings[1], null, 2).replace('"P2"', '"\\u00502"')} ,${JSON.stringify(pairings[2])}]`,
  );
  return Buffer.from(prefix + text);
}

describe('a stored roster as pairing elements', () => {
  it('names each element by its bytes and parses each alone', () => {
    const elements = rosterElementsOf(body())!;
    expect(elements.contents).toHaveLength(3);
    expect(new Set(elements.contents).size).toBe(3);
    // Equal bytes, equal content, wherever they lie.
    expect(rosterElementsOf(body('  '))!.contents).toEqual(elements.contents);
    expect([0, 1, 2].map((i) => elements.pairing(i).pairing_number)).toEqual(['P1', 'P2', 'P3']);
    expect(elements.pairing(1)).toEqual((JSON.parse(body().toString()) as { pairings: unknown[] }).pairings[1]);
    // Different bytes, a different content (the same pairing sent with other spacing is only diffed again).
    const respaced = rosterElementsOf(Buffer.from(body().toString().replace('"P1",', '"P1" ,')))!;
    expect(respaced.contents.slice(1)).toEqual(elements.contents.slice(1));
    expect(respaced.contents[0]).not.toBe(elements.contents[0]);
    expect(rosterElementsOf(Buffer.from('{"pairings":null}'))).toBeNull();
  });

  it('finds and names the same elements guided by the last roster’s, whatever was kept, changed, added or dropped', () => {
    const one = (n: number, day1 = '2027-03-10') =>
      onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test`, day1 }).pairings[0]!;
    const roster = (pairings: unknown[]) => Buffer.from(JSON.stringify({ ...onePairingRoster(), pairings }));
    const before = roster([1, 2, 3, 4, 5].map((n) => one(n)));
    const last = rosterElementsOf(before)!;
    // The last roster's elements as its basis holds them (content, pairing, first row, row count, clean, length).
    const basis = last.contents.map((c, i) => [c, `P${i + 1}`, 0, 0, 1, last.lengths[i]!] as ElementBasis);
    for (const now of [
      [1, 2, 3, 4, 5].map((n) => one(n)),
      [one(1), one(2, '2027-03-11'), one(3), one(4), one(5)],
      [one(1), one(6), one(2), one(3), one(4), one(5)],
      [one(1), one(3), one(4), one(5)],
      [one(5), one(4), one(3), one(2), one(1)],
    ]) {
      const bytes = roster(now);
      const guided = rosterElementsOf(bytes, basis)!;
      const scanned = rosterElementsOf(bytes)!;
      expect(guided.contents).toEqual(scanned.contents);
      expect(guided.lengths).toEqual(scanned.lengths);
    }
  });
});

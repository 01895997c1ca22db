import { onePairingRoster } from '@crew/test-support';
import { rosterElementsOf } from '../src/schedules/roster-elements';

/** Three pairings, the middle one sent with spaces and an escaped character, as any client may. */
function body(prefix = ''): Buffer {
  const pairings = [1, 2, 3].map((n) => onePairingRoster({ pairing: `P${n}`, employee: `E${n}`, email: `e${n}@crew.test` }).pairings[0]!);
  const text = JSON.stringify({ ...onePairingRoster(), pairings: [] }).replace(
    '"pairings":[]',
    `"pairings":[${JSON.stringify(pairings[0])}, \n ${JSON.stringify(pairings[1], null, 2).replace('"P2"', '"\\u00502"')} ,${JSON.stringify(pairings[2])}]`,
  );
  return Buffer.from(prefix + text);
}

describe('a stored roster as pairing elements (issue 12)', () => {
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
});

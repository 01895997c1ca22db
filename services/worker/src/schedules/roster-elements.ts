import type { Pairing } from '@crew/contracts';
import { decodePairingElements, encodePairingElements, type PairingElements } from '@crew/db';
import { pairingElementRanges, type RosterElements } from '@crew/engine';

/**
 * A stored roster's pairings as elements (engine roster-elements): where each lies in its bytes and its content, as
 * the api stored them (db pairing-elements), or found by a scan of the bytes for a roster stored without them;
 * each element parsed alone when asked. Null when the roster has no one top-level pairings array to find: it is
 * then parsed whole.
 */
export function rosterElementsOf(bytes: Buffer, stored: Buffer | null): RosterElements | null {
  let found: PairingElements | null = stored && decodePairingElements(stored);
  if (found && found.ranges.some(([, end]) => end > bytes.length)) found = null;
  if (!found) {
    const ranges = pairingElementRanges(bytes);
    found = ranges && decodePairingElements(encodePairingElements(bytes, ranges));
  }
  if (!found) return null;
  const { ranges, contents } = found;
  return { contents, pairing: (i) => JSON.parse(bytes.toString('utf8', ranges[i]![0], ranges[i]![1])) as Pairing };
}

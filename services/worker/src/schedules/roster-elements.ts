import { hash } from 'node:crypto';
import type { Pairing } from '@crew/contracts';
import { pairingElementRanges, type RosterElements } from '@crew/engine';

/**
 * A stored roster's pairings as elements (engine roster-elements): each element's bytes found by a scan and named
 * by their SHA-256 (its first 128 bits, base64: a basis holds one per pairing), parsed alone when asked. Null when
 * the scan finds no one top-level pairings array: the roster is then parsed whole.
 */
export function rosterElementsOf(bytes: Buffer): RosterElements | null {
  const ranges = pairingElementRanges(bytes);
  if (!ranges) return null;
  return {
    contents: ranges.map(([start, end]) => hash('sha256', bytes.subarray(start, end), 'buffer').toString('base64', 0, 16)),
    pairing: (i) => JSON.parse(bytes.toString('utf8', ranges[i]![0], ranges[i]![1])) as Pairing,
  };
}

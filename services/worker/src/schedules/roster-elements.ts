import { hash } from 'node:crypto';
import type { Pairing } from '@crew/contracts';
import { PairingElementScanner, type RosterElements } from '@crew/engine';

/**
 * A stored roster's pairings as elements (engine roster-elements), found while the roster is decompressed: each
 * element's bytes found by a scan (advance, as they arrive) and named by their SHA-256 (its first 128 bits,
 * base64: a basis holds one per pairing); each element parsed alone when asked.
 */
export class RosterElementsIndex {
  private readonly scanner = new PairingElementScanner();
  private readonly contents: string[] = [];

  /** Scans and hashes what arrived: `bytes[0, filled)`. */
  advance(bytes: Buffer, filled: number): void {
    this.scanner.advance(bytes, filled);
    this.hashFound(bytes);
  }

  /** The elements of the whole roster `bytes`, or null when it has no one top-level pairings array: it is then parsed whole. */
  finish(bytes: Buffer): RosterElements | null {
    const ranges = this.scanner.finish(bytes);
    if (!ranges) return null;
    this.hashFound(bytes);
    return { contents: this.contents, pairing: (i) => JSON.parse(bytes.toString('utf8', ranges[i]![0], ranges[i]![1])) as Pairing };
  }

  private hashFound(bytes: Buffer): void {
    const ranges = this.scanner.ranges ?? [];
    for (let i = this.contents.length; i < ranges.length; i++) {
      const [start, end] = ranges[i]!;
      this.contents.push(hash('sha256', bytes.subarray(start, end), 'buffer').toString('base64', 0, 16));
    }
  }
}

/** The elements of a whole roster's bytes (RosterElementsIndex at once). */
export function rosterElementsOf(bytes: Buffer): RosterElements | null {
  return new RosterElementsIndex().finish(bytes);
}

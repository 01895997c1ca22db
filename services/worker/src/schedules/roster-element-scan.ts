import { hash } from 'node:crypto';
import type { Pairing } from '@crew/contracts';
import { pairingElementRanges, type ElementBasis, type ElementGuide, type RosterElements } from '@crew/engine';

/** An element's content: the first 128 bits of the SHA-256 of its bytes, base64 (a basis holds one per pairing). */
function contentOf(bytes: Buffer, start: number, end: number): string {
  return hash('sha256', bytes.subarray(start, end), 'buffer').toString('base64', 0, 16);
}

/**
 * A scan guided by the last roster's elements (the basis's, in roster order): at an element's start it hashes as
 * many bytes as the next expected element has (or the one after, for one dropped) and, when the content is that
 * element's, the bytes are that whole element: not read byte by byte. An element it had to read is looked up by
 * its content to find where the roster goes on (a new element leaves the expectation as it was).
 */
class LastRosterGuide implements ElementGuide {
  private next = 0;
  private readonly indexOf = new Map<string, number>();
  /** The content of each element found, by its start. */
  readonly contents = new Map<number, string>();

  constructor(
    private readonly bytes: Buffer,
    private readonly last: readonly ElementBasis[],
  ) {
    last.forEach((e, i) => this.indexOf.set(e[0], i));
  }

  guess(start: number): number {
    for (const i of [this.next, this.next + 1]) {
      const e = this.last[i];
      if (!e || start + e[5] > this.bytes.length) continue;
      const content = contentOf(this.bytes, start, start + e[5]);
      if (content !== e[0]) continue;
      this.next = i + 1;
      this.contents.set(start, content);
      return start + e[5];
    }
    return -1;
  }

  scanned(start: number, end: number): void {
    const content = contentOf(this.bytes, start, end);
    this.contents.set(start, content);
    const i = this.indexOf.get(content);
    if (i !== undefined) this.next = i + 1;
  }
}

/**
 * A stored roster's pairings as elements (engine roster-elements): each element's bytes found by a scan (guided by
 * the last roster's elements when given) and named by their content; each element parsed alone when asked. Null
 * when the scan finds no one top-level pairings array: the roster is then parsed whole.
 */
export function rosterElementsOf(bytes: Buffer, last?: readonly ElementBasis[]): RosterElements | null {
  const guide = last?.length ? new LastRosterGuide(bytes, last) : undefined;
  const ranges = pairingElementRanges(bytes, guide);
  if (!ranges) return null;
  return {
    contents: ranges.map(([start, end]) => guide?.contents.get(start) ?? contentOf(bytes, start, end)),
    lengths: ranges.map(([start, end]) => end - start),
    pairing: (i) => JSON.parse(bytes.toString('utf8', ranges[i]![0], ranges[i]![1])) as Pairing,
  };
}

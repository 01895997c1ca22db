import type { Pairing } from '@crew/contracts';
import type { DiffBasis, ElementBasis } from './changed-pairings';
import { Flattener } from './flatten';
import type { FlatRoster } from './types';

/*
 * A resubmission parses only the pairings it diffs (issue 12). The worker finds each element of the stored
 * roster's `pairings` array by a scan of its bytes and names it by a hash of those bytes (its content): an element
 * whose content the last diff's basis holds is the same pairing, with the same rows but for their numbers. Only
 * the elements of the pairing_numbers the diff looks at are parsed and flattened; the rows of the others are
 * never made: the next roster state takes them from the previous one, renumbered (nextRosterState `skipped`).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const PAIRINGS = [...'pairings'].map((c) => c.charCodeAt(0));

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The index after the string whose opening quote is at `start`, if it closes before `end`; else -1. */
function stringEnd(bytes: Uint8Array, start: number, end: number): number {
  // A byte loop: most strings of a roster are a few bytes long, shorter than a call to indexOf costs.
  for (let i = start + 1; i < end; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/** The index after the object or array whose opening bracket is at `start`, if it closes before `end`; else -1. */
function valueEnd(bytes: Uint8Array, start: number, end: number): number {
  let depth = 0;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      for (i++; i < end; i++) {
        const c = bytes[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) i++;
      }
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if ((b === CLOSE_OBJECT || b === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  return -1;
}

/** Whether the JSON string at bytes[start, end) (quotes included) is "pairings". */
function isPairingsKey(bytes: Uint8Array, start: number, end: number): boolean {
  if (bytes.subarray(start, end).includes(BACKSLASH)) return JSON.parse(new TextDecoder().decode(bytes.subarray(start, end))) === 'pairings';
  if (end - start !== PAIRINGS.length + 2) return false;
  for (let i = 0; i < PAIRINGS.length; i++) if (bytes[start + 1 + i] !== PAIRINGS[i]) return false;
  return true;
}

/**
 * Finds the byte range [start, end) of each element of the top-level `pairings` array of a JSON document, in order,
 * without parsing it, as its bytes arrive: `advance` scans what is there so far (a string or element cut off at its
 * end is scanned again from its start once more is there), `finish` the whole document. The document is one the
 * api accepts; anything else may give null, and the caller then parses the whole document.
 */
export class PairingElementScanner {
  /** Where the scan goes on from. */
  private at = 0;
  private depth = 0;
  // The last string closed at depth 1 (a key once a colon follows), and whether the value being read is "pairings"'.
  private lastString: [number, number] | null = null;
  private pairingsValue = false;
  private inArray = false;
  // The element being read: where it starts (-1 before it does) and where its last byte so far ends.
  private start = -1;
  private last = -1;
  private failed = false;
  /**
   * A string or element cut off by the end is scanned again only once the bytes after it are as many as those of it
   * scanned so far: a string that never ends (a malformed upload) costs twice its length, not its length squared.
   */
  private retryAt = 0;
  /** The ranges found so far (null until the pairings array opens). */
  ranges: [number, number][] | null = null;

  /** Scans bytes[0, end) as far as it can (the bytes before `end` never change between calls). */
  advance(bytes: Uint8Array, end: number): void {
    if (end < this.retryAt) return;
    let i = this.at;
    for (; i < end && !this.failed; i++) {
      const b = bytes[i]!;
      if (b === QUOTE) {
        const after = stringEnd(bytes, i, end);
        if (after < 0) break;
        if (this.depth === 1) this.lastString = [i, after];
        else if (this.inArray && this.depth === 2 && this.start < 0) this.start = i;
        i = after - 1;
        this.last = after;
        continue;
      }
      if (isSpace(b)) continue;
      if (this.inArray && this.depth === 2) {
        if (b === COMMA || b === CLOSE_ARRAY) {
          if (this.start >= 0) this.ranges!.push([this.start, this.last]);
          else if (b === COMMA) this.failed = true;
          this.start = -1;
          if (b === CLOSE_ARRAY) {
            this.inArray = false;
            this.depth--;
          }
          continue;
        }
        if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
          // An element that is an object or array (a pairing): read to its end in one tight loop.
          const after = valueEnd(bytes, i, end);
          if (after < 0) break;
          this.start = i;
          i = after - 1;
          this.last = after;
          continue;
        }
        if (this.start < 0) this.start = i;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (this.depth === 1 && this.pairingsValue) {
          if (b !== OPEN_ARRAY || this.ranges) this.failed = true;
          this.ranges = [];
          this.inArray = true;
        }
        this.depth++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (--this.depth < 0) this.failed = true;
      } else if (this.depth === 1) {
        if (b === COLON) this.pairingsValue = this.lastString !== null && isPairingsKey(bytes, this.lastString[0], this.lastString[1]);
        else if (b === COMMA) this.pairingsValue = false;
      }
      this.last = i + 1;
    }
    this.at = i;
    this.retryAt = i < end ? 2 * end - i : 0;
  }

  /** The ranges of the whole document `bytes` (of which every call to advance saw a prefix), or null. */
  finish(bytes: Uint8Array): [number, number][] | null {
    this.retryAt = 0;
    this.advance(bytes, bytes.length);
    return this.failed || this.at < bytes.length || this.depth !== 0 || this.inArray ? null : this.ranges;
  }
}

/** The ranges of the elements of a whole document's top-level `pairings` array (PairingElementScanner), or null. */
export function pairingElementRanges(bytes: Uint8Array): [number, number][] | null {
  return new PairingElementScanner().finish(bytes);
}

/** The rows a pairing object flattens to: one per crew member and leg or layover, dropped or not (flattenRoster). */
export function pairingRowCount(p: Pairing): number {
  let entries = 0;
  for (const d of p.duty_periods) entries += d.legs.length + (d.layover ? 1 : 0);
  return p.crew.length * entries;
}

/** A roster as the elements of its pairings array: each one's content (equal contents, equal pairing objects) and the element parsed. */
export interface RosterElements {
  readonly contents: readonly string[];
  /** Element `index` parsed (called at most once per element by the functions here). */
  pairing(index: number): Pairing;
}

/** What a roster's elements are, compared with a basis: pairing_number and row count of each, and each pairing_number's content. */
export interface KnownElements {
  numbers: string[];
  rowCounts: number[];
  /** Per pairing_number, its element's content (FlatRoster.pairingContents, what changedPairings compares). */
  contents: Map<string, string>;
  /** The elements parsed to find their pairing_number (contents the basis does not hold). */
  parsed: Map<number, Pairing>;
}

/**
 * Each element's pairing_number and row count, from the basis for a content it holds and by parsing the element
 * otherwise. Null when a pairing_number is sent in more than one element: its rows then depend on each other
 * (DUPLICATE_ROW, the first summary), and the whole roster is flattened.
 */
export function knownElements(roster: RosterElements, basis: DiffBasis): KnownElements | null {
  const known = new Map<string, ElementBasis>();
  for (const e of basis.elements) known.set(e[0], e);
  const out: KnownElements = { numbers: [], rowCounts: [], contents: new Map(), parsed: new Map() };
  roster.contents.forEach((content, i) => {
    const k = known.get(content);
    let number: string;
    if (k) {
      number = k[1];
      out.rowCounts.push(k[3]);
    } else {
      const p = roster.pairing(i);
      out.parsed.set(i, p);
      number = p.pairing_number;
      out.rowCounts.push(pairingRowCount(p));
    }
    out.numbers.push(number);
    out.contents.set(number, content);
  });
  return out.contents.size === out.numbers.length ? out : null;
}

/** A roster flattened element by element: the rows of the elements parsed only. */
export interface ElementsFlattened {
  /** Rows, summaries, flagged keys and audit events of the parsed elements; pairingContents and rowCount of the whole roster. */
  flat: FlatRoster;
  /** Pairing_numbers whose rows were not made: their stored state is kept as it is (state-lines). */
  skipped: Set<string>;
  /** The elements, for the next basis. */
  elements: ElementBasis[];
  /** The pairing objects parsed, in roster order. */
  parsed: Pairing[];
}

/**
 * Flattens the elements of the pairing_numbers in `changed`, and those the basis does not call clean, each from its
 * own first row: the rows, flagged keys and audit events flattenRoster gives them (one pairing_number per element,
 * so no row depends on another element's). Every other element is one the basis holds, clean, whose
 * pairing_number the diff leaves alone: skipped, with its row shift.
 */
export function flattenElements(roster: RosterElements, basis: DiffBasis, known: KnownElements, changed: ReadonlySet<string>): ElementsFlattened {
  const clean = new Map<string, ElementBasis>();
  for (const e of basis.elements) if (e[4] === 1) clean.set(e[0], e);
  const f = new Flattener();
  const skipped = new Set<string>();
  const elements: ElementBasis[] = [];
  const parsed: Pairing[] = [];
  let row = 1;
  roster.contents.forEach((content, i) => {
    const number = known.numbers[i]!;
    const count = known.rowCounts[i]!;
    const before = clean.get(content);
    if (before && !changed.has(number)) {
      skipped.add(number);
      elements.push([content, number, row, count, 1]);
    } else {
      const p = known.parsed.get(i) ?? roster.pairing(i);
      const audits = f.auditEvents.length;
      f.addPairing(p, row);
      parsed.push(p);
      elements.push([content, number, row, count, f.auditEvents.length === audits ? 1 : 0]);
    }
    row += count;
  });
  return { flat: { ...f.result(), rowCount: row - 1, pairingContents: known.contents }, skipped, elements, parsed };
}

/**
 * The elements of a roster flattened whole (flattenRoster of its pairings, in the same order), for the next basis,
 * and each pairing_number's content from its elements' (several joined, in roster order). An element is clean when
 * its pairing_number is sent once and no audit event is of its rows.
 */
export function elementsOfWhole(contents: readonly string[], pairings: readonly Pairing[], flat: FlatRoster): { elements: ElementBasis[]; pairingContents: Map<string, string> } {
  const pairingContents = new Map<string, string>();
  const sent = new Map<string, number>();
  pairings.forEach((p, i) => {
    const before = pairingContents.get(p.pairing_number);
    pairingContents.set(p.pairing_number, before === undefined ? contents[i]! : `${before}|${contents[i]!}`);
    sent.set(p.pairing_number, (sent.get(p.pairing_number) ?? 0) + 1);
  });
  // Audit events are in row order.
  const auditRows = flat.auditEvents.map((e) => e.source_rows.day2_row ?? 0);
  let next = 0;
  let row = 1;
  const elements = pairings.map((p, i): ElementBasis => {
    const count = pairingRowCount(p);
    const end = row + count;
    let audited = false;
    while (next < auditRows.length && auditRows[next]! < end) {
      if (auditRows[next]! >= row) audited = true;
      next++;
    }
    const element: ElementBasis = [contents[i]!, p.pairing_number, row, count, !audited && sent.get(p.pairing_number) === 1 ? 1 : 0];
    row = end;
    return element;
  });
  return { elements, pairingContents };
}

import type { Pairing } from '@crew/contracts';
import type { DiffBasis, ElementBasis } from './changed-pairings';
import { Flattener } from './flatten';
import type { FlatRoster } from './types';

/*
 * A resubmission parses only the pairings it diffs. The worker finds each element of the stored
 * roster's `pairings` array by a scan of its bytes and names it by a hash of those bytes (its content): an element
 * whose content the last diff's basis holds is the same pairing, with the same rows but for their numbers. Only
 * the elements of the pairing_numbers the diff looks at are parsed and flattened; the rows of the others are
 * never made: their stored state lines are kept as they are (state-lines, rewrittenPairings).
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
  if (bytes.subarray(start, end).includes(BACKSLASH))
    return JSON.parse(new TextDecoder().decode(bytes.subarray(start, end))) === 'pairings';
  if (end - start !== PAIRINGS.length + 2) return false;
  for (let i = 0; i < PAIRINGS.length; i++) if (bytes[start + 1 + i] !== PAIRINGS[i]) return false;
  return true;
}

/**
 * What a caller knows of the elements a scan will meet (the worker: the last roster's, from the basis): `guess` gives
 * the end of the element starting at `start` when its bytes are known to be a whole element (the same bytes as one
 * of the last roster's), -1 otherwise; `scanned` is told each element the scan had to read.
 */
export interface ElementGuide {
  guess(start: number): number;
  scanned(start: number, end: number): void;
}

/** Whether the bytes from `at` go on with an array's comma or end (after spaces): a whole element ended at `at`. */
function endsElement(bytes: Uint8Array, at: number): boolean {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return bytes[i] === COMMA || bytes[i] === CLOSE_ARRAY;
}

/**
 * The byte range [start, end) of each element of the top-level `pairings` array of a JSON document, in order, found
 * without parsing it. Null when the document has no such array, has it twice (JSON.parse would take the last), or
 * does not scan as JSON: the caller then parses the whole document. The document is one the api accepted. With a
 * guide, an element it knows is not read byte by byte: the ranges are the same.
 */
export function pairingElementRanges(bytes: Uint8Array, guide?: ElementGuide): [number, number][] | null {
  const n = bytes.length;
  let depth = 0;
  // The last string closed at depth 1 (a key once a colon follows), and whether the value being read is "pairings"'.
  let lastString: [number, number] | null = null;
  let pairingsValue = false;
  let ranges: [number, number][] | null = null;
  let inArray = false;
  // The element being read: where it starts (-1 before it does) and where its last byte so far ends.
  let start = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      const after = stringEnd(bytes, i, n);
      if (after < 0) return null;
      if (depth === 1) lastString = [i, after];
      else if (inArray && depth === 2 && start < 0) start = i;
      i = after - 1;
      last = after;
      continue;
    }
    if (isSpace(b)) continue;
    if (inArray && depth === 2) {
      if (b === COMMA || b === CLOSE_ARRAY) {
        if (start >= 0) ranges!.push([start, last]);
        else if (b === COMMA) return null;
        start = -1;
        if (b === CLOSE_ARRAY) {
          inArray = false;
          depth--;
        }
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        // An element that is an object or array (a pairing): one the guide knows ends where it says (and must be
        // followed by the array's comma or end); any other is read to its end in one tight loop.
        let after = guide && start < 0 ? guide.guess(i) : -1;
        if (after > i && !endsElement(bytes, after)) after = -1;
        if (after <= i) {
          after = valueEnd(bytes, i, n);
          if (after < 0) return null;
          guide?.scanned(i, after);
        }
        start = i;
        i = after - 1;
        last = after;
        continue;
      }
      if (start < 0) start = i;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (depth === 1 && pairingsValue) {
        if (b !== OPEN_ARRAY || ranges) return null;
        ranges = [];
        inArray = true;
      }
      depth++;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      if (--depth < 0) return null;
    } else if (depth === 1) {
      if (b === COLON) pairingsValue = lastString !== null && isPairingsKey(bytes, lastString[0], lastString[1]);
      else if (b === COMMA) pairingsValue = false;
    }
    last = i + 1;
  }
  return depth === 0 && !inArray ? ranges : null;
}

/** The rows a pairing object flattens to: one per crew member and leg or layover, dropped or not (flattenRoster). */
export function pairingRowCount(p: Pairing): number {
  let entries = 0;
  for (const d of p.duty_periods) entries += d.legs.length + (d.layover ? 1 : 0);
  return p.crew.length * entries;
}

/** What elementsOfWhole needs of a pairing object: its pairing_number and row count. */
export interface PairingShape {
  pairing_number: string;
  rows: number;
}

/** The shapes of a roster's pairing objects, in order. */
export function pairingShapesOf(pairings: readonly Pairing[]): PairingShape[] {
  return pairings.map((p) => ({ pairing_number: p.pairing_number, rows: pairingRowCount(p) }));
}

/** A roster as the elements of its pairings array: each one's content (equal contents, equal pairing objects) and the element parsed. */
export interface RosterElements {
  readonly contents: readonly string[];
  /** Each element's length in bytes. */
  readonly lengths: readonly number[];
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

/**
 * The pairing_numbers whose stored state lines a diff writes again (state-lines): those it diffs (`changed`), and
 * those of the roster's elements (`elements`, as the next basis holds them) that are not clean or whose content the
 * basis does not hold as clean. The line of any other pairing_number is the one stored: a clean element the basis
 * holds flattens to the rows it did, and its pairing_number not being diffed means its rows and bookings are as they
 * were (and, in a moved window, all dated inside both windows or outside both: changedPairings); a pairing_number
 * only kept in the state is diffed once the window moves over its dates.
 */
export function rewrittenPairings(
  basis: DiffBasis,
  elements: readonly ElementBasis[],
  changed: ReadonlySet<string>,
): Set<string> {
  const clean = new Set<string>();
  for (const e of basis.elements) if (e[4] === 1) clean.add(e[0]);
  const rewritten = new Set(changed);
  for (const e of elements) if (e[4] !== 1 || !clean.has(e[0])) rewritten.add(e[1]);
  return rewritten;
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
 * pairing_number the diff leaves alone: skipped (its stored state line is kept).
 */
export function flattenElements(
  roster: RosterElements,
  basis: DiffBasis,
  known: KnownElements,
  changed: ReadonlySet<string>,
): ElementsFlattened {
  const clean = new Set<string>();
  for (const e of basis.elements) if (e[4] === 1) clean.add(e[0]);
  const f = new Flattener();
  const skipped = new Set<string>();
  const elements: ElementBasis[] = [];
  const parsed: Pairing[] = [];
  let row = 1;
  roster.contents.forEach((content, i) => {
    const number = known.numbers[i]!;
    const count = known.rowCounts[i]!;
    if (clean.has(content) && !changed.has(number)) {
      skipped.add(number);
      elements.push([content, number, row, count, 1, roster.lengths[i]!]);
    } else {
      const p = known.parsed.get(i) ?? roster.pairing(i);
      const audits = f.auditEvents.length;
      f.addPairing(p, row);
      parsed.push(p);
      elements.push([content, number, row, count, f.auditEvents.length === audits ? 1 : 0, roster.lengths[i]!]);
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
export function elementsOfWhole(
  { contents, lengths }: Pick<RosterElements, 'contents' | 'lengths'>,
  pairings: readonly PairingShape[],
  flat: Pick<FlatRoster, 'auditEvents'>,
): { elements: ElementBasis[]; pairingContents: Map<string, string> } {
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
    const count = p.rows;
    const end = row + count;
    let audited = false;
    while (next < auditRows.length && auditRows[next]! < end) {
      if (auditRows[next]! >= row) audited = true;
      next++;
    }
    const element: ElementBasis = [
      contents[i]!,
      p.pairing_number,
      row,
      count,
      !audited && sent.get(p.pairing_number) === 1 ? 1 : 0,
      lengths[i]!,
    ];
    row = end;
    return element;
  });
  return { elements, pairingContents };
}

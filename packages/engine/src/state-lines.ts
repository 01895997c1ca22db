import { pairingOfKey } from './keys';
import type { NextRosterState } from './state';
import {
  rosterStateOf,
  type RosterStateAsStored,
  deadheadOf,
  deadheadTuple,
  layoverOf,
  layoverTuple,
  pairingOf,
  pairingTuple,
  type DeadheadTuple,
  type LayoverTuple,
  type PairingTuple,
} from './state-storage';
import type { RosterState } from './types';

/*
 * A roster state stored a line per pairing_number: a resubmission reads the lines of the pairings it
 * diffs and writes theirs again; every other line is kept as it is, never parsed. A pairing's current rows (those
 * nextRosterState takes from the roster) are numbered from the pairing's first row, which the header gives per
 * pairing_number: a pairing the diff leaves alone moves in the roster without its line changing. Its kept rows
 * (from earlier rosters) keep their own numbers.
 *
 *   {"v":3,"first_rows":[["P1",1],["P2",45],...]}
 *   "P1"<TAB>[current deadheads, current layovers, current pairings, kept deadheads, kept layovers, kept pairings]
 *   ...
 *
 * Lines are sorted by pairing_number; JSON never holds a raw newline or tab, so neither separator needs escaping.
 */

export const STATE_LINES_VERSION = 3;

type Line = [DeadheadTuple[], LayoverTuple[], PairingTuple[], DeadheadTuple[], LayoverTuple[], PairingTuple[]];

/** Whether a stored state's text is of this form (older ones are one JSON document: state-storage). */
export function isStateLinesText(text: string): boolean {
  return text.startsWith(`{"v":${STATE_LINES_VERSION},`);
}

/** A stored state, read: its lines, or the one JSON document of an older form. */
export type StoredState = StateLines | RosterStateAsStored;

/** A stored state's text, read: split into lines (none parsed), or parsed whole when of an older form. */
export function storedStateOfText(text: string): StoredState {
  return isStateLinesText(text) ? stateLinesOf(text) : (JSON.parse(text) as RosterStateAsStored);
}

export function isStateLines(stored: StoredState): stored is StateLines {
  return (stored as Partial<StateLines>).lines instanceof Map;
}

/** The whole roster state a stored one holds, whatever its form. */
export function rosterStateOfStored(stored: StoredState): RosterState {
  return isStateLines(stored) ? rosterStateOfLines(stored) : rosterStateOf(stored);
}

/** A stored state's lines, parsed only when asked (rosterState). */
export interface StateLines {
  /** Each pairing_number's first row in the roster whose rows the state holds as current. */
  firstRows: Map<string, number>;
  /** Each pairing_number's line (its JSON). */
  lines: Map<string, string>;
}

/** The lines of a stored state's text (isStateLinesText): split, not parsed. */
export function stateLinesOf(text: string): StateLines {
  const headerEnd = text.indexOf('\n');
  const header = JSON.parse(headerEnd < 0 ? text : text.slice(0, headerEnd)) as {
    v: number;
    first_rows: [string, number][];
  };
  if (header.v !== STATE_LINES_VERSION) throw new Error(`not a state of lines (v ${header.v})`);
  const lines = new Map<string, string>();
  let at = headerEnd + 1;
  while (headerEnd >= 0 && at < text.length) {
    const tab = text.indexOf('\t', at);
    let end = text.indexOf('\n', tab);
    if (end < 0) end = text.length;
    lines.set(JSON.parse(text.slice(at, tab)) as string, text.slice(tab + 1, end));
    at = end + 1;
  }
  return { firstRows: new Map(header.first_rows), lines };
}

/** The state the lines hold (of the given pairing_numbers only, when given): per line in order, its current rows, then its kept rows. */
export function rosterStateOfLines(state: StateLines, only?: Iterable<string>): RosterState {
  const out: RosterState = { deadheads: [], layovers: [], pairings: [] };
  const numbers = only ? [...only].filter((p) => state.lines.has(p)).sort() : [...state.lines.keys()];
  for (const pairing of numbers) {
    const [cd, cl, cp, kd, kl, kp] = JSON.parse(state.lines.get(pairing)!) as Line;
    const first = cd.length || cl.length || cp.length ? state.firstRows.get(pairing) : 0;
    if (first === undefined) throw new Error(`the stored state has no first row for pairing ${pairing}`);
    for (const d of cd) out.deadheads.push(deadheadOf(d, first));
    for (const d of kd) out.deadheads.push(deadheadOf(d));
    for (const l of cl) out.layovers.push(layoverOf(l, first));
    for (const l of kl) out.layovers.push(layoverOf(l));
    for (const p of cp) out.pairings.push(pairingOf(p, first));
    for (const p of kp) out.pairings.push(pairingOf(p));
  }
  return out;
}

/**
 * The lines of a next state (of the pairing_numbers its rows are of), its current rows numbered from the first row
 * each pairing has in `firstRows` (every pairing with current rows is in the roster, and has one).
 */
export function linesOfState(
  next: NextRosterState,
  firstRows: ReadonlyMap<string, number>,
  only?: ReadonlySet<string>,
): Map<string, string> {
  const parts = linesOfStateInParts(next, firstRows, Infinity, only);
  for (let step = parts.next(); ; step = parts.next()) if (step.done) return step.value;
}

/**
 * linesOfState (of the pairing_numbers in `only`, when given), pausing after every `perPart` rows grouped and every
 * `perPart` lines encoded (the worker lets its COPYs go on meanwhile).
 */
export function* linesOfStateInParts(
  next: NextRosterState,
  firstRows: ReadonlyMap<string, number>,
  perPart: number,
  only?: ReadonlySet<string>,
): Generator<void, Map<string, string>, void> {
  const parts = new Map<string, Line>();
  /** The line of a pairing_number, or null for one left out. */
  const lineOf = (pairing: string): Line | null => {
    if (only && !only.has(pairing)) return null;
    let line = parts.get(pairing);
    if (!line) parts.set(pairing, (line = [[], [], [], [], [], []]));
    return line;
  };
  const firstRowOf = (pairing: string) => {
    const first = firstRows.get(pairing);
    if (first === undefined) throw new Error(`no first row for pairing ${pairing}`);
    return first;
  };
  let count = 0;
  const pause = () => ++count % perPart === 0;
  for (const d of next.current.deadheads) {
    const line = lineOf(d.pairing_number);
    if (line) {
      const t = deadheadTuple(d);
      t[5] -= firstRowOf(d.pairing_number);
      line[0].push(t);
    }
    if (pause()) yield;
  }
  for (const l of next.current.layovers) {
    const pairing = pairingOfKey(l.key);
    lineOf(pairing)?.[1].push([l.key, l.row - firstRowOf(pairing), l.date]);
    if (pause()) yield;
  }
  for (const p of next.current.pairings) {
    const line = lineOf(p.pairing_number);
    if (!line) continue;
    const t = pairingTuple(p);
    const first = firstRowOf(p.pairing_number);
    t[5] -= first;
    t[6] -= first;
    line[2].push(t);
  }
  for (const d of next.kept.deadheads) {
    lineOf(d.pairing_number)?.[3].push(deadheadTuple(d));
    if (pause()) yield;
  }
  for (const l of next.kept.layovers) {
    lineOf(pairingOfKey(l.key))?.[4].push(layoverTuple(l));
    if (pause()) yield;
  }
  for (const p of next.kept.pairings) lineOf(p.pairing_number)?.[5].push(pairingTuple(p));
  const lines = new Map<string, string>();
  for (const [pairing, line] of parts) {
    lines.set(pairing, JSON.stringify(line));
    if (pause()) yield;
  }
  return lines;
}

/**
 * The text of a stored state: the header with every pairing's first row in the roster, and the lines, sorted by
 * pairing_number. `lines` are those of the pairings the diff derived a next state for (linesOfState) laid over
 * `kept`, the lines of the state before, of which those of `replaced` pairing_numbers are dropped first.
 */
export function stateLinesText(
  firstRows: ReadonlyMap<string, number>,
  lines: ReadonlyMap<string, string>,
  kept?: StateLines,
  replaced?: Iterable<string>,
): string {
  const all = new Map(kept?.lines);
  for (const pairing of replaced ?? []) all.delete(pairing);
  for (const [pairing, line] of lines) all.set(pairing, line);
  const text = [JSON.stringify({ v: STATE_LINES_VERSION, first_rows: [...firstRows] })];
  for (const pairing of [...all.keys()].sort()) text.push(`${JSON.stringify(pairing)}\t${all.get(pairing)!}`);
  return text.join('\n');
}

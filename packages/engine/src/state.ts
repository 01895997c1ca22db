import { pairingOfKey } from './keys';
import { inWindow, localDateOf, type DateWindow } from './time';
import type { DeadheadRow, FlatRoster, LayoverRef, LayoverRow, PairingSummary, RosterState, SkippedPairings } from './types';

function refOf(l: LayoverRow): LayoverRef {
  return { key: l.key, row: l.row, date: localDateOf(l.checkin_time_local) };
}

function overlaps(p: PairingSummary, window: DateWindow): boolean {
  return p.first_date <= window.end && p.last_date >= window.start;
}

/** The complete state of one roster, as if its whole content had been reconciled. */
export function rosterState(flat: FlatRoster): RosterState {
  return { deadheads: flat.deadheads, layovers: flat.layovers.map(refOf), pairings: flat.pairings };
}

const byRow = (a: { row: number }, b: { row: number }) => a.row - b.row;

/**
 * The state to keep after a diff: the current rows dated inside the window, plus the previous
 * rows the diff left alone (dated outside the window, or whose current row was skipped as
 * impossible data). Pairing summaries follow the same rule, by overlap with the window.
 *
 * `skipped`: pairing_numbers whose rows `current` does not hold (roster-elements flattenElements), each sent in one
 * clean element the last diff, in this window, flattened from the same content. Their previous rows dated inside
 * the window are exactly the rows they flatten to now (that diff kept them; nothing of theirs is flagged, so no
 * other previous row of theirs is dated inside), numbered then: shifted, they are the current rows, in roster
 * (row) order among the others; their previous rows outside the window are kept as for every pairing. Their
 * summary overlapping the window is the previous one (a kept summary never overlaps), shifted too, in roster order.
 */
export function nextRosterState(previous: RosterState, current: FlatRoster, window: DateWindow, flagged: ReadonlySet<string>, skipped?: SkippedPairings): RosterState {
  const keepPrevious = (key: string, date: string) => !inWindow(date, window) || flagged.has(key);
  const pairings = current.pairings.filter((p) => overlaps(p, window));
  let deadheads = current.deadheads.filter((r) => inWindow(r.duty_date, window));
  let layovers = current.layovers.filter((l) => inWindow(localDateOf(l.checkin_time_local), window)).map(refOf);
  const shifts = skipped?.shifts;
  if (shifts?.size) {
    const moved: DeadheadRow[] = [];
    for (const r of previous.deadheads) {
      const shift = shifts.get(r.pairing_number);
      if (shift !== undefined && inWindow(r.duty_date, window)) moved.push({ ...r, row: r.row + shift });
    }
    const refs: LayoverRef[] = [];
    for (const l of previous.layovers) {
      if (!inWindow(l.date, window)) continue;
      const shift = shifts.get(pairingOfKey(l.key));
      if (shift !== undefined) refs.push({ key: l.key, row: l.row + shift, date: l.date });
    }
    for (const p of previous.pairings) {
      const shift = shifts.get(p.pairing_number);
      if (shift !== undefined && overlaps(p, window)) pairings.push({ ...p, first_row: p.first_row + shift, last_row: p.last_row + shift });
    }
    // Rows are numbered in roster order, and every element's are consecutive: sorted runs, which sort quickly.
    deadheads = [...deadheads, ...moved].sort(byRow);
    layovers = [...layovers, ...refs].sort(byRow);
    const position = (p: PairingSummary) => skipped!.positions.get(p.pairing_number)!;
    pairings.sort((a, b) => position(a) - position(b));
  }
  const taken = new Set(pairings.map((p) => p.pairing_number));
  return {
    deadheads: [...deadheads, ...previous.deadheads.filter((r) => keepPrevious(r.key, r.duty_date))],
    layovers: [...layovers, ...previous.layovers.filter((l) => keepPrevious(l.key, l.date))],
    pairings: [...pairings, ...previous.pairings.filter((p) => !taken.has(p.pairing_number) && !overlaps(p, window))],
  };
}

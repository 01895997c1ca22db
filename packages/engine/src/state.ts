import { inWindow, localDateOf, type DateWindow } from './time';
import type { FlatRoster, LayoverRef, LayoverRow, PairingSummary, RosterState } from './types';

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

/**
 * The state to keep after a diff: the current rows dated inside the window, plus the previous
 * rows the diff left alone (dated outside the window, or whose current row was skipped as
 * impossible data). Pairing summaries follow the same rule, by overlap with the window.
 */
export function nextRosterState(previous: RosterState, current: FlatRoster, window: DateWindow, flagged: ReadonlySet<string>): RosterState {
  const keepPrevious = (key: string, date: string) => !inWindow(date, window) || flagged.has(key);
  const pairings = current.pairings.filter((p) => overlaps(p, window));
  const taken = new Set(pairings.map((p) => p.pairing_number));
  return {
    deadheads: [...current.deadheads.filter((r) => inWindow(r.duty_date, window)), ...previous.deadheads.filter((r) => keepPrevious(r.key, r.duty_date))],
    layovers: [...current.layovers.filter((l) => inWindow(localDateOf(l.checkin_time_local), window)).map(refOf), ...previous.layovers.filter((l) => keepPrevious(l.key, l.date))],
    pairings: [...pairings, ...previous.pairings.filter((p) => !taken.has(p.pairing_number) && !overlaps(p, window))],
  };
}

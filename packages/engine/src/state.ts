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
export function nextRosterState(
  previous: RosterState,
  current: FlatRoster,
  window: DateWindow,
  flagged: ReadonlySet<string>,
): RosterState {
  return joinedRosterState(nextRosterStateParts(previous, current, window, flagged));
}

/** A next roster state as nextRosterState builds it: the current rows (from the roster), then the previous rows kept. */
export interface NextRosterState {
  current: RosterState;
  kept: RosterState;
}

/** The state a NextRosterState is: its current rows, then its kept ones. */
export function joinedRosterState(next: NextRosterState): RosterState {
  return {
    deadheads: [...next.current.deadheads, ...next.kept.deadheads],
    layovers: [...next.current.layovers, ...next.kept.layovers],
    pairings: [...next.current.pairings, ...next.kept.pairings],
  };
}

/** nextRosterState, its current rows and its kept ones apart (a stored state keeps them apart: state-lines). */
export function nextRosterStateParts(
  previous: RosterState,
  current: FlatRoster,
  window: DateWindow,
  flagged: ReadonlySet<string>,
): NextRosterState {
  const keepPrevious = (key: string, date: string) => !inWindow(date, window) || flagged.has(key);
  const pairings = current.pairings.filter((p) => overlaps(p, window));
  const deadheads = current.deadheads.filter((r) => inWindow(r.duty_date, window));
  const layovers = current.layovers.filter((l) => inWindow(localDateOf(l.checkin_time_local), window)).map(refOf);
  const taken = new Set(pairings.map((p) => p.pairing_number));
  return {
    current: { deadheads, layovers, pairings },
    kept: {
      deadheads: previous.deadheads.filter((r) => keepPrevious(r.key, r.duty_date)),
      layovers: previous.layovers.filter((l) => keepPrevious(l.key, l.date)),
      pairings: previous.pairings.filter((p) => !taken.has(p.pairing_number) && !overlaps(p, window)),
    },
  };
}

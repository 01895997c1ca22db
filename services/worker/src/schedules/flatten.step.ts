import type { Pairing, ScheduleSubmission } from '@crew/contracts';
import type { rosterStateRepo } from '@crew/db';
import {
  cancellationCutoffOf,
  changedPairings,
  elementsOfWhole,
  flattenElements,
  flattenRoster,
  isStateLines,
  knownElements,
  pairingShapesOf,
  rewrittenPairings,
  rosterStateOfStored,
  windowMoved,
  type DiffBasis,
  type DiffBasisNow,
  type ElementBasis,
  type FlatRoster,
  type PairingShape,
  type RosterElements,
  type RosterState,
  type StateLines,
  type StoredState,
} from '@crew/engine';
import type { ComparedWith } from './read-submission.step';
import { rosterElementsOf } from './roster-element-scan';
import { unreadable } from './schedule-errors';
import type { DiffRun, RosterBytes } from './schedule-run';

/*
 * Step 3 of the schedule processor, flatten: the roster's pairings found as elements (a scan of its bytes), and the
 * pairings to diff parsed and flattened: only those whose elements changed when the basis tells which, otherwise the
 * whole roster.
 */

/** What a diff takes of the roster: its rows (of every pairing, or of those it diffs and the basis calls unclean), the travellers in them, the pairings to diff and the elements for the next basis. */
export interface DiffSubject {
  flat: FlatRoster;
  crew: Map<string, { traveller_email: string; employee_id: string; name: string }>;
  /** The pairing_numbers to diff (engine changedPairings), or null for all of them. */
  changed: Set<string> | null;
  /** The pairings whose rows were not made (engine flattenElements), or undefined when all were: their stored state lines are kept. */
  skipped?: Set<string>;
  /** With `skipped`: the pairing_numbers whose stored state lines the diff reads and writes again (engine rewrittenPairings). */
  rewritten?: Set<string>;
  /** The roster's elements for the next basis, or null when they were not found (or not yet: `later`). */
  elements: ElementBasis[] | null;
  /**
   * A roster diffed whole with no basis (an airline's first) finds its elements only for the next basis: later, in
   * the write transaction, while Postgres computes the fingerprints.
   */
  later?: () => { flat: FlatRoster; elements: ElementBasis[] | null };
}

/** The flattened roster, and what it was compared with to choose the pairings to diff. */
export interface Flattened {
  subject: DiffSubject;
  /** The basis the last diff left, or null. */
  basis: DiffBasis | null;
  /** The roster's elements (found when there is a basis), for the whole roster parsed after all (read-diff-state). */
  elements: RosterElements | null;
  /** The window's fingerprints read before the diff (ComparedWith.read). */
  read: rosterStateRepo.WindowFingerprints;
  /** The cancellation cut-off of the settings read before the diff: a later read of them must not move it earlier. */
  basisCutoff: string;
  /** The stored state of the last diff, or null. */
  stored: StoredState | null;
  /** The stored state when it is of lines (only those can be kept unread), else null. */
  lines: StateLines | null;
  /** In a window other than the last diff's: the previous state decoded whole, which chose the pairings to diff. */
  movedFrom: RosterState | undefined;
}

/**
 * The roster's elements and, in the basis's window, only the elements of the pairings to diff parsed and flattened;
 * otherwise all of them, while Postgres reads the rest of what the diff compares with.
 */
export async function flatten(
  run: DiffRun,
  roster: RosterBytes,
  basis: DiffBasis | null,
  compareWith: ComparedWith,
): Promise<Flattened> {
  const { window, processedAt, timings } = run;
  // The roster's elements, named by their bytes' hash: what a resubmission compares with the basis before parsing
  // any. The last roster's elements guide the scan: those sent again as they were are not read byte by byte.
  const elements = timings.timed('index_roster', () =>
    basis ? rosterElementsOf(roster.bytes!, basis.elements) : null,
  );
  const elementwise = elements !== null && basis !== null && !windowMoved(basis, window);
  // An airline's first roster (no basis) finds its elements in the write transaction (DiffSubject.later).
  let subject = elementwise
    ? null
    : timings.timed('flatten', () => wholeRosterOf(roster.bytes!, basis ? elements : 'later'));
  const [read, settings, stored] = await Promise.all([compareWith.read, compareWith.settings, compareWith.state]);
  const basisCutoff = cancellationCutoffOf(processedAt, settings.policy.cancellation_lookback_days);
  // In a window other than the last diff's, which pairings to diff depends on the dates of the previous state's
  // rows: it is decoded whole first then (otherwise while Postgres reads the bookings, in read-diff-state).
  const moved = basis !== null && windowMoved(basis, window);
  const movedFrom = moved && stored ? rosterStateOfStored(stored) : undefined;
  const now = {
    bookings: read.byPairing,
    bookingDates: read.datesByPairing,
    previous: movedFrom,
    window,
    cutoff: basisCutoff,
    emitUnchanged: settings.emitUnchanged,
  };
  // Only the lines of a state stored as lines can be kept unread (a state stored in an older form gets the whole diff once).
  const lines = stored && isStateLines(stored) ? stored : null;
  if (!subject && lines) subject = changedElementsOf(elements!, basis!, now);
  // A pairing_number sent twice, a whole diff asked for, or a state stored in an older form.
  subject ??= timings.timed('flatten', () => wholeRosterOf(roster.bytes!, elements));
  const chosen = subject;
  return timings.timed('changed_pairings', () => {
    if (!chosen.skipped) chosen.changed = changedPairings(basis, { ...now, flat: chosen.flat });
    return { subject: chosen, basis, elements, read, basisCutoff, stored, lines, movedFrom };
  });
}

/** The travellers of a roster's pairings, the last occurrence of each e-mail winning. */
function crewOf(pairings: readonly Pairing[]): DiffSubject['crew'] {
  const crew: DiffSubject['crew'] = new Map();
  for (const p of pairings)
    for (const c of p.crew)
      crew.set(c.traveller_email.toLowerCase(), {
        traveller_email: c.traveller_email,
        employee_id: c.employee_id,
        name: c.name,
      });
  return crew;
}

/** The whole roster parsed and flattened, each pairing_number's content its elements' when they were found. */
export function wholeRosterOf(bytes: Buffer, elements: RosterElements | null | 'later'): DiffSubject {
  let submission: ScheduleSubmission;
  try {
    submission = JSON.parse(bytes.toString('utf8')) as ScheduleSubmission;
  } catch (err) {
    throw unreadable(err);
  }
  const flat = flattenRoster(submission);
  const crew = crewOf(submission.pairings);
  // What elementsOfWhole reads of the pairings (the parsed roster is not held on to).
  const shapes = pairingShapesOf(submission.pairings);
  if (elements === 'later')
    return {
      flat,
      crew,
      changed: null,
      elements: null,
      later: () => withElements(flat, rosterElementsOf(bytes), shapes),
    };
  return { ...withElements(flat, elements, shapes), crew, changed: null };
}

/** The roster's elements for the next basis, and each pairing_number's content from them (engine elementsOfWhole), when they were found. */
function withElements(
  flat: FlatRoster,
  elements: RosterElements | null,
  pairings: readonly PairingShape[],
): { flat: FlatRoster; elements: ElementBasis[] | null } {
  if (!elements || elements.contents.length !== pairings.length) return { flat, elements: null };
  const { elements: basisElements, pairingContents } = elementsOfWhole(elements, pairings, flat);
  return { flat: { ...flat, pairingContents }, elements: basisElements };
}

/**
 * Only the elements of the pairings to diff parsed and flattened (engine knownElements, flattenElements), when the
 * basis tells which: null when it cannot (a pairing_number sent twice, a whole diff asked for). The travellers are
 * those of the elements parsed: an unchanged element's were upserted when it was new.
 */
function changedElementsOf(
  elements: RosterElements,
  basis: DiffBasis,
  now: Omit<DiffBasisNow, 'flat'>,
): DiffSubject | null {
  try {
    const known = knownElements(elements, basis);
    const changed = known && changedPairings(basis, { ...now, flat: { pairingContents: known.contents } });
    if (!known || !changed) return null;
    const part = flattenElements(elements, basis, known, changed);
    // Every element parsed is one of these: its pairing_number is diffed, or the basis does not call its content clean.
    const rewritten = rewrittenPairings(basis, part.elements, changed);
    return {
      flat: part.flat,
      crew: crewOf(part.parsed),
      changed,
      skipped: part.skipped,
      rewritten,
      elements: part.elements,
    };
  } catch (err) {
    if (err instanceof SyntaxError) throw unreadable(err);
    throw err;
  }
}

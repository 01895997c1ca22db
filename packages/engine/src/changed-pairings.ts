import { newLayoverInWindow } from './diff';
import type { DateWindow } from './time';
import type { DerivedActionItem, FlatRoster } from './types';

/*
 * Diffing only the pairings that changed (issue 12). Every rule of the diff is keyed by pairing_number (a
 * row key holds it, a booking is matched by it, a swap is within one pairing), so a pairing_number whose
 * rows, previous rows and bookings are as they were when the last diff settled it derives nothing again.
 * What the last diff leaves behind per pairing_number is its basis; the next diff compares with it.
 */

/** The stored basis's version. */
export const DIFF_BASIS_VERSION = 1;

/** One pairing_number of a basis: its content (FlatRoster.pairingContents, null when not rostered), the fingerprint of its bookings dated inside the window (null when none) and whether its diff settled. */
type PairingBasis = [pairing_number: string, content: string | null, bookings: string | null, settled: 0 | 1];

/** What a diff leaves for the next one: plain JSON. */
export interface DiffBasis {
  v: typeof DIFF_BASIS_VERSION;
  window: DateWindow;
  /** The cancellation cut-off the diff ran with (cancellationCutoffOf). */
  cutoff: string;
  pairings: PairingBasis[];
}

/** What the next diff runs with, to compare with a basis. */
export interface DiffBasisNow {
  flat: FlatRoster;
  /** Fingerprint of each pairing_number's bookings dated inside the window, as they are now (pairing_number null left out). */
  bookings: ReadonlyMap<string, string>;
  window: DateWindow;
  cutoff: string;
  emitUnchanged: boolean;
}

/**
 * A pairing_number settles when a diff of the same rows against its bookings as written derives nothing, as
 * settlesOnRerun says of a whole roster: every HOTEL item is a new layover (a deadhead is compared with the
 * previous roster's rows, which are now these, whatever its booking became).
 */
function unsettledPairings(items: readonly DerivedActionItem[], window: DateWindow): Set<string> {
  const unsettled = new Set<string>();
  for (const i of items) if (i.type === 'HOTEL' && !newLayoverInWindow(i, window)) unsettled.add(i.anchors.pairing_number);
  return unsettled;
}

/**
 * The basis a diff leaves: every pairing_number rostered or with bookings in the window, with `bookings` the
 * fingerprints once the diff's writes are in. `disturbed`: pairing_numbers that do not settle for reasons the
 * items do not show (a booking someone else changed while the diff ran, one its writes adopted). Only for a
 * diff run with emit_unchanged off (the caller keeps no basis otherwise).
 */
export function diffBasisOf(
  flat: FlatRoster,
  items: readonly DerivedActionItem[],
  bookings: ReadonlyMap<string, string>,
  window: DateWindow,
  cutoff: string,
  disturbed: Iterable<string> = [],
): DiffBasis {
  const unsettled = unsettledPairings(items, window);
  for (const pairing of disturbed) unsettled.add(pairing);
  const pairings: PairingBasis[] = [];
  for (const [pairing, content] of flat.pairingContents) pairings.push([pairing, content, bookings.get(pairing) ?? null, unsettled.has(pairing) ? 0 : 1]);
  for (const [pairing, fingerprint] of bookings) {
    if (!flat.pairingContents.has(pairing)) pairings.push([pairing, null, fingerprint, unsettled.has(pairing) ? 0 : 1]);
  }
  return { v: DIFF_BASIS_VERSION, window: { start: window.start, end: window.end }, cutoff, pairings };
}

/**
 * The pairing_numbers this diff must look at, or null when it must diff everything: no basis (or one of
 * another form), another window, emit_unchanged on (it derives items for unchanged rows), or a cancellation
 * cut-off earlier than the basis's (an earlier cut-off may cancel more; a later one only leaves more alone).
 * A pairing_number is left out only when its content and bookings are those of the basis and its diff
 * settled there.
 */
export function changedPairings(basis: DiffBasis | null, now: DiffBasisNow): Set<string> | null {
  if (!basis || basis.v !== DIFF_BASIS_VERSION || now.emitUnchanged || now.cutoff < basis.cutoff) return null;
  if (basis.window.start !== now.window.start || basis.window.end !== now.window.end) return null;
  const changed = new Set<string>();
  const known = new Map<string, PairingBasis>();
  for (const b of basis.pairings) known.set(b[0], b);
  const consider = (pairing: string) => {
    const b = known.get(pairing);
    if (!b || b[3] !== 1 || b[1] !== (now.flat.pairingContents.get(pairing) ?? null) || b[2] !== (now.bookings.get(pairing) ?? null)) changed.add(pairing);
  };
  for (const pairing of now.flat.pairingContents.keys()) consider(pairing);
  for (const pairing of now.bookings.keys()) consider(pairing);
  // Rostered or booked before and neither now: its rows are gone.
  for (const pairing of known.keys()) if (!now.flat.pairingContents.has(pairing) && !now.bookings.has(pairing)) changed.add(pairing);
  return changed;
}

import { newLayoverInWindow } from './diff';
import { pairingOfKey } from './keys';
import { localDateOf, type DateWindow } from './time';
import type { DerivedActionItem, FlatRoster, RosterState } from './types';

/*
 * Diffing only the pairings that changed. Every rule of the diff is keyed by pairing_number (a
 * row key holds it, a booking is matched by it, a swap is within one pairing), so a pairing_number whose
 * rows, previous rows and bookings are as they were when the last diff settled it derives nothing again.
 * What the last diff leaves behind per pairing_number is its basis; the next diff compares with it.
 */

/** The stored basis's version: 2 names contents by the roster's elements (roster-elements); a basis of 1 gets the whole diff once. */
export const DIFF_BASIS_VERSION = 2;

/** One pairing_number of a basis: its content (FlatRoster.pairingContents, null when not rostered), the fingerprint of its bookings dated inside the window (null when none) and whether its diff settled. */
type PairingBasis = [pairing_number: string, content: string | null, bookings: string | null, settled: 0 | 1];

/**
 * One element of the roster's pairings array, in roster order: its content (roster-elements), pairing_number, first
 * row and row count, its length in bytes (the next scan's guide: roster-elements ElementGuide), and whether it is clean (its pairing_number sent once, no audit event of its rows): a clean
 * element's rows in the next state are those its content flattens to, and nothing else of its pairing_number's.
 */
export type ElementBasis = [
  content: string,
  pairing_number: string,
  first_row: number,
  row_count: number,
  clean: 0 | 1,
  length: number,
];

/** What a diff leaves for the next one: plain JSON. */
export interface DiffBasis {
  v: typeof DIFF_BASIS_VERSION;
  window: DateWindow;
  /** The cancellation cut-off the diff ran with (cancellationCutoffOf). */
  cutoff: string;
  pairings: PairingBasis[];
  /** The roster's elements (empty when the diff had no element contents). */
  elements: ElementBasis[];
}

/** What the next diff runs with, to compare with a basis. */
export interface DiffBasisNow {
  /** The roster flattened, or only its contents per pairing_number before it is (enough when the window did not move). */
  flat: FlatRoster | { pairingContents: ReadonlyMap<string, string>; deadheads?: undefined };
  /** Fingerprint of each pairing_number's bookings dated inside the window, as they are now (pairing_number null left out). */
  bookings: ReadonlyMap<string, string>;
  /**
   * The first and last date each pairing_number's bookings (those of `bookings`) are judged by: their duty date and
   * a hotel's check-in date. Asked for only when the window moved; without it a booked pairing_number is diffed then.
   */
  bookingDates?: ReadonlyMap<string, readonly [string, string]>;
  /**
   * The state the last diff left (this diff's previous state). Asked for only when the window moved, for the
   * dates of each pairing_number's rows kept there; without it a moved window gets the whole diff.
   */
  previous?: RosterState;
  window: DateWindow;
  cutoff: string;
  emitUnchanged: boolean;
}

/** [first, last] date per pairing_number, widened by each date given. */
class Spans extends Map<string, [string, string]> {
  add(pairing: string, date: string): void {
    const span = this.get(pairing);
    if (!span) this.set(pairing, [date, date]);
    else if (date < span[0]) span[0] = date;
    else if (date > span[1]) span[1] = date;
  }
}

/**
 * The dates every rule of the diff judges a pairing_number's rows by (a leg's duty date, a layover's duty and
 * check-in dates, a pairing's first and last date), over its rows in the roster (inside the window or not) and
 * in the previous state. A pairing_number whose content is that of the basis has the rows it had then: these
 * are the dates of every row the last diff and this one look at for it.
 */
function spansOf(flat: FlatRoster, previous: RosterState): Spans {
  const spans = new Spans();
  for (const r of flat.deadheads) spans.add(r.pairing_number, r.duty_date);
  for (const r of flat.layovers) {
    spans.add(r.pairing_number, r.duty_date);
    if (!r.checkin_time_local.startsWith(r.duty_date)) spans.add(r.pairing_number, localDateOf(r.checkin_time_local));
  }
  for (const list of [flat.pairings, previous.pairings]) {
    for (const p of list) {
      spans.add(p.pairing_number, p.first_date);
      spans.add(p.pairing_number, p.last_date);
    }
  }
  for (const r of previous.deadheads) spans.add(r.pairing_number, r.duty_date);
  for (const l of previous.layovers) spans.add(pairingOfKey(l.key), l.date);
  return spans;
}

/**
 * A pairing_number settles when a diff of the same rows against its bookings as written derives nothing, as
 * settlesOnRerun says of a whole roster: every HOTEL item is a new layover (a deadhead is compared with the
 * previous roster's rows, which are now these, whatever its booking became).
 */
function unsettledPairings(items: readonly DerivedActionItem[], window: DateWindow): Set<string> {
  const unsettled = new Set<string>();
  for (const i of items)
    if (i.type === 'HOTEL' && !newLayoverInWindow(i, window)) unsettled.add(i.anchors.pairing_number);
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
  elements: ElementBasis[] = [],
): DiffBasis {
  const unsettled = unsettledPairings(items, window);
  for (const pairing of disturbed) unsettled.add(pairing);
  const pairings: PairingBasis[] = [];
  for (const [pairing, content] of flat.pairingContents)
    pairings.push([pairing, content, bookings.get(pairing) ?? null, unsettled.has(pairing) ? 0 : 1]);
  for (const [pairing, fingerprint] of bookings) {
    if (!flat.pairingContents.has(pairing)) pairings.push([pairing, null, fingerprint, unsettled.has(pairing) ? 0 : 1]);
  }
  return { v: DIFF_BASIS_VERSION, window: { start: window.start, end: window.end }, cutoff, pairings, elements };
}

/** Whether a diff in `window` runs in another window than the one the basis was left in (changedPairings then needs DiffBasisNow.previous). */
export function windowMoved(basis: DiffBasis, window: DateWindow): boolean {
  return basis.window.start !== window.start || basis.window.end !== window.end;
}

/**
 * The pairing_numbers this diff must look at, or null when it must diff everything: no basis (or one of
 * another form), emit_unchanged on (it derives items for unchanged rows), a cancellation cut-off earlier than
 * the basis's (an earlier cut-off may cancel more; a later one only leaves more alone), or a window that shares
 * no date with the basis's. A pairing_number is left out only when its content and bookings are those of the
 * basis and its diff settled there; and when the window moved, only when its rows (rostered and in the previous
 * state) and its bookings are all dated inside both windows or all outside both, where every in-window test of
 * the diff answers as it did.
 */
export function changedPairings(basis: DiffBasis | null, now: DiffBasisNow): Set<string> | null {
  if (!basis || basis.v !== DIFF_BASIS_VERSION || now.emitUnchanged || now.cutoff < basis.cutoff) return null;
  const moved = windowMoved(basis, now.window);
  const [early, late] = basis.window.start < now.window.start ? [basis.window, now.window] : [now.window, basis.window];
  const both = { start: late.start, end: early.end < late.end ? early.end : late.end };
  const either = { start: early.start, end: early.end > late.end ? early.end : late.end };
  if (moved && (both.start > both.end || !now.previous || !now.flat.deadheads)) return null;
  const spans = moved ? spansOf(now.flat as FlatRoster, now.previous!) : new Spans();
  // Dates inside both windows, or outside both: every in-window test answers for them as it did.
  const unaffected = (span: readonly [string, string] | undefined) =>
    span === undefined ||
    (span[0] >= both.start && span[1] <= both.end) ||
    span[1] < either.start ||
    span[0] > either.end;
  // All of them, for every row and booking of the pairing_number (whatever they are, when the window did not move).
  const datedAsBefore = (pairing: string) =>
    !moved ||
    (unaffected(spans.get(pairing)) &&
      (!now.bookings.has(pairing) ||
        (now.bookingDates?.has(pairing) === true && unaffected(now.bookingDates.get(pairing)))));
  const changed = new Set<string>();
  const known = new Map<string, PairingBasis>();
  for (const b of basis.pairings) known.set(b[0], b);
  const consider = (pairing: string) => {
    const b = known.get(pairing);
    if (
      !b ||
      b[3] !== 1 ||
      b[1] !== (now.flat.pairingContents.get(pairing) ?? null) ||
      b[2] !== (now.bookings.get(pairing) ?? null) ||
      !datedAsBefore(pairing)
    )
      changed.add(pairing);
  };
  for (const pairing of now.flat.pairingContents.keys()) consider(pairing);
  for (const pairing of now.bookings.keys()) consider(pairing);
  // Rostered or booked before and neither now: its rows are gone.
  for (const pairing of known.keys())
    if (!now.flat.pairingContents.has(pairing) && !now.bookings.has(pairing)) changed.add(pairing);
  // Only kept in the previous state: left alone while the window stays, diffed once it moves over their dates.
  for (const pairing of spans.keys()) if (!changed.has(pairing) && !datedAsBefore(pairing)) changed.add(pairing);
  return changed;
}

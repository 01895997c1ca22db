import { hotelBookingDate } from './booking-dates';
import type { DiffContext } from './diff-context';
import { diffDeadheads } from './deadheads';
import { diffLayovers } from './hotels';
import { sortItems } from './items';
import { pairingOfKey } from './keys';
import { joinedRosterState, nextRosterStateParts } from './state';
import { applySwaps, detectSwaps } from './swaps';
import { addDays, inWindow, instantOf, isoInstant, type DateWindow } from './time';
import type {
  DeadheadRow,
  DerivedActionItem,
  DiffInput,
  DiffResult,
  FlatRoster,
  FlightBookingActual,
  HotelBookingActual,
  HotelItemDetails,
  LayoverRef,
  LayoverRow,
  PairingSummary,
  RosterState,
} from './types';

const EMPTY_STATE: RosterState = { deadheads: [], layovers: [], pairings: [] };

/**
 * Oldest checkout date still eligible for LAYOVER_CANCELLED: processedAt's UTC date minus the lookback. It
 * only moves forward with the clock, so a later run can only leave more stays alone.
 */
export function cancellationCutoffOf(processedAt: string, lookbackDays: number): string {
  const processedMs = instantOf(processedAt);
  if (Number.isNaN(processedMs)) throw new Error(`processedAt is not an ISO timestamp with offset: ${processedAt}`);
  return addDays(isoInstant(processedMs).slice(0, 10), -lookbackDays);
}

/** What one part of a diff reads: the roster's rows, the previous state's and the bookings of some pairing_numbers. */
interface DiffPart {
  current: FlatRoster;
  previous: RosterState;
  hotelBookings: readonly HotelBookingActual[];
  flightBookings: readonly FlightBookingActual[];
}

/**
 * Derives the action items of a submission: HOTEL items from its layovers against the hotel
 * booking actuals, FLIGHT items from its DH legs against the previous submission's, swaps from
 * the pairing summaries. Pure: the clock is `processedAt`.
 */
export function diffRoster(input: DiffInput): DiffResult {
  const parts = diffRosterInParts(input, Infinity);
  for (let step = parts.next(); ; step = parts.next()) if (step.done) return step.value;
}

/**
 * diffRoster, a range of pairing_numbers at a time (`pairingsPerPart` of them, in sorted order): it pauses after
 * each part, so that its caller can let other work run (the worker lets Postgres take in rows meanwhile). Every
 * item belongs to one pairing_number and its rows, previous rows, bookings and swaps are that pairing_number's
 * alone, so the parts' items are the whole diff's; each part's are sorted and the parts are ranges of
 * pairing_numbers, which sortItems orders first, so the parts concatenate in sortItems order. Each pause hands
 * over the part's items (in that order, the same objects as in the result): the worker writes them while the
 * diff goes on.
 */
export function* diffRosterInParts(
  input: DiffInput,
  pairingsPerPart: number,
): Generator<readonly DerivedActionItem[], DiffResult, void> {
  const processedMs = instantOf(input.processedAt);
  if (Number.isNaN(processedMs))
    throw new Error(`processedAt is not an ISO timestamp with offset: ${input.processedAt}`);
  const previous = input.previous ?? EMPTY_STATE;
  const flagged = new Set(input.current.flaggedKeys);
  const shared = {
    window: input.window,
    settings: input.settings,
    processedMs,
    cancellationCutoff: cancellationCutoffOf(input.processedAt, input.settings.cancellation_lookback_days),
    flagged,
  };
  const actionItems: DerivedActionItem[] = [];
  for (const part of partsOf(input, previous, pairingsPerPart)) {
    const ctx: DiffContext = { ...shared, current: part.current, previous: part.previous };
    const items = [...diffLayovers(ctx, part.hotelBookings), ...diffDeadheads(ctx, part.flightBookings)];
    applySwaps(items, detectSwaps(part.current.pairings, part.previous.pairings));
    const sorted = sortItems(items);
    for (const item of sorted) actionItems.push(item);
    yield sorted;
  }
  const nextStateParts = nextRosterStateParts(previous, input.current, input.window, flagged);
  return {
    actionItems,
    // Already in flattened-row order.
    auditEvents: input.current.auditEvents,
    nextState: joinedRosterState(nextStateParts),
    nextStateParts,
  };
}

/** The parts of a diff: one for everything (or the changed pairings), or ranges of the pairing_numbers it diffs. */
function partsOf(input: DiffInput, previous: RosterState, pairingsPerPart: number): DiffPart[] {
  const only = input.changedPairings;
  const ofChanged = <B extends { pairing_number: string | null }>(bookings: readonly B[]) =>
    only ? bookings.filter((b) => b.pairing_number !== null && only.has(b.pairing_number)) : bookings;
  const whole = (): DiffPart[] => [
    {
      current: only ? onlyPairings(input.current, only) : input.current,
      // Every previous row of an unchanged pairing would otherwise look removed.
      previous: only
        ? { ...previous, deadheads: previous.deadheads.filter((r) => only.has(r.pairing_number)) }
        : previous,
      hotelBookings: ofChanged(input.hotelBookings),
      flightBookings: ofChanged(input.flightBookings),
    },
  ];
  if (!Number.isFinite(pairingsPerPart)) return whole();
  // Every pairing_number something is diffed for (a booking without one is never matched to a row).
  const numbers = new Set<string>();
  for (const rows of [
    input.current.layovers,
    input.current.deadheads,
    input.current.pairings,
    previous.deadheads,
    previous.pairings,
    input.hotelBookings,
    input.flightBookings,
  ])
    for (const r of rows as readonly { pairing_number: string | null }[])
      if (r.pairing_number !== null && (!only || only.has(r.pairing_number))) numbers.add(r.pairing_number);
  // Sorted as sortItems compares (UTF-16 code units).
  const sorted = [...numbers].sort();
  if (sorted.length <= pairingsPerPart) return whole();
  const partOf = new Map<string, number>();
  for (let i = 0; i < sorted.length; i++) partOf.set(sorted[i]!, Math.floor(i / pairingsPerPart));
  const parts = Array.from({ length: Math.ceil(sorted.length / pairingsPerPart) }, () => ({
    current: {
      ...input.current,
      deadheads: [] as DeadheadRow[],
      layovers: [] as LayoverRow[],
      pairings: [] as PairingSummary[],
    },
    previous: { deadheads: [] as DeadheadRow[], layovers: [] as LayoverRef[], pairings: [] as PairingSummary[] },
    hotelBookings: [] as HotelBookingActual[],
    flightBookings: [] as FlightBookingActual[],
  }));
  const into = <R extends { pairing_number: string | null }>(
    rows: readonly R[],
    list: (part: (typeof parts)[number]) => R[],
  ) => {
    for (const r of rows) {
      const i = r.pairing_number === null ? undefined : partOf.get(r.pairing_number);
      if (i !== undefined) list(parts[i]!).push(r);
    }
  };
  into(input.current.layovers, (p) => p.current.layovers);
  into(input.current.deadheads, (p) => p.current.deadheads);
  into(input.current.pairings, (p) => p.current.pairings);
  into(previous.deadheads, (p) => p.previous.deadheads);
  into(previous.pairings, (p) => p.previous.pairings);
  into(input.hotelBookings, (p) => p.hotelBookings);
  into(input.flightBookings, (p) => p.flightBookings);
  // The previous layovers only give an item its day1_row, looked up by the item's key (which holds the pairing_number).
  for (const ref of previous.layovers) {
    const i = partOf.get(pairingOfKey(ref.key));
    if (i !== undefined) parts[i]!.previous.layovers.push(ref);
  }
  return parts;
}

/**
 * True when diffing the same roster again, against the state this diff returned and the bookings once its
 * items are written, would derive nothing (with emit_unchanged off, and a cancellation cut-off no earlier):
 * the deadhead diff of a roster against its own state derives nothing whatever the bookings; the hotel diff
 * derives nothing for a layover whose booking has its stay. So every HOTEL item must be a NEW_LAYOVER, whose
 * booking is created with the row's key and stay, so dated by its check-in inside the window, where the next
 * diff reads bookings (readInWindow). The caller must also know that no existing booking is changed or adopted
 * by the writes.
 */
export function settlesOnRerun(items: readonly DerivedActionItem[], window: DateWindow): boolean {
  return items.every((i) => i.type !== 'HOTEL' || newLayoverInWindow(i, window));
}

/**
 * A HOTEL item whose booking is created with the row's key and stay, dated inside the window (settlesOnRerun): by
 * its check-in, as the next diff reads it, whatever its duty period's date (the day before, after midnight).
 */
export function newLayoverInWindow(item: DerivedActionItem, window: DateWindow): boolean {
  return (
    item.subtype === 'NEW_BOOKING' &&
    item.classification === 'NEW_LAYOVER' &&
    inWindow(hotelBookingDate(item.details as HotelItemDetails), window)
  );
}

/** The roster's rows and summaries of these pairing_numbers only (flagged keys and audit events stay whole). */
export function onlyPairings(flat: FlatRoster, pairings: ReadonlySet<string>): FlatRoster {
  return {
    ...flat,
    deadheads: flat.deadheads.filter((r) => pairings.has(r.pairing_number)),
    layovers: flat.layovers.filter((r) => pairings.has(r.pairing_number)),
    pairings: flat.pairings.filter((p) => pairings.has(p.pairing_number)),
  };
}

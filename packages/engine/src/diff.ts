import type { DiffContext } from './context';
import { diffDeadheads } from './deadheads';
import { diffLayovers } from './hotels';
import { sortItems } from './items';
import { nextRosterState } from './state';
import { applySwaps, detectSwaps } from './swaps';
import { addDays, inWindow, instantOf, isoInstant, type DateWindow } from './time';
import type { DerivedActionItem, DiffInput, DiffResult, FlatRoster, RosterState } from './types';

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

/**
 * Derives the action items of a submission: HOTEL items from its layovers against the hotel
 * booking actuals, FLIGHT items from its DH legs against the previous submission's, swaps from
 * the pairing summaries. Pure: the clock is `processedAt`.
 */
export function diffRoster(input: DiffInput): DiffResult {
  const processedMs = instantOf(input.processedAt);
  if (Number.isNaN(processedMs)) throw new Error(`processedAt is not an ISO timestamp with offset: ${input.processedAt}`);
  const previous = input.previous ?? EMPTY_STATE;
  const only = input.changedPairings;
  const ctx: DiffContext = {
    current: only ? onlyPairings(input.current, only) : input.current,
    // Every previous row of an unchanged pairing would otherwise look removed.
    previous: only ? { ...previous, deadheads: previous.deadheads.filter((r) => only.has(r.pairing_number)) } : previous,
    window: input.window,
    settings: input.settings,
    processedMs,
    cancellationCutoff: cancellationCutoffOf(input.processedAt, input.settings.cancellation_lookback_days),
    flagged: new Set(input.current.flaggedKeys),
  };
  const ofChanged = <B extends { pairing_number: string | null }>(bookings: readonly B[]) =>
    only ? bookings.filter((b) => b.pairing_number !== null && only.has(b.pairing_number)) : bookings;
  const items = [...diffLayovers(ctx, ofChanged(input.hotelBookings)), ...diffDeadheads(ctx, ofChanged(input.flightBookings))];
  applySwaps(items, detectSwaps(ctx.current.pairings, previous.pairings));
  return {
    actionItems: sortItems(items),
    // Already in flattened-row order.
    auditEvents: input.current.auditEvents,
    nextState: nextRosterState(previous, input.current, input.window, ctx.flagged),
  };
}

/**
 * True when diffing the same roster again, against the state this diff returned and the bookings once its
 * items are written, would derive nothing (with emit_unchanged off, and a cancellation cut-off no earlier):
 * the deadhead diff of a roster against its own state derives nothing whatever the bookings; the hotel diff
 * derives nothing for a layover whose booking has its stay. So every HOTEL item must be a NEW_LAYOVER, whose
 * booking is created with the row's key and stay and dated (duty_date) inside the window, where the next diff
 * reads bookings. The caller must also know that no existing booking is changed or adopted by the writes.
 */
export function settlesOnRerun(items: readonly DerivedActionItem[], window: DateWindow): boolean {
  return items.every((i) => i.type !== 'HOTEL' || newLayoverInWindow(i, window));
}

/** A HOTEL item whose booking is created with the row's key and stay, dated inside the window (settlesOnRerun). */
export function newLayoverInWindow(item: DerivedActionItem, window: DateWindow): boolean {
  return item.subtype === 'NEW_BOOKING' && item.classification === 'NEW_LAYOVER' && inWindow(item.anchors.duty_date, window);
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

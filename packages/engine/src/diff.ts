import type { DiffContext } from './context';
import { diffDeadheads } from './deadheads';
import { diffLayovers } from './hotels';
import { sortItems } from './items';
import { nextRosterState } from './state';
import { applySwaps, detectSwaps } from './swaps';
import { addDays, inWindow, instantOf, isoInstant, type DateWindow } from './time';
import type { DerivedActionItem, DiffInput, DiffResult, RosterState } from './types';

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
  const ctx: DiffContext = {
    current: input.current,
    previous,
    window: input.window,
    settings: input.settings,
    processedMs,
    cancellationCutoff: cancellationCutoffOf(input.processedAt, input.settings.cancellation_lookback_days),
    flagged: new Set(input.current.flaggedKeys),
  };
  const items = [...diffLayovers(ctx, input.hotelBookings), ...diffDeadheads(ctx, input.flightBookings)];
  applySwaps(items, detectSwaps(input.current.pairings, previous.pairings));
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
  return items.every((i) => i.type !== 'HOTEL' || (i.subtype === 'NEW_BOOKING' && i.classification === 'NEW_LAYOVER' && inWindow(i.anchors.duty_date, window)));
}

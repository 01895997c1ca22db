import type { DiffContext } from './context';
import { diffDeadheads } from './deadheads';
import { diffLayovers } from './hotels';
import { sortItems } from './items';
import { nextRosterState } from './state';
import { applySwaps, detectSwaps } from './swaps';
import { addDays, instantOf, isoInstant } from './time';
import type { DiffInput, DiffResult, RosterState } from './types';

const EMPTY_STATE: RosterState = { deadheads: [], layovers: [], pairings: [] };

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
    cancellationCutoff: addDays(isoInstant(processedMs).slice(0, 10), -input.settings.cancellation_lookback_days),
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

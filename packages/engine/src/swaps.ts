import { reclassify } from './items';
import type { DerivedActionItem, PairingSummary, SwapDetails } from './types';

/**
 * Pairings whose content (signature) is unchanged but whose crew changed, with the members
 * removed and added (sorted). Keyed by pairing_number.
 */
export function detectSwaps(
  current: readonly PairingSummary[],
  previous: readonly PairingSummary[],
): Map<string, SwapDetails> {
  const before = new Map(previous.map((p) => [p.pairing_number, p]));
  const swaps = new Map<string, SwapDetails>();
  for (const now of current) {
    const then = before.get(now.pairing_number);
    if (!then || then.signature !== now.signature) continue;
    if (then.crew.length === now.crew.length && then.crew.every((e, i) => e === now.crew[i])) continue;
    const nowCrew = new Set(now.crew);
    const thenCrew = new Set(then.crew);
    const removed = then.crew.filter((e) => !nowCrew.has(e)).sort();
    const added = now.crew.filter((e) => !thenCrew.has(e)).sort();
    if (removed.length > 0 || added.length > 0) swaps.set(now.pairing_number, { removed, added });
  }
  return swaps;
}

/**
 * Turns the cancel items of a removed member into SWAP_OUT and the new items of an added member
 * into SWAP_IN (same type, subtype and booking link), so a swap shows as a swap rather than as
 * unrelated cancellations and bookings.
 */
export function applySwaps(items: DerivedActionItem[], swaps: ReadonlyMap<string, SwapDetails>): void {
  if (swaps.size === 0) return;
  for (const item of items) {
    const swap = swaps.get(item.anchors.pairing_number);
    if (!swap) continue;
    const { employee_id, pairing_number } = item.anchors;
    const what = item.type === 'HOTEL' ? 'hotel' : 'flight';
    if (item.subtype === 'CANCEL' && item.classification !== 'SWAP_OUT' && swap.removed.includes(employee_id)) {
      reclassify(
        item,
        'SWAP_OUT',
        `${employee_id} swapped out of pairing ${pairing_number}: cancel ${what}. ${item.message}`,
      );
    } else if (
      item.subtype === 'NEW_BOOKING' &&
      item.classification !== 'SWAP_IN' &&
      swap.added.includes(employee_id)
    ) {
      reclassify(
        item,
        'SWAP_IN',
        `${employee_id} swapped into pairing ${pairing_number}: book ${what}. ${item.message}`,
      );
    } else {
      continue;
    }
    item.details.swap = swap;
  }
}

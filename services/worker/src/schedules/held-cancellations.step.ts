import { cancellationHoldRepo, type DbOrTrx } from '@crew/db';
import { returnedHolds, type DateWindow, type FlatRoster, type HotelBookingActual } from '@crew/engine';

/*
 * Step 5 of the schedule processor, first in the write transaction: a roster that brings back the layover of a held
 * cancellation withdraws it (docs/cost-control.md). Nothing goes to the supplier for the cancellation and its item
 * ends AUTO_BOOKED. Done before the diff, so the diff sees the kept booking live (withKeptHolds): the same stay needs
 * nothing, another stay is amended as a live booking's is. The keep's compare-and-set holds the booking's row until
 * the commit, so a release racing it finds the hold KEPT, and one that won first leaves the booking cancelled to the diff.
 */

/** Withdraws every held cancellation whose layover the roster brings back (engine returnedHolds); returns their bookings. */
export async function keepReturnedLayovers(
  trx: DbOrTrx,
  airlineId: string,
  flat: FlatRoster,
  diffed: readonly HotelBookingActual[],
  window: DateWindow,
  processedAt: string,
): Promise<Set<string>> {
  const kept = new Set<string>();
  const held = await cancellationHoldRepo.heldCancellations(trx, airlineId);
  for (const r of returnedHolds(held, flat.layovers, diffed, window, processedAt))
    if (await cancellationHoldRepo.keepHold(trx, r.booking_id, r.ref, new Date(processedAt), r.message))
      kept.add(r.booking_id);
  return kept;
}

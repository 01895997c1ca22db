import { cancellationHoldRepo, type DbOrTrx } from '@crew/db';
import { advanceHold, heldLayoverKey, type FlatRoster } from '@crew/engine';

/*
 * Step 5 of the schedule processor, in the write transaction: a roster that brings back the layover of a held
 * cancellation keeps the booking (docs/cost-control.md). Nothing goes to the supplier, the booking stays as it
 * was and its item ends AUTO_BOOKED. The roster's own diff saw the held booking as cancelled (pending_cancel), so it
 * neither booked the returning layover anew nor cancelled the booking again.
 */

/** Keeps every held cancellation whose layover (same crew member, pairing and duty period, at the same station) is back. */
export async function keepReturnedLayovers(
  trx: DbOrTrx,
  airlineId: string,
  flat: FlatRoster,
  processedAt: string,
): Promise<number> {
  const held = await cancellationHoldRepo.heldCancellations(trx, airlineId);
  if (held.length === 0) return 0;
  const layovers = new Map(flat.layovers.map((l) => [l.key, l]));
  let kept = 0;
  for (const h of held) {
    const key = heldLayoverKey(h);
    const back = key ? layovers.get(key) : undefined;
    const c = h.cancellation;
    if (!back || back.station !== h.station || !c?.hold || c.hold.status !== 'HELD') continue;
    // A roster arriving after hold_until but before the release ran is still within the hold: nothing was released.
    const next = advanceHold(c.hold, processedAt, true);
    if (next.state.status !== 'KEPT') continue;
    const message = `held cancellation withdrawn: the roster brought the layover back before the cancellation was released (held until ${c.hold.hold_until}); the booking stays as it was`;
    if (await cancellationHoldRepo.keepHold(trx, h.booking_id, c.ref, new Date(processedAt), message)) kept++;
  }
  return kept;
}

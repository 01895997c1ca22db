import { airlinePolicyRepo, cancellationHoldRepo, outboxRepo, type Db } from '@crew/db';
import { recappedHoldUntil } from '@crew/engine';
import { openBookingContext, type TravellerVault } from '@crew/platform';
import { holdTimerJob, type BookingQueue, type CatalogJob, type OutboxRelay } from '@crew/queue';

/*
 * A contract's cancellation terms changed while roster cancellations are held at its hotel's station
 * (docs/cost-control.md). A hold never runs past the deadline, so each hold the terms in force put past its
 * deadline's margin ends sooner (engine recappedHoldUntil): at once when that is already past. Its release then
 * judges it under those terms (releasedCancellation).
 */

export interface HeldCancellationDeps {
  db: Db;
  vault: TravellerVault;
  relay: OutboxRelay;
  now?: () => Date;
}

/** Shortens the airline's holds at `station` that the terms in force no longer allow; returns how many. */
export async function shortenHeldCancellations(
  deps: HeldCancellationDeps,
  airlineId: string,
  station: string,
): Promise<number> {
  const now = deps.now?.() ?? new Date();
  const jobs = await deps.db.transaction().execute(async (trx) => {
    const held = (await cancellationHoldRepo.heldCancellations(trx, airlineId)).filter((h) => h.station === station);
    if (held.length === 0) return [];
    const ctx = openBookingContext(
      deps.vault,
      airlineId,
      await airlinePolicyRepo.loadBookingFacts(trx, airlineId, []),
      now.toISOString(),
    );
    const timers: CatalogJob<BookingQueue>[] = [];
    for (const h of held) {
      const c = h.cancellation;
      if (c?.hold?.status !== 'HELD' || !h.checkin_time_local || !h.checkout_time_local) continue;
      const until = recappedHoldUntil(c.hold.hold_until, {
        hotel: ctx.policy.hotels.get(station),
        stay: { checkin_time_local: h.checkin_time_local, checkout_time_local: h.checkout_time_local, hotel: h.hotel },
        now: now.getTime(),
      });
      if (!until) continue;
      const shortened = await cancellationHoldRepo.shortenHold(trx, h.booking_id, c.ref, until);
      if (!shortened) continue;
      timers.push(
        holdTimerJob(
          { airline_id: airlineId, booking_id: h.booking_id, ref: c.ref, ...shortened },
          { hold_until: until, delayMs: Math.max(0, Date.parse(until) - now.getTime()) },
        ),
      );
    }
    if (timers.length) await outboxRepo.addToOutbox(trx, timers);
    return timers;
  });
  if (jobs.length) deps.relay.kick();
  return jobs.length;
}

import { sql, type RawBuilder } from 'kysely';
import type { HeldItemEnd } from '@crew/engine';
import type { DbOrTrx } from '../database';
import { PREPARED } from '../prepared';
import type { StoredCancellation } from './booking.table';

/*
 * A roster cancellation held in case the roster changes back (docs/cost-control.md). The booking's stored hold
 * moves HELD → KEPT or RELEASED once: every move is a compare-and-set on the stored HELD and the task's ref, so a
 * roster and the hold's timer that race cannot both win (the loser's update matches no row).
 */

const HELD = sql<boolean>`(cancellation -> 'hold' ->> 'status') = 'HELD'`;

/** The airline's held cancellations: what a roster may bring back, or changed terms may shorten (with the stay). */
export function heldCancellations(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('bookings')
    .select([
      'booking_id',
      'employee_id',
      'pairing_number',
      'duty_period_num',
      'station',
      'checkin_time_local',
      'checkout_time_local',
      'hotel',
      'retry_count',
      'cancellation',
    ])
    .where('airline_id', '=', airlineId)
    .where(HELD)
    .execute();
}

/** A held cancellation whose timer is overdue, with what its booking task is queued with. */
export interface OverdueHold {
  booking_id: string;
  airline_id: string;
  action_id: string | null;
  retry_count: number;
  ref: string;
}

/**
 * Held cancellations, of every airline, whose hold ran out before `before` and are still HELD: their timer job
 * is overdue (lost with Redis, or late behind a backlog). Read through the partial index of held bookings.
 */
export function overdueHolds(db: DbOrTrx, before: Date, limit: number): Promise<OverdueHold[]> {
  return db
    .selectFrom('bookings')
    .select(['booking_id', 'airline_id', 'action_id', 'retry_count', sql<string>`cancellation ->> 'ref'`.as('ref')])
    .where(HELD)
    .where(sql<boolean>`(cancellation -> 'hold' ->> 'hold_until') < ${before.toISOString()}`)
    .orderBy(sql`cancellation -> 'hold' ->> 'hold_until'`)
    .limit(limit)
    .execute();
}

/** A hold the timer found on a booking a person locked meanwhile (manual_override): it ends KEPT, with this message. */
const LOCKED_BEFORE_RELEASE =
  'held cancellation withdrawn: the booking was locked (manual_override) before the hold ran out; it stays as it was';

const holdOf = (status: 'KEPT' | 'RELEASED', at: Date) => JSON.stringify({ status, at: at.toISOString() });

/**
 * A hold ends sooner (the contract's terms changed while it runs: engine recappedHoldUntil): its stored hold_until
 * and its item's held_until become `holdUntil`, by compare-and-set on the stored HELD, its ref and a later end.
 * Returns what its new timer is queued with, or null when the hold is no longer HELD there (or already ends sooner).
 */
export async function shortenHold(
  trx: DbOrTrx,
  bookingId: string,
  ref: string,
  holdUntil: string,
): Promise<{ action_id: string | null; retry_count: number } | null> {
  const shortened = await trx
    .updateTable('bookings')
    .set({
      cancellation: sql`jsonb_set(cancellation, '{hold,hold_until}', to_jsonb(${holdUntil}::text))`,
      updated_at: new Date(),
    })
    .where('booking_id', '=', bookingId)
    .where(HELD)
    .where(sql<boolean>`cancellation ->> 'ref' = ${ref}`)
    .where(sql<boolean>`(cancellation -> 'hold' ->> 'hold_until') > ${holdUntil}`)
    .returning(['retry_count', sql<string | null>`cancellation ->> 'action_id'`.as('action_id')])
    .executeTakeFirst();
  if (!shortened) return null;
  if (shortened.action_id)
    await trx
      .updateTable('action_items')
      .set({ held_until: new Date(holdUntil) })
      .where('action_id', '=', shortened.action_id)
      .execute();
  return shortened;
}

/**
 * The hold ran out (or a person's DELETE or PATCH supersedes it): HELD → RELEASED. With `task` the cancellation
 * task starts under the held ref (the booking PENDING); a superseding caller starts its own. `decided`: the
 * cancellation as judged at the release (its hold RELEASED), stored in place of the held one. The held item stops
 * showing held_until. False when the hold is no longer HELD under that ref (kept, or released already). The hold
 * running out never cancels a booking a person locked meanwhile (manual_override, spec rule 9): its hold ends KEPT
 * instead, and false.
 */
export async function releaseHold(
  trx: DbOrTrx,
  bookingId: string,
  ref: string,
  at: Date,
  task: { reason: string } | null,
  decided?: StoredCancellation,
): Promise<boolean> {
  const released = await trx
    .updateTable('bookings')
    .set({
      cancellation: decided
        ? JSON.stringify(decided)
        : sql`jsonb_set(cancellation, '{hold}', ${holdOf('RELEASED', at)}::jsonb)`,
      pending_cancel: false,
      ...(task
        ? { status: 'PENDING' as const, task_ref: ref, task_operation: 'CANCEL' as const, next_attempt_at: null }
        : {}),
      updated_at: new Date(),
    })
    .where('booking_id', '=', bookingId)
    .where(HELD)
    .where(sql<boolean>`cancellation ->> 'ref' = ${ref}`)
    // The timer's release only: a person superseding the hold makes their own change.
    .$if(task !== null, (q) => q.where('manual_override', '=', false))
    .returning(['action_id'])
    .modifyEnd(PREPARED)
    .executeTakeFirst();
  if (!released) {
    if (task) await keepHold(trx, bookingId, ref, at, LOCKED_BEFORE_RELEASE);
    return false;
  }
  if (task)
    await trx
      .insertInto('booking_events')
      .values({ booking_id: bookingId, status: 'PENDING', reason: task.reason, actor: 'engine' })
      .execute();
  await clearHeldUntil(trx, bookingId);
  return true;
}

/**
 * The hold ran out, and the cancellation judged then goes to a person (after the deadline, with after_deadline
 * REVIEW): the hold ends by the same compare-and-set, no cancellation is stored (a person's own decides its fee)
 * and the booking is pending_cancel, as a roster cancellation sent to review is. The held item stops showing
 * held_until; the caller writes the review itself. False when the hold is no longer HELD under that ref. As for
 * releaseHold, a booking a person locked meanwhile (manual_override, spec rule 9) is not handed over: its hold
 * ends KEPT instead, and false.
 */
export async function endHoldForReview(trx: DbOrTrx, bookingId: string, ref: string, at: Date): Promise<boolean> {
  const held = sql<boolean>`(cancellation -> 'hold' ->> 'status') = 'HELD' and cancellation ->> 'ref' = ${ref}
    and not manual_override`;
  // The held item first: it is found through the stored cancellation, which the booking's update clears.
  await clearHeldUntil(trx, bookingId, held);
  const ended = await trx
    .updateTable('bookings')
    .set({ cancellation: null, pending_cancel: true, updated_at: new Date() })
    .where('booking_id', '=', bookingId)
    .where(held)
    .executeTakeFirst();
  if (Number(ended.numUpdatedRows) > 0) return true;
  await keepHold(trx, bookingId, ref, at, LOCKED_BEFORE_RELEASE);
  return false;
}

/**
 * A later roster brought the layover back within the hold: HELD → KEPT. Nothing went to the supplier and the
 * booking stays as it was; the held item ends AUTO_BOOKED (a booking exists: the one kept) with `message`.
 * Returns the item's schedule, or null when the hold was no longer HELD (the timer released it first).
 */
export async function keepHold(
  trx: DbOrTrx,
  bookingId: string,
  ref: string,
  at: Date,
  message: string,
): Promise<{ schedule_id: string | null } | null> {
  const kept = await trx
    .updateTable('bookings')
    .set({
      cancellation: sql`jsonb_set(cancellation, '{hold}', ${holdOf('KEPT', at)}::jsonb)`,
      pending_cancel: false,
      updated_at: new Date(),
    })
    .where('booking_id', '=', bookingId)
    .where(HELD)
    .where(sql<boolean>`cancellation ->> 'ref' = ${ref}`)
    .returning(['status', sql<string | null>`cancellation ->> 'action_id'`.as('action_id')])
    .executeTakeFirst();
  if (!kept) return null;
  await trx
    .insertInto('booking_events')
    .values({ booking_id: bookingId, status: kept.status, reason: message, actor: 'engine' })
    .execute();
  if (!kept.action_id) return { schedule_id: null };
  const item = await trx
    .updateTable('action_items')
    .set({ disposition: 'AUTO_BOOKED', disposition_at: at, held_until: null, message })
    .where('action_id', '=', kept.action_id)
    .returning(['schedule_id'])
    .executeTakeFirst();
  return { schedule_id: item?.schedule_id ?? null };
}

/**
 * A released hold whose cancellation another item's task makes (the airline's injected cancellation took the
 * booking over): the held item ends as decided (engine heldItemTakenOver), superseded by that item, no longer
 * showing held_until. Only an item still without a disposition: one that has its own outcome keeps it.
 */
export async function endHeldItem(trx: DbOrTrx, end: HeldItemEnd, at: Date): Promise<void> {
  await trx
    .updateTable('action_items')
    .set({
      disposition: end.disposition,
      disposition_at: at,
      held_until: null,
      superseded_by: end.by_action_id,
      message: end.message,
    })
    .where('action_id', '=', end.held_action_id)
    .where('disposition', 'is', null)
    .execute();
}

/**
 * The held item no longer shows held_until: its cancellation is being made (or handed to a person). Found through
 * the booking's stored cancellation, when the booking meets `only` (if given).
 */
async function clearHeldUntil(trx: DbOrTrx, bookingId: string, only?: RawBuilder<boolean>): Promise<void> {
  await trx
    .updateTable('action_items')
    .set({ held_until: null })
    .where(
      'action_id',
      '=',
      trx
        .selectFrom('bookings')
        .select(sql<string>`(cancellation ->> 'action_id')::uuid`.as('a'))
        .where('booking_id', '=', bookingId)
        .$if(only !== undefined, (q) => q.where(only!)),
    )
    .execute();
}

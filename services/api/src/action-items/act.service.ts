import type { ReviewActionBody } from '@crew/contracts';
import {
  bookingRepo,
  reviewRepo,
  scheduleLifecycleRepo,
  scheduleRepo,
  type ActionItemRow,
  type BookingRow,
} from '@crew/db';
import { decideReviewAction, dueBy, type ReviewActionDecision, type ReviewItemPatch } from '@crew/engine';
import { ApiError, type Reply } from '@crew/platform';
import { type Answer, withIdempotency } from '../bookings/idempotency';
import { resolvedEvent } from './resolved-event';
import { hotelChoiceOf, prepareOperation, runOperation, type OperationDeps, type Prepared } from './operations';
import {
  actionItemViews,
  reviewBookingOf,
  reviewContextOf,
  reviewFactsOf,
  reviewItemOf,
  type ReviewFacts,
} from './views';

/** Who acts: an integration's token (its registering user's e-mail) or a console user. */
export interface Actor {
  airline_id: string;
  email: string;
  client_id?: string;
}

/** The decision on the item as it stands: 409 when the action is not (or no longer) available, 422 for a missing input. */
function decided(
  item: ActionItemRow,
  facts: ReviewFacts,
  body: ReviewActionBody,
  actingUser: string,
  now: Date,
  hotel: Prepared['hotel'],
): Extract<ReviewActionDecision, { kind: 'ACCEPTED' }> {
  const b = item.booking_id ? facts.bookings.get(item.booking_id) : undefined;
  const booking = reviewBookingOf(b);
  const decision = decideReviewAction(
    reviewItemOf(item),
    booking,
    body.action,
    { ...body, acting_user: actingUser },
    now.getTime(),
    { ...reviewContextOf(facts.maxRetries, b), contracted_property_id: hotel?.stationHotel?.property_id ?? null },
  );
  if (decision.kind === 'NOT_AVAILABLE') throw ApiError.conflict(decision.message);
  if (decision.kind === 'MISSING_INPUT')
    throw ApiError.validation(
      [{ field: decision.field, issue: decision.issue }],
      `${body.action} needs ${decision.field}`,
    );
  return decision;
}

/** The item's review fields as written: the engine's patch, the reason given, and due_by while it stays OPEN. */
function reviewWrite(item: ActionItemRow, patch: ReviewItemPatch, reason: string | undefined, facts: ReviewFacts) {
  const open = patch.review_status === 'OPEN';
  const stays = { ...reviewItemOf(item), review_status: 'OPEN' as const, assignee: patch.assignee ?? item.assignee };
  return {
    ...patch,
    due_by: open ? dueBy(stays, item.event_at?.toISOString() ?? null, facts.settings) : null,
    ...(patch.action_taken ? { action_reason: reason?.trim() || null } : {}),
  };
}

/**
 * POST /crew/action-items/{action_id}/actions (and the console's queue): a person's action on an item,
 * decided by the engine, written on the item with the booking operation it starts, in one transaction.
 * The item's booking, then the item, are row-locked and the action decided again on what they hold then:
 * of two people acting at once one wins, the other gets 409 (the worker's settle locks in the same order).
 * `acting_user` defaults to the caller's e-mail. Idempotency-Key replays the first answer.
 */
export async function actOnActionItem(
  deps: OperationDeps,
  caller: Actor,
  actionId: string,
  body: ReviewActionBody,
  idempotencyKey?: string,
): Promise<Reply> {
  const endpoint = `POST /crew/action-items/${actionId}/actions`;
  return withIdempotency(deps.db, caller.airline_id, endpoint, idempotencyKey, body, (answer) =>
    act(deps, caller, actionId, body, answer),
  );
}

async function act(
  deps: OperationDeps,
  caller: Actor,
  actionId: string,
  body: ReviewActionBody,
  answer: Answer,
): Promise<Reply> {
  const airlineId = caller.airline_id;
  const actingUser = body.acting_user?.trim() || caller.email || caller.client_id || '';
  const seen = await scheduleRepo.findActionItem(deps.db, airlineId, actionId);
  if (!seen) throw ApiError.notFound('Action item');
  const seenBooking = seen.booking_id ? await bookingRepo.findBooking(deps.db, seen.booking_id, airlineId) : undefined;
  // BOOK_HOTEL without a property_id books the hotel contracted at the booking's station.
  const hotel =
    body.action === 'BOOK_HOTEL' && seenBooking?.type === 'HOTEL'
      ? await hotelChoiceOf(deps, airlineId, seenBooking)
      : undefined;
  // Decided once on what is read now (a refusal costs no supplier call), then again under the locks.
  const first = decided(seen, await reviewFactsOf(deps.db, airlineId, [seen]), body, actingUser, new Date(), hotel);
  const prepared: Prepared = {
    ...(first.operation && seenBooking && first.operation.kind !== 'BOOK_HOTEL'
      ? await prepareOperation(deps, airlineId, first.operation, seenBooking)
      : {}),
    ...(hotel ? { hotel } : {}),
  };

  const done = await deps.db.transaction().execute(async (trx) => {
    const booking: BookingRow | undefined = seen.booking_id
      ? await bookingRepo.lockBooking(trx, seen.booking_id)
      : undefined;
    const item = await reviewRepo.lockActionItem(trx, airlineId, actionId);
    if (!item) throw ApiError.notFound('Action item');
    if (item.booking_id !== seen.booking_id)
      throw ApiError.conflict('The action item moved to another booking meanwhile; read it again');
    const facts = await reviewFactsOf(trx, airlineId, [item]);
    const now = new Date();
    const d = decided(item, facts, body, actingUser, now, hotel);
    if (d.operation?.kind !== first.operation?.kind)
      throw ApiError.conflict('The action item changed meanwhile; read it again');
    const written = await reviewRepo.writeReview(trx, actionId, reviewWrite(item, d.item, body.reason, facts));
    const settled = d.operation
      ? await runOperation(
          trx,
          d.operation,
          booking!,
          written,
          { actingUser, callerEmail: caller.email, vault: deps.vault },
          prepared,
        )
      : null;
    // The item as this transaction leaves it (the operation may have settled it: RECORD_PNR, ACCEPT_PRICE and
    // ACCEPT_CHANGE make it AUTO_BOOKED): what the event says and the answer, stored with it (Idempotency-Key).
    const fresh = (await scheduleRepo.findActionItem(trx, airlineId, actionId))!;
    if (d.action !== 'ASSIGN') await resolvedEvent(trx, fresh);
    const [view] = await actionItemViews(trx, airlineId, [fresh]);
    return { scheduleId: settled, reply: await answer(trx, { status: 202, body: view }) };
  });
  // The worker's sweep completes a schedule this step missed.
  if (done.scheduleId) await scheduleLifecycleRepo.completeIfSettled(deps.db, done.scheduleId);
  deps.relay.kick();
  return done.reply;
}

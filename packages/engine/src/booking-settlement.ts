import type { BookingHotelBlock, Disposition, Priority, RowSettlement } from '@crew/contracts';
import {
  cancellationReviewDeadline,
  madeCancellationCost,
  oldRoomRefusal,
  type StoredCancellation,
} from './cancellation-plan';
import { DISPOSITION_OF_TASK, type TaskStatus } from './booking-tasks';
import { urgentEvents } from './priority';
import { moveRefOfRow, roomingTaskKey, type RoomingMarking } from './rooming';
import { storedReviewStateOf, type ReviewState, type StoredReviewItem } from './review-state';
import type { BookingStatus } from './types';
import { movedAwayStay, type MovedAwayStay } from './lifecycle';
import { localDateOf } from './time';

/*
 * How a booking task's end is recorded, decided once for every channel that ends one (a supplier's answer,
 * a DIRECT hotel's rooming list, the hotel's answer or its deadline): the booking's new fields, its action
 * item's disposition and the webhook events. The db package writes the decision as it is.
 */

/** The statuses that end a task: a booking reaching one is a booking.<status> webhook event. */
export const BOOKING_EVENT_STATUSES: readonly TaskStatus[] = Object.keys(DISPOSITION_OF_TASK) as TaskStatus[];

/** How a task ended. */
export interface TaskEnd {
  status: TaskStatus;
  reason: string | null;
  /** The action item's next step, when the end asks for one (a manual flight choice, say). */
  recommended_action?: string | null;
}

/** Whose priority makes the booking's webhook events urgent: the task's, and when it names none, its action item's if `orItem`. */
export interface EventUrgency {
  task: Priority | null | undefined;
  orItem: boolean;
}

/** What ending a task writes, in the transaction that ends it. */
export interface BookingSettlement<F extends object = object> {
  /** The booking's new fields, its status among them. */
  patch: F & {
    status: TaskStatus;
    review_reason: string | null;
    last_error?: string | null;
    next_attempt_at?: Date | null;
    pending_cancel?: false;
  };
  /** The booking's history entry. */
  history: { reason: string | null; actor: string };
  /** The action item's disposition, when the booking serves one. */
  disposition: {
    action_id: string;
    disposition: Disposition;
    message: string | null;
    recommended_action?: string;
    /** A deadline of the item's own that its review is due by (review.ts dueBy), written with the disposition. */
    review_deadline?: string | null;
  } | null;
  /** The action item's review status and due_by once its disposition is written (read back by the same write). */
  review: (item: StoredReviewItem) => ReviewState;
  events: {
    /** booking.<status>, for these statuses. */
    statuses: readonly TaskStatus[];
    /** Whether they are delivered first, from the action item's priority (read back by the disposition's write). */
    urgent: (itemPriority: string | null | undefined) => boolean;
    /** irop.completed once this booking's irop_ref has no booking left to settle. */
    irop: { airline_id: string; irop_ref: string } | null;
  };
}

/**
 * A task's end as it is recorded: the status and its reason (a NEEDS_REVIEW's reason is its review reason, a
 * FAILED's its last error), a cancellation no longer pending, the action item's disposition (DISPOSITION_OF_TASK),
 * and booking.<status> (with irop.completed where the caller names the irop).
 */
export function settleBooking<F extends object = object>(
  end: TaskEnd,
  how: {
    actor: string;
    /** The action item the booking serves. */
    actionId: string | null;
    /** What the answer sets on the booking besides its status (the supplier's reservation, the hotel's number). */
    fields?: F;
    /** When an automatic retry of a FAILED task is due (null: none); absent: the retry is not this end's concern. */
    nextAttemptAt?: Date | null;
    urgency: EventUrgency;
    irop?: { airline_id: string; irop_ref: string | null } | null;
    /**
     * The item's review is due at this deadline while it is OPEN (a cancellation handed to a person: the hotel's
     * cancellation deadline). Stored on the item (review_deadline), so the review rules give it as due_by now and
     * whenever the item is dated again (an ASSIGN, new review settings). Absent: the stored one stays.
     */
    reviewDeadline?: string | null;
  },
): BookingSettlement<F> {
  const { status, reason } = end;
  return {
    patch: {
      ...(how.fields ?? ({} as F)),
      status,
      review_reason: status === 'NEEDS_REVIEW' ? reason : null,
      ...(status === 'FAILED' ? { last_error: reason } : {}),
      ...(how.nextAttemptAt !== undefined ? { next_attempt_at: how.nextAttemptAt } : {}),
      ...(status === 'CANCELLED' ? { pending_cancel: false as const } : {}),
    },
    history: { reason, actor: how.actor },
    disposition: how.actionId
      ? {
          action_id: how.actionId,
          disposition: DISPOSITION_OF_TASK[status],
          message: reason,
          ...(end.recommended_action ? { recommended_action: end.recommended_action } : {}),
          ...(how.reviewDeadline !== undefined ? { review_deadline: how.reviewDeadline } : {}),
        }
      : null,
    review: storedReviewStateOf,
    events: {
      statuses: BOOKING_EVENT_STATUSES,
      urgent: (itemPriority) =>
        urgentEvents(how.urgency.task ?? (how.urgency.orItem ? (itemPriority as Priority | null | undefined) : null)),
      irop: how.irop?.irop_ref ? { airline_id: how.irop.airline_id, irop_ref: how.irop.irop_ref } : null,
    },
  };
}

/**
 * A task's end while the old hotel of its move still holds the room (`refusal`, oldRoomRefusal): the item is a
 * person's about that room. An end that asks nothing of a person leaves the item as it is (`leaveItem`), so the
 * review stays open, or dismissed as the person left it; one that does (NEEDS_REVIEW, FAILED) says both.
 */
export function keptForOldRoom<E extends TaskEnd>(end: E, refusal: string | null): E & { leaveItem: boolean } {
  if (!refusal) return { ...end, leaveItem: false };
  if (end.status !== 'NEEDS_REVIEW' && end.status !== 'FAILED') return { ...end, leaveItem: true };
  return { ...end, reason: end.reason ? `${end.reason}; ${refusal}` : refusal, leaveItem: false };
}

/**
 * A rooming list row's answer (the hotel's, or its deadline's) as it reaches the stay's booking: only while the
 * booking waits for that list with the task that placed the row (a later change superseded the row otherwise:
 * one already on a newer list, or one started and still to be placed, which the hotel must still be sent), and
 * then as the end of its task, with the row's state and the hotel's confirmation on the booking's hotel block.
 * Null: it does not reach it (the answer stays on the row).
 */
export function settleRowAnswer(
  b: {
    status: BookingStatus;
    hotel: BookingHotelBlock | null;
    action_id: string | null;
    /** The cancellation stored for the booking's task (cancellation-plan), and that task's ref. */
    cancellation?: StoredCancellation | null;
    task_ref: string | null;
    retry_count: number;
  },
  /**
   * The row's list, the task that placed it, when it was sent (the hotel was told of a cancellation then) and its
   * marking (a CANCELLED row turned down or unanswered is a cancellation handed to a person).
   */
  row: { list_id: string; task_ref: string | null; sent_at?: Date | null; marking?: RoomingMarking },
  settlement: RowSettlement,
  actor: string,
  at: Date,
): BookingSettlement<{ hotel: BookingHotelBlock }> | null {
  const hotel = b.hotel ?? {};
  if (b.status !== 'PENDING' || hotel.rooming_list_id !== row.list_id) return null;
  if (row.task_ref !== roomingTaskKey(b.task_ref, b.retry_count + 1)) return null;
  // The hotel confirming a cancellation made it (the stay was on its list): the fee it cost or avoided, as a supplier's cancellation records it,
  // judged by when the list told the hotel (one sent after the deadline is late, whatever was decided).
  const cost =
    settlement.status === 'CANCELLED'
      ? madeCancellationCost(b.cancellation, b.task_ref, settlement.reason, true, {
          at: row.sent_at,
          as: 'sent to the hotel',
        })
      : null;
  const end = keptForOldRoom(
    cost ? { ...settlement, reason: cost.reason } : settlement,
    oldRoomRefusal(b.cancellation, b.task_ref),
  );
  // A cancellation the hotel turned down or left unanswered: a person's, due at the hotel's cancellation deadline,
  // as a supplier's refused cancellation is.
  const reviewDeadline =
    row.marking === 'CANCELLED'
      ? cancellationReviewDeadline(end.status, 'CANCEL', b.cancellation, b.task_ref)
      : undefined;
  return settleBooking(end, {
    actor,
    actionId: end.leaveItem ? null : b.action_id,
    ...(reviewDeadline !== undefined ? { reviewDeadline } : {}),
    fields: {
      hotel: {
        ...hotel,
        ...cost?.fields,
        rooming_status: settlement.state,
        ...(settlement.confirmation_number !== null
          ? { confirmation_number: settlement.confirmation_number, hotel_confirmed_at: at.toISOString() }
          : {}),
      },
    },
    // The hotel's answer is never urgent, and completes no irop: as a rooming list has always settled.
    urgency: { task: null, orItem: false },
  });
}

/** What a hotel's answer to the CANCELLED row of a stay moved away from it writes (settleMovedAwayAnswer). */
export interface MovedAwayAnswer {
  /** The booking's hotel block with the fee the old room's cancellation cost or avoided (the stay's hotel is another). */
  hotel: BookingHotelBlock;
  /** A confirmation: the stay at the old hotel, cancelled, for its invoice (absent: the row names no hotel). */
  moved_stay?: MovedAwayStay;
  /** The move's stored cancellation, marked refused (absent: unchanged). */
  cancellation?: StoredCancellation;
  /** The booking's history entry; its status stays as it is. */
  history: { status: BookingStatus; reason: string; actor: string };
  /**
   * The old hotel still holds the room: the move's item waits for a person (PENDING_REVIEW with this message), due
   * at the cancellation's deadline when the booking stores the move's (absent: the item's stored deadline stays).
   */
  review: {
    action_id: string;
    message: string;
    review_deadline?: string | null;
    review: (item: StoredReviewItem) => ReviewState;
  } | null;
}

/**
 * A hotel's answer to the CANCELLED row a move put on its list (moveRefOfRow: the row of a stay moved away from
 * that hotel). The booking's own row is at its hotel now, so this answer settles no task of it, and the booking's
 * status stays its new stay's.
 * - A confirmation made the old room's cancellation: the fee it cost or avoided goes on the booking's hotel block,
 *   as a supplier's cancellation of a moved room records it, judged by when the old hotel's list was sent
 *   (madeCancellationCost under the move's ref; nothing when the booking stores no cancellation for that move).
 * - A rejection, or no answer by the list's deadline: the old hotel still holds the room, so the move's item waits
 *   for a person (PENDING_REVIEW), due at the cancellation's deadline as a refused cancellation is. The move's
 *   stored cancellation is marked refused, so a later end of the move's task (the new hotel's answer, the
 *   supplier's) leaves the item with the person (oldRoomRefusal). A booking gone on to another task: its item.
 * Null: not such a row.
 */
export function settleMovedAwayAnswer(
  b: {
    booking_id?: string;
    airline_id?: string;
    status: BookingStatus;
    hotel: BookingHotelBlock | null;
    action_id?: string | null;
    cancellation?: StoredCancellation | null;
  },
  /**
   * The row (its key names the move), and when its list was sent; the old hotel's property and the stay the row
   * cancels (what its invoice matches the stay there by).
   */
  row: {
    task_ref: string | null;
    sent_at?: Date | null;
    property_id?: string | null;
    checkin_time_local?: string;
    checkout_time_local?: string;
    /** The number the old hotel confirmed the stay under (its invoice's); absent: the cancellation's. */
    stay_confirmation_number?: string | null;
  },
  settlement: RowSettlement,
  /** The old hotel, as the messages name it. */
  hotelName: string,
  actor: string,
): MovedAwayAnswer | null {
  const moveRef = moveRefOfRow(row.task_ref);
  if (moveRef === null) return null;
  const hotel = b.hotel ?? {};
  if (settlement.state === 'CONFIRMED') {
    const cost = madeCancellationCost(b.cancellation, moveRef, null, true, {
      at: row.sent_at,
      as: `sent to ${hotelName}`,
    });
    const what = `${hotelName} confirmed the cancellation of the stay moved away from it (${settlement.confirmation_number})`;
    const { property_id, checkin_time_local: checkIn, checkout_time_local: checkOut } = row;
    const stay =
      b.booking_id && b.airline_id && property_id && checkIn && checkOut
        ? movedAwayStay(
            { booking_id: b.booking_id, airline_id: b.airline_id },
            moveRef,
            {
              property_id,
              check_in_date: localDateOf(checkIn),
              check_out_date: localDateOf(checkOut),
              confirmation_number: row.stay_confirmation_number ?? settlement.confirmation_number,
            },
            cost?.fields,
          )
        : null;
    return {
      hotel: { ...hotel, ...cost?.fields },
      ...(stay ? { moved_stay: stay } : {}),
      history: { status: b.status, reason: cost?.reason ? `${what}; ${cost.reason}` : what, actor },
      review: null,
    };
  }
  const refused =
    settlement.state === 'REJECTED'
      ? `${hotelName}, which the stay moved away from, rejected its cancellation (${settlement.reject_reason}) and still holds the room: a person must cancel it with the hotel`
      : `${hotelName}, which the stay moved away from, did not answer its cancellation (${settlement.reason}): it may still hold the room; a person must cancel it with the hotel`;
  const stored = b.cancellation && b.cancellation.ref === moveRef ? b.cancellation : null;
  const actionId = stored?.action_id ?? b.action_id ?? null;
  return {
    hotel,
    ...(stored ? { cancellation: { ...stored, old_room_refused: refused } } : {}),
    history: { status: b.status, reason: refused, actor },
    review: actionId
      ? {
          action_id: actionId,
          message: refused,
          ...(stored ? { review_deadline: stored.deadline } : {}),
          review: storedReviewStateOf,
        }
      : null,
  };
}

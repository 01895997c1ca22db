import { flightOptionsUrl, type ActionItem } from '@crew/contracts';
import { reviewRepo, type ActionItemViewRow, type DbOrTrx } from '@crew/db';
import {
  availableActions,
  dueBy,
  offersFlightOptions,
  reviewSettingsOf,
  reviewStatusOf,
  type ReviewAction,
  type ReviewBooking,
  type ReviewContext,
  type ReviewItem,
  type ReviewSettings,
  type ReviewStatus,
} from '@crew/engine';
import { actionItemView } from '../schedules/views';

/*
 * An action item as every answer shows it: the spec's fields (schedules/views.ts) and the review queue's, decided
 * by the engine from the item and its own booking.
 */

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The facts of a stored item the engine's review rules read. */
export function reviewItemOf(r: ActionItemViewRow): ReviewItem {
  return {
    type: r.type,
    subtype: r.subtype as ReviewItem['subtype'],
    classification: r.classification,
    priority: r.priority as ReviewItem['priority'],
    disposition: r.disposition as ReviewItem['disposition'],
    recommended_action: r.recommended_action,
    booking_id: r.booking_id,
    created_at: r.created_at.toISOString(),
    disposition_at: iso(r.disposition_at),
    review_status: r.review_status as ReviewStatus | null,
    action_taken: r.action_taken as ReviewAction | null,
    action_taken_at: iso(r.action_taken_at),
    action_taken_by: r.action_taken_by,
    assignee: r.assignee,
    superseded_by: r.superseded_by,
    review_deadline: iso(r.review_deadline),
  };
}

export type BookingFacts = reviewRepo.BookingReviewFacts;

/** Whether two key sets are the same: the booking facts a page reads are exactly the block fields the rules read. */
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const hotelFactsAreTheRules: SameKeys<keyof NonNullable<ReviewBooking['hotel']>, keyof reviewRepo.HotelReviewFacts> =
  true;
const flightFactsAreTheRules: SameKeys<keyof NonNullable<ReviewBooking['flight']>, keyof reviewRepo.FlightReviewFacts> =
  true;
void hotelFactsAreTheRules;
void flightFactsAreTheRules;

/** The item's own booking as the review rules read it. */
export function reviewBookingOf(b: BookingFacts | undefined): ReviewBooking | null {
  if (!b) return null;
  return {
    booking_id: b.booking_id,
    type: b.type,
    status: b.status,
    retry_count: b.retry_count,
    task_operation: b.task_operation,
    hotel: b.hotel,
    flight: b.flight,
  };
}

/** What the airline's rules add to the engine's: its retries, the traveller's date of birth. */
export function reviewContextOf(maxRetries: number, b: BookingFacts | undefined): ReviewContext {
  return { max_retries: maxRetries, ...(b?.traveller_has_dob === false ? { traveller_has_dob: false } : {}) };
}

export interface ReviewFacts {
  settings: ReviewSettings;
  maxRetries: number;
  bookings: Map<string, BookingFacts>;
}

/** What the review fields of these items are decided with: the airline's settings and the items' bookings. */
export async function reviewFactsOf(
  db: DbOrTrx,
  airlineId: string,
  rows: readonly ActionItemViewRow[],
): Promise<ReviewFacts> {
  const bookingIds = [...new Set(rows.map((r) => r.booking_id).filter((id): id is string => id !== null))];
  return reviewFactsFrom(await reviewRepo.reviewPageFacts(db, airlineId, bookingIds));
}

/** The review facts as read (reviewPageFacts, or a queue page's rows), with the defaults where none are stored. */
export function reviewFactsFrom(facts: reviewRepo.ReviewPageFacts): ReviewFacts {
  return {
    settings: reviewSettingsOf(facts.settings),
    maxRetries: facts.max_retries ?? 3,
    bookings: new Map(facts.bookings.map((b) => [b.booking_id, b])),
  };
}

/** What a caller learnt that the engine's context reads (the console's item page: its options search found none). */
export type SearchedContext = Pick<ReviewContext, 'flight_options_available'>;

/**
 * The review fields: the stored review status and due_by where the writers keep them, else as the engine
 * derives them (items stored before they were kept); the available actions only on an OPEN item.
 */
export function reviewFieldsOf(r: ActionItemViewRow, facts: ReviewFacts, searched: SearchedContext = {}) {
  const item = reviewItemOf(r);
  const b = r.booking_id ? facts.bookings.get(r.booking_id) : undefined;
  const booking = reviewBookingOf(b);
  const status = (r.review_status as ReviewStatus | null) ?? reviewStatusOf(item);
  const due = r.review_status !== null ? iso(r.due_by) : dueBy(item, iso(r.event_at), facts.settings);
  const available =
    status === 'OPEN' ? availableActions(item, booking, { ...reviewContextOf(facts.maxRetries, b), ...searched }) : [];
  return {
    review_status: status,
    due_by: due,
    available_actions: available,
    action_taken: item.action_taken,
    action_taken_at: item.action_taken_at,
    action_taken_by: r.action_taken_by,
    action_reason: r.action_reason,
    assignee: r.assignee,
    superseded_by: r.superseded_by,
    // A roster cancellation held in case the layover comes back (its disposition null meanwhile).
    held_until: iso(r.held_until),
    // The link follows what the item allows now (a failed booking's deadhead too), not what was stored at its diff.
    flight_options_url: offersFlightOptions(item, available) ? flightOptionsUrl(r.action_id) : null,
  };
}

/** Items as every answer shows them, their bookings and the airline's settings read once for the page. */
export async function actionItemViews(
  db: DbOrTrx,
  airlineId: string,
  rows: readonly ActionItemViewRow[],
  searched: SearchedContext = {},
): Promise<ActionItem[]> {
  if (rows.length === 0) return [];
  return actionItemViewsWith(rows, await reviewFactsOf(db, airlineId, rows), searched);
}

/** Items as every answer shows them, with the review facts already read. */
export function actionItemViewsWith(
  rows: readonly ActionItemViewRow[],
  facts: ReviewFacts,
  searched: SearchedContext = {},
): ActionItem[] {
  // The review fields added to the view just built (a page is 50 of them): no third object per item.
  return rows.map((r): ActionItem => Object.assign(actionItemView(r), reviewFieldsOf(r, facts, searched)));
}

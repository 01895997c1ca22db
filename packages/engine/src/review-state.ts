import {
  DEFAULT_REVIEW_SETTINGS,
  TARGET_PRIORITIES,
  dueBy,
  reviewStatusOf,
  type ReviewItem,
  type ReviewSettings,
  type ReviewStatus,
  type TargetPriority,
} from './review';

/*
 * The review fields every writer of an action item keeps (review_status, due_by): decided here from the item
 * as it now stands and the airline's review settings, so the diff's COPY, an injected item and a booking's
 * settle all write what the review rules (review.ts) say.
 */

/** What an action item's writer stores of the review rules. */
export interface ReviewState {
  review_status: ReviewStatus | null;
  /** ISO instant; null when the item is not OPEN. */
  due_by: string | null;
}

/** An airline's stored review settings (a review_settings row), as read. */
export interface StoredReviewSettings {
  lead_time_minutes: number;
  due_soon_minutes: number;
  priority_targets_minutes: Readonly<Record<string, number>>;
}

/** The airline's review settings: its stored row, else the defaults. Targets keyed other than P1..P3 are left out. */
export function reviewSettingsOf(stored: StoredReviewSettings | null | undefined): ReviewSettings {
  if (!stored) return DEFAULT_REVIEW_SETTINGS;
  const targets: Partial<Record<TargetPriority, number>> = {};
  for (const p of TARGET_PRIORITIES) {
    const v = stored.priority_targets_minutes[p];
    if (typeof v === 'number') targets[p] = v;
  }
  return {
    lead_time_minutes: stored.lead_time_minutes,
    due_soon_minutes: stored.due_soon_minutes,
    priority_targets_minutes: targets,
  };
}

/** The item's review status, and its due_by when it is OPEN (the event time: its check-in or departure). */
export function reviewStateOf(
  item: ReviewItem,
  eventAt: string | number | null | undefined,
  settings: ReviewSettings,
): ReviewState {
  const review_status = reviewStatusOf(item);
  return { review_status, due_by: review_status === 'OPEN' ? dueBy(item, eventAt, settings) : null };
}

const isoOf = (t: string | Date | null | undefined): string | null =>
  t === null || t === undefined ? null : typeof t === 'string' ? t : t.toISOString();

/**
 * An action item as stored, just after its disposition was written (the db reads it back in the same
 * statement), with its airline's stored review settings (null: the defaults). Loosely typed: the stored text
 * columns are read as the review rules' values.
 */
export interface StoredReviewItem {
  type: string;
  subtype: string;
  classification: string;
  priority: string;
  disposition: string | null;
  recommended_action: string | null;
  booking_id: string | null;
  created_at: string | Date;
  disposition_at: string | Date | null;
  review_status: string | null;
  action_taken: string | null;
  action_taken_at: string | Date | null;
  action_taken_by: string | null;
  assignee: string | null;
  event_at: string | Date | null;
  superseded_by?: string | null;
  review_deadline?: string | Date | null;
  review_settings: StoredReviewSettings | null;
}

/** The review fields of a stored item after its disposition changed (a booking task's end, an airline's change). */
export function storedReviewStateOf(row: StoredReviewItem): ReviewState {
  const item = {
    type: row.type,
    subtype: row.subtype,
    classification: row.classification,
    priority: row.priority,
    disposition: row.disposition,
    recommended_action: row.recommended_action,
    booking_id: row.booking_id,
    created_at: isoOf(row.created_at)!,
    disposition_at: isoOf(row.disposition_at),
    review_status: row.review_status,
    action_taken: row.action_taken,
    action_taken_at: isoOf(row.action_taken_at),
    action_taken_by: row.action_taken_by,
    assignee: row.assignee,
    superseded_by: row.superseded_by ?? null,
    review_deadline: isoOf(row.review_deadline),
  } as ReviewItem;
  return reviewStateOf(item, isoOf(row.event_at), reviewSettingsOf(row.review_settings));
}

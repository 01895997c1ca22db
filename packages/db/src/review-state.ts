import { sql } from 'kysely';
import type { DbOrTrx } from './database';
import { PREPARED } from './prepared';

/*
 * Plumbing for the writers of an action item's disposition (a booking's settle, an airline's change): the
 * item's review facts read back by the write itself, with its airline's stored review settings, so the review
 * rules (the engine's, passed in by the caller) decide its review_status and due_by without another read.
 */

/** An airline's stored review settings, as a writer reads them (null: none stored, the defaults apply). */
export interface ReviewSettingsFacts {
  lead_time_minutes: number;
  due_soon_minutes: number;
  priority_targets_minutes: Record<string, number>;
}

/** An action item's fields the review rules read, as stored, with its airline's review settings. */
export interface StoredReviewFacts {
  action_id: string;
  type: string;
  subtype: string;
  classification: string;
  priority: string;
  disposition: string | null;
  recommended_action: string | null;
  booking_id: string | null;
  created_at: Date;
  disposition_at: Date | null;
  review_status: string | null;
  due_by: Date | null;
  action_taken: string | null;
  action_taken_at: Date | null;
  action_taken_by: string | null;
  assignee: string | null;
  event_at: Date | null;
  review_deadline: Date | null;
  review_settings: ReviewSettingsFacts | null;
}

/** The review rules (the engine's storedReviewStateOf): what the item's review fields are, as it now stands. */
export type ReviewStateOf = (item: StoredReviewFacts) => { review_status: string | null; due_by: string | null };

/**
 * The item's airline's stored review settings as JSON (null without a row), in a statement on action_items
 * unaliased (qualified: inside the subquery a bare airline_id would be review_settings' own).
 */
export const REVIEW_SETTINGS_OF_ITEM = sql<ReviewSettingsFacts | null>`(select json_build_object('lead_time_minutes',
  r.lead_time_minutes, 'due_soon_minutes', r.due_soon_minutes, 'priority_targets_minutes', r.priority_targets_minutes)
  from review_settings r where r.airline_id = action_items.airline_id)`;

/**
 * Writes the review fields the rules give the item when they differ from the stored ones (most settles change
 * nothing: an item no person ever needed stays null). In the caller's transaction, which holds the item's row.
 */
export async function keepReviewState(trx: DbOrTrx, item: StoredReviewFacts, reviewOf: ReviewStateOf): Promise<void> {
  const next = reviewOf(item);
  const dueBy = next.due_by === null ? null : new Date(next.due_by);
  if (next.review_status === item.review_status && dueBy?.getTime() === item.due_by?.getTime()) return;
  await sql`${PREPARED} update action_items set review_status = ${next.review_status}, due_by = ${dueBy}
    where action_id = ${item.action_id}`.execute(trx);
}

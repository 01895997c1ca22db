import { reviewRepo, type ActionItemRow, type Db } from '@crew/db';
import { dueBy, reviewStatusOf } from '@crew/engine';
import { loadReviewSettings } from '../config/review-settings.service';
import { reviewItemOf } from './views';

/**
 * Stores the review status and due_by the engine derives for items that have none stored (written before
 * the writers kept them), so the queue's filters and deadline order find them. Returns how many were stored.
 */
export async function storeDerivedReviewStates(db: Db, airlineId: string, rows: readonly ActionItemRow[]) {
  const settings = await loadReviewSettings(db, airlineId);
  const derived = rows
    .filter((r) => r.airline_id === airlineId && r.review_status === null)
    .map((r) => {
      const item = reviewItemOf(r);
      return {
        action_id: r.action_id,
        review_status: reviewStatusOf(item),
        due_by: dueBy(item, r.event_at?.toISOString() ?? null, settings),
      };
    })
    .filter((d) => d.review_status !== null);
  await reviewRepo.writeReviewStates(db, derived);
  return derived.length;
}

import type { ReviewSettingsBody, ReviewSettingsView } from '@crew/contracts';
import { reviewSettingsRepo, reviewWritesRepo, type Db, type DbOrTrx } from '@crew/db';
import { DEFAULT_REVIEW_SETTINGS, mergeReviewSettings, type ReviewSettings } from '@crew/engine';
import { ApiError } from '@crew/platform';

/** The airline's review settings: as stored, else the defaults (lead 240, due soon 30, targets P1 5, P2 30, P3 60). */
export async function loadReviewSettings(db: DbOrTrx, airlineId: string): Promise<ReviewSettings> {
  const stored = await reviewSettingsRepo.findReviewSettings(db, airlineId);
  return stored ?? DEFAULT_REVIEW_SETTINGS;
}

export function reviewSettingsView(s: ReviewSettings): ReviewSettingsView {
  return {
    lead_time_minutes: s.lead_time_minutes,
    due_soon_minutes: s.due_soon_minutes,
    priority_targets_minutes: { ...s.priority_targets_minutes },
  };
}

/**
 * PUT /crew/config/review: the engine merges the change into the stored settings (an omitted field, or
 * priority, keeps its value); a fault is 422 naming the field and changes nothing. Two changes at once take
 * turns on the airline's row, so neither loses the other's fields. The airline's OPEN items are dated again.
 */
export async function updateReviewSettings(
  db: Db,
  airlineId: string,
  body: ReviewSettingsBody,
): Promise<ReviewSettings> {
  return db.transaction().execute(async (trx) => {
    const stored = await reviewSettingsRepo.lockReviewSettings(trx, airlineId, DEFAULT_REVIEW_SETTINGS);
    const merged = mergeReviewSettings(stored, body);
    if (!merged.ok) throw ApiError.validation(merged.issues, 'The review settings are not valid');
    await reviewSettingsRepo.saveReviewSettings(trx, airlineId, merged.settings);
    // The airline's open items are due by the new settings, committed with them.
    await reviewWritesRepo.redateOpenItems(trx, airlineId, merged.settings);
    return merged.settings;
  });
}

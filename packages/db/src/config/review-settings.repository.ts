import type { DbOrTrx } from '../database';

/** An airline's review settings as stored (the engine's ReviewSettings); no row: the defaults apply. */
export interface StoredReviewSettings {
  lead_time_minutes: number;
  due_soon_minutes: number;
  priority_targets_minutes: Record<string, number>;
}

/** The airline's stored review settings, or null when it has none (the defaults apply). */
export async function getReviewSettings(db: DbOrTrx, airlineId: string): Promise<StoredReviewSettings | null> {
  const row = await db
    .selectFrom('review_settings')
    .select(['lead_time_minutes', 'due_soon_minutes', 'priority_targets_minutes'])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
  return row ?? null;
}

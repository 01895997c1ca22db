import type { DbOrTrx } from '../database';

/** An airline's review settings as stored (the engine's ReviewSettings); no row: the defaults apply. */
export interface StoredReviewSettings {
  lead_time_minutes: number;
  due_soon_minutes: number;
  priority_targets_minutes: Record<string, number>;
}

export function findReviewSettings(db: DbOrTrx, airlineId: string): Promise<StoredReviewSettings | undefined> {
  return db
    .selectFrom('review_settings')
    .select(['lead_time_minutes', 'due_soon_minutes', 'priority_targets_minutes'])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
}

/**
 * The airline's settings, row-locked for a read-merge-write. Without a row, `defaults` are stored first (ON
 * CONFLICT DO NOTHING waits for a concurrent first write and keeps its row): a lock on no row would let two first
 * writes both merge into the defaults, the second writing the first's fields back. Rolled back with a refused change.
 */
export async function lockReviewSettings(
  trx: DbOrTrx,
  airlineId: string,
  defaults: StoredReviewSettings,
): Promise<StoredReviewSettings> {
  await trx
    .insertInto('review_settings')
    .values({
      airline_id: airlineId,
      lead_time_minutes: defaults.lead_time_minutes,
      due_soon_minutes: defaults.due_soon_minutes,
      priority_targets_minutes: JSON.stringify(defaults.priority_targets_minutes),
    })
    .onConflict((oc) => oc.column('airline_id').doNothing())
    .execute();
  return trx
    .selectFrom('review_settings')
    .select(['lead_time_minutes', 'due_soon_minutes', 'priority_targets_minutes'])
    .where('airline_id', '=', airlineId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function saveReviewSettings(trx: DbOrTrx, airlineId: string, s: StoredReviewSettings): Promise<void> {
  const values = {
    lead_time_minutes: s.lead_time_minutes,
    due_soon_minutes: s.due_soon_minutes,
    priority_targets_minutes: JSON.stringify(s.priority_targets_minutes),
  };
  await trx
    .insertInto('review_settings')
    .values({ airline_id: airlineId, ...values })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

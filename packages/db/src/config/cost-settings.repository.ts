import type { DbOrTrx } from '../database';

/** An airline's cost settings as stored (the engine's CostSettings); no row: the defaults apply. */
export interface StoredCostSettings {
  cancel_hold_minutes: number;
  after_deadline: 'CANCEL' | 'REVIEW';
}

export function findCostSettings(db: DbOrTrx, airlineId: string): Promise<StoredCostSettings | undefined> {
  return db
    .selectFrom('cost_settings')
    .select(['cancel_hold_minutes', 'after_deadline'])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
}

/**
 * The airline's settings, row-locked for a read-merge-write. Without a row, `defaults` are stored first (ON
 * CONFLICT DO NOTHING waits for a concurrent first write and keeps its row): a lock on no row would let two first
 * writes both merge into the defaults, the second writing the first's fields back. Rolled back with a refused change.
 */
export async function lockCostSettings(
  trx: DbOrTrx,
  airlineId: string,
  defaults: StoredCostSettings,
): Promise<StoredCostSettings> {
  await trx
    .insertInto('cost_settings')
    .values({
      airline_id: airlineId,
      cancel_hold_minutes: defaults.cancel_hold_minutes,
      after_deadline: defaults.after_deadline,
    })
    .onConflict((oc) => oc.column('airline_id').doNothing())
    .execute();
  return trx
    .selectFrom('cost_settings')
    .select(['cancel_hold_minutes', 'after_deadline'])
    .where('airline_id', '=', airlineId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function saveCostSettings(trx: DbOrTrx, airlineId: string, s: StoredCostSettings): Promise<void> {
  const values = { cancel_hold_minutes: s.cancel_hold_minutes, after_deadline: s.after_deadline };
  await trx
    .insertInto('cost_settings')
    .values({ airline_id: airlineId, ...values })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

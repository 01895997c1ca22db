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

/** The airline's settings, row-locked for a read-merge-write (the first write finds no row to lock). */
export function lockCostSettings(trx: DbOrTrx, airlineId: string): Promise<StoredCostSettings | undefined> {
  return trx
    .selectFrom('cost_settings')
    .select(['cancel_hold_minutes', 'after_deadline'])
    .where('airline_id', '=', airlineId)
    .forUpdate()
    .executeTakeFirst();
}

export async function saveCostSettings(trx: DbOrTrx, airlineId: string, s: StoredCostSettings): Promise<void> {
  const values = { cancel_hold_minutes: s.cancel_hold_minutes, after_deadline: s.after_deadline };
  await trx
    .insertInto('cost_settings')
    .values({ airline_id: airlineId, ...values })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

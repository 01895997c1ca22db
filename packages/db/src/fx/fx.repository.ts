import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

export interface FxRateRow {
  currency: string;
  as_of: string;
  rate: number;
  set_by: string | null;
  set_at: Date;
}

/** Sets the rate of a currency from a date (replacing the one set for that same date). */
export async function setRate(
  db: DbOrTrx,
  r: { currency: string; as_of: string; rate: number; set_by: string | null },
): Promise<FxRateRow> {
  return db
    .insertInto('fx_rates')
    .values(r)
    .onConflict((oc) =>
      oc.columns(['currency', 'as_of']).doUpdateSet({ rate: r.rate, set_by: r.set_by, set_at: sql`now()` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every rate ever set (the table is operator-maintained, so small), by currency then newest date first. */
export function listRates(db: DbOrTrx, currency?: string): Promise<FxRateRow[]> {
  return db
    .selectFrom('fx_rates')
    .selectAll()
    .$if(currency !== undefined, (q) => q.where('currency', '=', currency!))
    .orderBy('currency')
    .orderBy('as_of', 'desc')
    .execute();
}

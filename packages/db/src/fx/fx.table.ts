import type { ColumnType } from 'kysely';

/** An operator-set exchange rate: pivot (USD) units per one unit of `currency`, holding from `as_of`. */
export interface FxRateTable {
  currency: string;
  as_of: string;
  /** numeric, read as a number. */
  rate: number;
  set_by: string | null;
  set_at: ColumnType<Date, never, Date>;
}

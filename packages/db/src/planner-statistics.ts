import { sql } from 'kysely';
import type { Db } from './database';

/** The tables a schedule's diff writes in bulk. */
export type BulkWrittenTable = 'action_items' | 'bookings' | 'rostered_layovers' | 'rostered_deadheads';

/** Autovacuum's default analyze threshold: 50 rows + 10 % of the table's rows as last counted. */
const ANALYZE_BASE_ROWS = 50;
const ANALYZE_SCALE = 0.1;
/**
 * How long an ANALYZE waits for its table: a VACUUM or another ANALYZE holds the lock it needs (autovacuum gives
 * way at once), and the airline's next roster waits behind it. Past this it is skipped (the caller logs it).
 */
const ANALYZE_LOCK_TIMEOUT = '2s';

/**
 * After a bulk write, ANALYZE at once each table it changed by more rows than autovacuum's default threshold
 * (which it would only act on up to a naptime later, a minute by default). Until then the planner plans with
 * the counts of before: after an airline's first big roster, a read of a few pairing_numbers' bookings walked
 * all 120k bookings of the window (78 ms instead of 1 ms), and the next roster may come seconds later. Returns
 * the tables analyzed. ANALYZE samples a bounded number of rows, and takes no lock readers or writers wait for.
 * `db` is not inside a transaction: each table is analyzed in its own.
 */
export async function analyzeAfterBulkWrite(
  db: Db,
  changed: Partial<Record<BulkWrittenTable, number>>,
): Promise<BulkWrittenTable[]> {
  const names = (Object.keys(changed) as BulkWrittenTable[]).filter((t) => (changed[t] ?? 0) > ANALYZE_BASE_ROWS);
  if (names.length === 0) return [];
  // reltuples is -1 for a table never analyzed or vacuumed.
  const { rows } = await sql<{
    name: BulkWrittenTable;
    reltuples: number;
  }>`select relname as name, greatest(reltuples, 0)::float8 as reltuples
    from pg_class where oid = any(${names}::regclass[])`.execute(db);
  const due = rows.filter((r) => changed[r.name]! > ANALYZE_BASE_ROWS + ANALYZE_SCALE * r.reltuples).map((r) => r.name);
  for (const table of due) {
    await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${ANALYZE_LOCK_TIMEOUT}, true)`.execute(trx);
      await sql`analyze ${sql.table(table)}`.execute(trx);
    });
  }
  return due;
}

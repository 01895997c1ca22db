import { sql } from 'kysely';
import type { DbOrTrx } from '../database';

export interface OutboxEntry {
  queue: string;
  name: string;
  job_id: string;
  data: Record<string, unknown>;
  delay_ms?: number;
  /** Relay order: lower lanes first (default 0), then the order written. */
  lane?: number;
}

/** Writes jobs in the caller's transaction: they exist exactly when the data they act on does. */
export async function addToOutbox(trx: DbOrTrx, entries: OutboxEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 5000) {
    const chunk = entries.slice(i, i + 5000);
    await trx
      .insertInto('outbox')
      .values(
        chunk.map((e) => ({
          queue: e.queue,
          name: e.name,
          job_id: e.job_id,
          data: JSON.stringify(e.data),
          delay_ms: e.delay_ms ?? 0,
          lane: e.lane ?? 0,
        })),
      )
      .execute();
  }
}

/**
 * Takes up to `limit` entries, most urgent lane first and in the order written within a lane (the order it
 * returns them in), locked: concurrent relays in other processes skip them.
 */
export async function takeOutbox(trx: DbOrTrx, limit: number) {
  const rows = await trx
    .deleteFrom('outbox')
    .where('id', 'in', (qb) =>
      qb.selectFrom('outbox').select('id').orderBy('lane').orderBy('id').limit(limit).forUpdate().skipLocked(),
    )
    .returningAll()
    .execute();
  // DELETE … RETURNING answers in the order it met the rows, not the subquery's.
  return rows.sort((a, b) => a.lane - b.lane || a.id - b.id);
}

export async function outboxSize(db: DbOrTrx): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from outbox`.execute(db);
  return r.rows[0]?.n ?? 0;
}

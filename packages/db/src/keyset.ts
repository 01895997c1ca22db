import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * One page of a list, newest first, keyset on the table's `seq` (stable under concurrent inserts): the rows
 * before `beforeSeq` (the cursor), and one more than `limit`, which tells the caller that another page follows.
 */
export function newestFirst<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  beforeSeq: number | null,
): Promise<O[]> {
  const seq = sql.ref<number>('seq');
  return (beforeSeq !== null ? q.where(seq, '<', beforeSeq) : q)
    .orderBy(seq, 'desc')
    .limit(limit + 1)
    .execute();
}

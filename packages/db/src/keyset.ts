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

/**
 * A page's row count (the page and one more) written into the statement's text, not sent as a parameter: a
 * prepared statement's generic plan, made for an unknown count, expects a tenth of the table and sorts it instead
 * of reading the index in order. Page sizes are few, so the texts are too.
 */
function pageRows(limit: number) {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`page limit must be a whole number: ${limit}`);
  return sql.lit(limit + 1);
}

/**
 * One page in creation order, keyset on the table's `seq` (the order rows were inserted in: stable under
 * concurrent inserts): the rows after `afterSeq` (the cursor), and one more than `limit`. Each row carries its
 * position as `keyset_key` (seq as text: a bigint).
 */
export function oldestFirst<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  afterSeq: string | null,
): Promise<(O & { keyset_key: string })[]> {
  const seq = sql.ref('seq');
  const page = q.select(sql<string>`${seq}::text`.as('keyset_key') as never) as SelectQueryBuilder<
    DB,
    TB,
    O & { keyset_key: string }
  >;
  return (afterSeq !== null ? page.where(sql<boolean>`${seq} > ${afterSeq}::bigint`) : page)
    .orderBy(seq)
    .limit(pageRows(limit))
    .execute();
}

/** A keyset position on (key, id): the key as Postgres prints it (exact to the microsecond), or null, and the id. */
export interface KeyPosition {
  key: string | null;
  id: string;
}

/**
 * One page ordered by a timestamp column ascending, rows without one last, then by an id column: the rows
 * after `after` (the cursor), and one more than `limit`. Each row carries its position as `keyset_key` (the
 * timestamp's text: a JS Date would lose its microseconds and repeat or skip rows at a page boundary).
 */
export async function ascendingAfter<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  keyColumn: string,
  idColumn: string,
  limit: number,
  after: KeyPosition | null,
): Promise<(O & { keyset_key: string | null })[]> {
  const key = sql.ref(keyColumn);
  const id = sql.ref(idColumn);
  const page = q.select(sql<string | null>`${key}::text`.as('keyset_key') as never) as SelectQueryBuilder<
    DB,
    TB,
    O & { keyset_key: string | null }
  >;
  const unkeyed = (from: typeof page, n: number) =>
    from
      .where(sql<boolean>`${key} is null`)
      .orderBy(id)
      .limit(n)
      .execute();
  if (after?.key === null) return unkeyed(page.where(sql<boolean>`${id} > ${after.id}`), limit + 1);
  // The keyed rows after the cursor as one row comparison, which the index on (…, key, id) seeks to (an OR of its
  // cases scans every row before the cursor), then the rows without a key when the page is not full.
  const from = after ? page.where(sql<boolean>`(${key}, ${id}) > (${after.key}::timestamptz, ${after.id})`) : page;
  const keyed = await from
    .where(sql<boolean>`${key} is not null`)
    .orderBy(key)
    .orderBy(id)
    .limit(pageRows(limit))
    .execute();
  return keyed.length > limit ? keyed : [...keyed, ...(await unkeyed(page, limit + 1 - keyed.length))];
}

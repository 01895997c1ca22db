import { ApiError } from './errors';

/** Opaque list cursors: base64url JSON of the keyset position. Clients echo them back unchanged. */
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** Decodes a cursor, or 400 INVALID_REQUEST when it was not made by encodeCursor. */
export function decodeCursor<T extends Record<string, unknown>>(
  cursor: string | undefined,
  check: (v: Record<string, unknown>) => boolean,
): T | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v) && check(v as Record<string, unknown>)) return v as T;
  } catch {
    // fall through
  }
  throw ApiError.invalid('The cursor is not valid; pass back next_cursor unchanged', [
    { field: 'query.cursor', issue: 'is not a cursor of this list' },
  ]);
}

/** The `seq` position of a keyset cursor over a table ordered by its `seq` column (null: the first page). */
export function seqCursor(cursor: string | undefined): number | null {
  return decodeCursor<{ s: number }>(cursor, (v) => Number.isInteger(v.s))?.s ?? null;
}

/** A page of `limit` rows out of `limit + 1` fetched, with the cursor of the next page when there is one. */
export function keysetPage<T extends { seq: number }>(
  rows: T[],
  limit: number,
): { rows: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { rows: kept, next_cursor: more ? encodeCursor({ s: kept[kept.length - 1]!.seq }) : null };
}

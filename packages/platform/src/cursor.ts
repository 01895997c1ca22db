import { ApiError } from './errors';

/** Opaque list cursors: base64url JSON of the keyset position. Clients echo them back unchanged. */
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** Decodes a cursor, or 400 INVALID_REQUEST when it was not made by encodeCursor. */
export function decodeCursor<T extends Record<string, unknown>>(cursor: string | undefined, check: (v: Record<string, unknown>) => boolean): T | null {
  if (cursor === undefined) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v) && check(v as Record<string, unknown>)) return v as T;
  } catch {
    // fall through
  }
  throw ApiError.invalid('The cursor is not valid; pass back next_cursor unchanged', [{ field: 'query.cursor', issue: 'is not a cursor of this list' }]);
}

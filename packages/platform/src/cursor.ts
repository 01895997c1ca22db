import { isUuid } from '@crew/contracts';
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

/*
 * What a position may hold: exactly what its query's parameter takes, so a forged cursor is a 400 here and
 * never a Postgres error (a 500) later.
 */

/**
 * A bigint position (a `seq`): a safe integer. A bigger JSON number is not the one it reads as, and from 1e21 on
 * JavaScript prints it as `1e+21`, which no bigint parameter reads (nor one above 2^63 - 1).
 */
export const isBigintPosition = (v: unknown): v is number => Number.isSafeInteger(v);

/** An integer (int4) position: -2^31 to 2^31 - 1. */
export const isIntegerPosition = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= -2_147_483_648 && (v as number) <= 2_147_483_647;

/** A uuid position: the 8-4-4-4-12 form Postgres' uuid reads (the shared validator's own format). */
export const isUuidPosition = (v: unknown): v is string => typeof v === 'string' && isUuid(v);

/**
 * A timestamptz as Postgres prints it in the ISO DateStyle (`2027-03-01 12:00:05.123456+00`, a BC year with
 * ` BC`): a real calendar day and time of its range, so the `::timestamptz` cast of the position takes it.
 */
const PG_TIMESTAMPTZ =
  /^(\d{4,6})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?[+-](\d\d)(?::(\d\d))?(?::(\d\d))?( BC)?$/;
const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function isTimestamptzPosition(v: unknown): v is string {
  const m = typeof v === 'string' ? PG_TIMESTAMPTZ.exec(v) : null;
  if (!m) return false;
  const [year, month, day, hour, minute, second, tzHour, tzMinute, tzSecond] = m
    .slice(1, 10)
    .map((x) => (x === undefined ? 0 : Number(x)));
  const bc = m[10] !== undefined;
  // Postgres' range: 4713 BC to 294276 AD (whole years kept inside it).
  if (year! < 1 || year! > (bc ? 4712 : 294275)) return false;
  // A BC year N is the proleptic year 1 - N: 1 BC is a leap year.
  const y = bc ? 1 - year! : year!;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month!]!) &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    tzHour! <= 15 &&
    tzMinute! <= 59 &&
    tzSecond! <= 59
  );
}

/** The `seq` position of a keyset cursor over a table ordered by its `seq` column (null: the first page). */
export function seqCursor(cursor: string | undefined): number | null {
  return decodeCursor<{ s: number }>(cursor, (v) => isBigintPosition(v.s))?.s ?? null;
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

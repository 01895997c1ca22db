import type { Insertable, Selectable, Updateable } from 'kysely';

/*
 * The types of the bulk writers (./bulk): the Postgres types of their columns, and the rows and changes they
 * take. Apart from the writers, so a table's types can check its bulk columns without importing the database.
 */

export type PgType =
  'text' | 'uuid' | 'integer' | 'bigint' | 'numeric' | 'boolean' | 'date' | 'timestamptz' | 'json' | 'jsonb';

/** Postgres types of the columns a bulk statement carries. */
export type ColumnTypes = Readonly<Record<string, PgType>>;

/** The Postgres types a column whose selected TS type is V can be written as. */
type PgTypesOf<V> = [V] extends [boolean]
  ? 'boolean'
  : [V] extends [number]
    ? 'integer' | 'bigint' | 'numeric'
    : [V] extends [Date]
      ? 'timestamptz'
      : [V] extends [string]
        ? 'text' | 'uuid' | 'date' | 'timestamptz'
        : 'json' | 'jsonb';

/**
 * A bulk column map of table T, checked at compile time with `satisfies BulkColumns<T>`: only T's insertable
 * columns (a misspelt or dropped column fails to compile), each with a Postgres type its TS type fits.
 */
export type BulkColumns<T> = {
  readonly [K in keyof Insertable<T> & string]?: K extends keyof Selectable<T>
    ? PgTypesOf<NonNullable<Selectable<T>[K]>>
    : never;
};

/**
 * One value as the bulk writers take it: a timestamp also as ISO text, a JSON column as any JSON-able value
 * (they serialise it; an engine interface has no index signature, so `object` rather than the column's Record).
 */
type BulkValue<S, W> = [NonNullable<S>] extends [Date]
  ? W | string
  : [NonNullable<S>] extends [string | number | boolean]
    ? W
    : W | object;

/** A row of table T for copyInsert / bulkInsert: kysely's Insertable<T>, JSON columns as values. */
export type BulkRow<T> = {
  [K in keyof Insertable<T>]: K extends keyof Selectable<T>
    ? BulkValue<Selectable<T>[K], Insertable<T>[K]>
    : Insertable<T>[K];
};

/** A row of table T for bulkUpdate: kysely's Updateable<T> plus its key; null where the statement keeps the stored value. */
export type BulkChange<T, Key extends keyof Selectable<T>> = { [K in Key]: Selectable<T>[K] } & {
  [K in keyof Updateable<T>]?:
    (K extends keyof Selectable<T> ? BulkValue<Selectable<T>[K], Updateable<T>[K]> : Updateable<T>[K]) | null;
};

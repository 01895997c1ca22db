import { sql, type RawBuilder } from 'kysely';
import type { DbOrTrx } from './database';

/** Postgres types of the columns a bulk statement carries. */
export type ColumnTypes = Record<string, 'text' | 'uuid' | 'integer' | 'bigint' | 'boolean' | 'date' | 'timestamptz' | 'jsonb'>;

const CHUNK = 5000;

function recordset(columns: ColumnTypes, rows: readonly Record<string, unknown>[]): RawBuilder<unknown> {
  const defs = Object.entries(columns)
    .map(([c, t]) => `"${c}" ${t}`)
    .join(', ');
  // One JSON parameter per chunk: no 65535-parameter limit, one round trip per few thousand rows.
  return sql`json_to_recordset(${JSON.stringify(rows)}::json) as x(${sql.raw(defs)})`;
}

/** INSERT … SELECT FROM json_to_recordset: set-based, a statement per 5000 rows. */
export async function bulkInsert(trx: DbOrTrx, table: string, columns: ColumnTypes, rows: readonly Record<string, unknown>[], onConflict = ''): Promise<void> {
  const names = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(', ');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await sql`insert into ${sql.table(table)} (${sql.raw(names)}) select ${sql.raw(names)} from ${recordset(columns, chunk)} ${sql.raw(onConflict)}`.execute(trx);
  }
}

/** UPDATE … FROM json_to_recordset, matching `key`; `set` is the SQL of the assignments (x.<col> names the new value). */
export async function bulkUpdate(trx: DbOrTrx, table: string, key: string, columns: ColumnTypes, rows: readonly Record<string, unknown>[], set: string): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await sql`update ${sql.table(table)} as t set ${sql.raw(set)} from ${recordset(columns, chunk)} where t.${sql.ref(key)} = x.${sql.ref(key)}`.execute(trx);
  }
}

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { isStorableText } from '@crew/contracts';
import type { DbOrTrx } from './database';
import type { ColumnTypes, PgType } from './bulk-types';

// The row and column types live in ./bulk-types: the table types use them and this module uses the database's.
export type { PgType, ColumnTypes, BulkColumns, BulkRow, BulkChange } from './bulk-types';

const CHUNK = 5000;

function recordset(columns: ColumnTypes, rows: readonly object[]): RawBuilder<unknown> {
  const defs = Object.entries(columns)
    .map(([c, t]) => `"${c}" ${t}`)
    .join(', ');
  // One JSON parameter per chunk: no 65535-parameter limit, one round trip per few thousand rows.
  return sql`json_to_recordset(${JSON.stringify(rows)}::json) as x(${sql.raw(defs)})`;
}

/** INSERT … SELECT FROM json_to_recordset: set-based, a statement per 5000 rows. */
export async function bulkInsert(
  trx: DbOrTrx,
  table: string,
  columns: ColumnTypes,
  rows: readonly object[],
  onConflict = '',
): Promise<void> {
  const names = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(', ');
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await sql`insert into ${sql.table(table)} (${sql.raw(names)}) select ${sql.raw(names)} from ${recordset(columns, chunk)} ${sql.raw(onConflict)}`.execute(
      trx,
    );
  }
}

/** UPDATE … FROM json_to_recordset, matching `key`; `set` is the SQL of the assignments (x.<col> names the new value). */
export async function bulkUpdate(
  trx: DbOrTrx,
  table: string,
  key: string,
  columns: ColumnTypes,
  rows: readonly object[],
  set: string,
  /** A further condition on each target row `t` and its recordset row `x`: a row failing it is left as it is. */
  condition?: string,
): Promise<number> {
  let updated = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const r =
      await sql`update ${sql.table(table)} as t set ${sql.raw(set)} from ${recordset(columns, chunk)} where t.${sql.ref(key)} = x.${sql.ref(key)}${condition ? sql.raw(` and (${condition})`) : sql``}`.execute(
        trx,
      );
    updated += Number(r.numAffectedRows ?? 0);
  }
  return updated;
}

/** Text Postgres cannot store as given; its SQLSTATE is the one Postgres gives such text in JSON (a data exception). */
export class UnstorableText extends Error {
  readonly code = '22P05';
  constructor() {
    super('text Postgres cannot store: a NUL character or a lone UTF-16 surrogate');
  }
}

/** Characters a text value needs care for: COPY's escapes, NUL and (possibly lone) surrogates. */
const NEEDS_CARE = /[\\\t\n\r\0\uD800-\uDFFF]/;

/** A text value in COPY's text format: backslash, tab, newline and carriage return escaped. */
function copyString(text: string): string {
  // Most values need nothing: one test, and the checks below only for the rest.
  if (!NEEDS_CARE.test(text)) return text;
  // UTF-8 would turn a lone surrogate into U+FFFD on the wire and Postgres text holds no NUL: refused, as
  // Postgres refuses them in JSON input, rather than stored changed.
  if (!isStorableText(text)) throw new UnstorableText();
  return text.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

type FieldWriter = (v: unknown) => string;

/** One value in COPY's text format, \\N for null: a writer per column type, chosen once per statement. */
function fieldWriter(type: PgType): FieldWriter {
  switch (type) {
    case 'json':
    case 'jsonb':
      return (v) => {
        if (v === null || v === undefined) return '\\N';
        // Many JSON columns hold an empty list (no findings, nothing billed before).
        if (Array.isArray(v) && v.length === 0) return '[]';
        // JSON.stringify escapes every control character itself: only its backslashes need doubling.
        const json = JSON.stringify(v);
        return json.includes('\\') ? json.replace(/\\/g, '\\\\') : json;
      };
    case 'boolean':
      return (v) => (v === null || v === undefined ? '\\N' : v ? 't' : 'f');
    default:
      return (v) => {
        if (v === null || v === undefined) return '\\N';
        if (typeof v === 'string') return copyString(v);
        if (typeof v === 'number') return String(v);
        if (v instanceof Date) return v.toISOString();
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- only scalars reach here: JSON columns have their own writer
        return copyString(String(v));
      };
  }
}

/**
 * Rows per chunk handed to the COPY stream. Small: the stream takes one chunk ahead of what Postgres has read,
 * so Node serialises the next chunk while Postgres parses and indexes this one; with 2000-row chunks the two
 * took turns (an L roster's items: 7.5 s → 6 s measured).
 */
const COPY_CHUNK_ROWS = 250;

function* copyChunks(
  columns: ColumnTypes,
  rows: Iterable<object>,
  constants: Readonly<Record<string, unknown>>,
): Generator<string> {
  const names = Object.keys(columns);
  const writers = names.map((c): FieldWriter => {
    const write = fieldWriter(columns[c]!);
    if (!(c in constants)) return write;
    const text = write(constants[c]);
    return () => text;
  });
  const lines: string[] = [];
  // One array of a row's fields, reused for every row: join makes the row's text in one piece (concatenating
  // field by field made a string per field to collect, on every row of a write of hundreds of thousands).
  const fields = new Array<string>(names.length);
  for (const r of rows) {
    const row = r as Record<string, unknown>;
    for (let i = 0; i < names.length; i++) fields[i] = writers[i]!(row[names[i]!]);
    lines.push(fields.join('\t'));
    if (lines.length === COPY_CHUNK_ROWS) {
      yield `${lines.join('\n')}\n`;
      lines.length = 0;
    }
  }
  if (lines.length) yield `${lines.join('\n')}\n`;
}

/**
 * COPY … FROM STDIN (text format) on the caller's connection, so inside its transaction: several times
 * cheaper for Postgres than INSERT … SELECT json_to_recordset (no JSON to parse, one statement). No ON
 * CONFLICT: for rows that cannot conflict (new ids, keys unique within the write). `constants`: columns whose
 * value is the same in every row, taken from there instead of each row (no copy of 160k rows to add one field).
 */
export async function copyInsert(
  trx: DbOrTrx,
  table: string,
  columns: ColumnTypes,
  rows: readonly object[] | Iterable<object>,
  constants: Readonly<Record<string, unknown>> = {},
): Promise<void> {
  if (Array.isArray(rows) && rows.length === 0) return;
  const names = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(', ');
  await trx.getExecutor().provideConnection(async (conn) => {
    const stream = copyFrom(`copy "${table}" (${names}) from stdin`);
    // The COPY's end on the connection when it fails: pg hands the stream Postgres's error.
    let answered = false;
    stream.once('error', () => (answered = true));
    // pg's client.query accepts a "submittable" (the COPY stream) in place of SQL text and answers with it;
    // Kysely passes the compiled query's sql through to client.query, so the COPY runs on this connection.
    await conn.executeQuery(CompiledQuery.raw(stream as unknown as string, []));
    try {
      await pipeline(Readable.from(copyChunks(columns, rows, constants)), stream);
    } catch (err) {
      // A row refused here (UnstorableText) fails the pipeline at once, while the COPY still runs until Postgres
      // answers the CopyFail the stream's destroy sends: the connection is not the caller's before (its rollback
      // would be a second query on it).
      if (!answered) await new Promise((ended) => stream.once('error', ended).once('close', ended));
      throw err;
    }
  });
}

/**
 * A filter on a table's pairing_number column (bookings, rostered rows): these pairing_numbers only, or all rows.
 * `= any` of a constant array is a hash lookup per row (Postgres 14+), whatever the statistics say; a join with
 * unnest() is planned as a nested loop over every booking while the table's statistics still predate a big first
 * roster (measured: 3 s instead of 0.1 s).
 */
export function ofPairings(pairings: readonly string[] | undefined) {
  return pairings ? sql<boolean>`pairing_number = any(${pairings}::text[])` : sql<boolean>`true`;
}

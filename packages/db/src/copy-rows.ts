import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DbOrTrx } from './database';

/*
 * A large read as COPY (query) TO STDOUT: one buffer split into lines and fields. The driver reads a result row
 * by row and field by field (a string, a parser call and a property per field): an L airline's 120,669 stays
 * of eleven fields took 440-570 ms of the worker's CPU so and 260-340 ms as COPY (measured 2026-11-27, three
 * rounds alternating), for the same Postgres work.
 */

/**
 * A value written into a COPY's query as a literal (COPY takes no bind parameters), quoted and escaped by pg
 * whatever the server's standard_conforming_strings.
 */
export function copyLiteral(value: string): RawBuilder<unknown> {
  return sql.raw(pg.escapeLiteral(value));
}

const ESCAPED: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A field of COPY's text format: `\N` is null; a backslash escapes itself, a control character or an octal byte. */
function copyField(text: string): string | null {
  if (text === '\\N') return null;
  if (!text.includes('\\')) return text;
  return text.replace(/\\(?:([0-7]{1,3})|x([0-9a-fA-F]{1,2})|(.))/g, (_m, octal?: string, hex?: string, c?: string) =>
    octal
      ? String.fromCharCode(parseInt(octal, 8))
      : hex
        ? String.fromCharCode(parseInt(hex, 16))
        : (ESCAPED[c!] ?? c!),
  );
}

/** A row as COPY gives it: each column's text, null for NULL. */
export type CopyRow = readonly (string | null)[];

/**
 * The rows of `query` as arrays of text, null for NULL, in the query's column order (`R` names them, as `sql<R>`
 * does). Its values go in with copyLiteral: a query with bind parameters is refused.
 */
export async function copyRows<R extends CopyRow>(db: DbOrTrx, query: RawBuilder<unknown>): Promise<R[]> {
  const compiled = query.compile(db);
  if (compiled.parameters.length > 0)
    throw new TypeError('COPY takes no bind parameters: write its values with copyLiteral');
  const chunks: Buffer[] = [];
  await db.getExecutor().provideConnection(async (conn) => {
    const stream = copyTo(`copy (${compiled.sql}) to stdout`);
    // pg's client.query accepts the COPY stream in place of SQL text (as copyInsert passes its own).
    await conn.executeQuery(CompiledQuery.raw(stream as unknown as string, []));
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  });
  const text = Buffer.concat(chunks).toString('utf8');
  const rows: R[] = [];
  // Every row ends with a newline; a newline inside a field is written escaped.
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    const fields: (string | null)[] = text.slice(start, end).split('\t');
    for (let i = 0; i < fields.length; i++) fields[i] = copyField(fields[i]!);
    rows.push(fields as unknown as R);
  }
  return rows;
}

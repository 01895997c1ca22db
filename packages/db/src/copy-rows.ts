import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { DbOrTrx } from './database';

/*
 * A large read as COPY (query) TO STDOUT, its text split into lines and fields chunk by chunk as it arrives. The
 * driver reads a result row by row and field by field (a string, a parser call and a property per field): an L
 * airline's 120,669 stays of eleven fields took 440-570 ms of the worker's CPU so and 260-340 ms as COPY (measured
 * 2026-11-27, three rounds alternating), for the same Postgres work. Read chunk by chunk (2026-11-28), Node splits
 * rows while Postgres writes the next ones, and no text of the whole result is made: on these VMs a string of
 * hundreds of kilobytes is a large object whose fresh pages cost more to fault in than its copy.
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
  const rows: R[] = [];
  await db.getExecutor().provideConnection(async (conn) => {
    const stream = copyTo(`copy (${compiled.sql}) to stdout`);
    // pg's client.query accepts the COPY stream in place of SQL text (as copyInsert passes its own).
    await conn.executeQuery(CompiledQuery.raw(stream as unknown as string, []));
    // Rows are read as they arrive, while Postgres writes the next ones, and each chunk's text stays small (one
    // string of the whole result is a large object of its own to allocate and collect). `unended`: the bytes of a
    // row not ended yet, the chunks since the last newline (joined once, whatever the row's size).
    const unended: Buffer[] = [];
    for await (const chunk of stream) {
      const bytes = chunk as Buffer;
      // Every row ends with a newline (one inside a field is written escaped), never inside a UTF-8 character.
      const end = bytes.lastIndexOf(NEWLINE);
      if (end < 0) {
        unended.push(bytes);
        continue;
      }
      const upToEnd = bytes.subarray(0, end + 1);
      addRows(rows, (unended.length > 0 ? Buffer.concat([...unended, upToEnd]) : upToEnd).toString('utf8'));
      unended.length = 0;
      if (end < bytes.length - 1) unended.push(bytes.subarray(end + 1));
    }
    if (unended.length > 0) throw new Error('COPY ended inside a row');
  });
  return rows;
}

const NEWLINE = 0x0a;

/** The rows of complete lines of COPY text, each ended by a newline. */
function addRows<R extends CopyRow>(rows: R[], text: string): void {
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; start = end + 1, end = text.indexOf('\n', start)) {
    const fields: (string | null)[] = text.slice(start, end).split('\t');
    for (let i = 0; i < fields.length; i++) fields[i] = copyField(fields[i]!);
    rows.push(fields as unknown as R);
  }
}

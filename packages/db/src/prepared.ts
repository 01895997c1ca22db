import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import pg from 'pg';

const MARK = '/*crew:prepared*/';

/**
 * Marks a statement (anywhere in its text: `sql\`${PREPARED} …\``, or a builder's `.modifyEnd(PREPARED)`) to
 * run as a named prepared statement: each pooled connection has Postgres parse and plan it once (a generic plan
 * after five runs) instead of at every call. For the statements of a booking's settle and a webhook delivery,
 * run hundreds of times a second with the same text; in a statement log of the booking benchmark, parsing and
 * planning them took longer than running them (as for a review queue page under many readers). Each distinct
 * text gets its own name, so a marked statement whose text varies (a builder's set of columns) gets one prepared
 * statement per variant on each connection.
 *
 * Never mark a statement whose result columns follow the table (`select *`, `returning *`): once a migration
 * adds a column while the process runs (a rolling deploy), Postgres refuses to run it again on that connection
 * ("cached plan must not change result type"). Statements without a result, or with listed columns, replan.
 */
export const PREPARED = sql.raw(MARK);

const names = new Map<string, string>();

/**
 * At most this many distinct texts are prepared by a process (so on each of its connections): a text with many
 * variants (a queue page's filters and page size, chosen by the caller) must not grow every connection's plan cache
 * without bound. Past it, a new text runs unprepared, as an unmarked one does.
 */
export const MAX_PREPARED_TEXTS = 256;

function preparedName(text: string): string | undefined {
  if (!text.includes(MARK)) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_PREPARED_TEXTS) return undefined;
    name = `crew_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/** What node-postgres rejects a statement with once the client's `query_timeout` has passed. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/** A pg client that runs the texts marked PREPARED (as kysely sends them: text and values) by name. */
export class PreparingClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query has a dozen overloads; this passes them all through.
  override query(...args: any[]): any {
    const [text, values] = args as [unknown, unknown[] | undefined];
    const name = typeof text === 'string' && args.length <= 2 ? preparedName(text) : undefined;
    const result: unknown = name
      ? super.query({ name, text: text as string, values })
      : (super.query as (...a: unknown[]) => unknown)(...(args as unknown[]));
    // A statement past its query_timeout is still the connection's active one: every later statement would
    // queue behind it. The connection is closed instead, so the pool discards it on release.
    const timedOut = (err: unknown) => {
      if ((err as Error | undefined)?.message === QUERY_TIMEOUT_MESSAGE) this.connection.stream.destroy();
    };
    if (result instanceof Promise) result.catch(timedOut);
    // A submittable (a COPY stream) reports it as an 'error' event.
    else if (result instanceof EventEmitter) result.once('error', timedOut);
    return result;
  }
}

import pg from 'pg';

/** A query given to a pg client while that client still ran (or had queued) another. */
export interface QueryOverlap {
  text: string;
  /** What was waiting ahead of it on the client besides the query running. */
  queued: number;
  stack: string;
}

/** pg's own record of a client's queries (private in pg 8: the state its query queue is kept in). */
interface ClientQueue {
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
}

/**
 * Watches every pg client of this process (the pools' included) for a query given while the client still has
 * one: pg then queues it, which pg 8 deprecates ("Calling client.query() when the client is already executing
 * a query", warned once two wait) and its next major refuses. `stop()` ends the watch and returns what it saw.
 */
export function watchQueryOverlaps(): { stop(): QueryOverlap[] } {
  const proto = pg.Client.prototype as unknown as { query: (this: ClientQueue, ...args: unknown[]) => unknown };
  const query = proto.query;
  const seen: QueryOverlap[] = [];
  proto.query = function (this: ClientQueue, ...args: unknown[]) {
    const queued = this._queryQueue?.length ?? 0;
    if (this._activeQuery || queued > 0) {
      const first = args[0] as string | { text?: string; constructor: { name: string } };
      const text = typeof first === 'string' ? first : (first.text ?? first.constructor.name);
      seen.push({ text: text.slice(0, 200), queued, stack: new Error().stack ?? '' });
    }
    return query.apply(this, args);
  };
  return {
    stop() {
      proto.query = query;
      return seen;
    },
  };
}

/**
 * The queue over HTTP: GET /api/v1/crew/action-items?review_status=OPEN&sort=due_by, its first page and a page
 * reached by following next_cursor, each under autocannon's concurrent connections against the running api:
 * `runs` measured runs of each page, alternating, each after a warm-up of the same load (a serving api is warm:
 * the first seconds of a cold process measure its JIT and heap sizing, not the queue).
 *
 * autocannon's warm-up runs on connections of its own, so every measured run opens its connections anew, all at
 * once, and each connection's first request waits behind that burst (measured: up to 0.7-1.2 s where the
 * connections' later requests stay under 0.35 s). The latencies against the target are therefore those of the
 * requests after each connection's first, the steady state of readers on open connections (as browsers and the
 * Service's proxies keep them); autocannon's own figures over every request are reported beside them.
 */
import autocannon from 'autocannon';
import type { Tenant } from '../lib/client';
import { median, percentile } from '../lib/stats';

export interface HttpOptions {
  limit: number;
  deepPages: number;
  connections: number;
  durationS: number;
  warmupS: number;
  runs: number;
}

export interface HttpTiming {
  page: string;
  /** Over the requests after each connection's first (the steady state). */
  p50: number;
  p99: number;
  /** autocannon's p99 over every 2xx request, each connection's first included. */
  p99AllRequests: number;
  /** The slowest of the connections' first requests. */
  firstRequestMax: number;
  requests: number;
  perSecond: number;
  non2xx: number;
  errors: number;
}

/** A page's runs, and their medians (non-2xx and errors summed). */
export interface PageTimings {
  page: string;
  runs: HttpTiming[];
  median: HttpTiming;
}

export type HttpOutcome = { ok: true; pages: PageTimings[]; itemsOnPage: number } | { ok: false; reason: string };

export const queuePath = (limit: number, cursor?: string) =>
  `/crew/action-items?review_status=OPEN&sort=due_by&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

async function load(tenant: Tenant, label: string, path: string, o: HttpOptions): Promise<HttpTiming> {
  const run = autocannon({
    url: `${tenant.urls.apiUrl}/api/v1${path}`,
    connections: o.connections,
    duration: o.durationS,
    headers: { authorization: `Bearer ${await tenant.token()}` },
    timeout: 30,
    ...(o.warmupS > 0 ? { warmup: { connections: o.connections, duration: o.warmupS } } : {}),
  });
  const connected = new Set<object>();
  const firsts: number[] = [];
  const steady: number[] = [];
  run.on('response', (client, status, _bytes, ms) => {
    if (status < 200 || status > 299) return;
    if (connected.has(client)) steady.push(ms);
    else {
      connected.add(client);
      firsts.push(ms);
    }
  });
  const r = await run;
  return {
    page: label,
    p50: percentile(steady, 50),
    p99: percentile(steady, 99),
    p99AllRequests: r.latency.p99,
    firstRequestMax: Math.max(...firsts),
    requests: r.requests.total,
    perSecond: r.requests.average,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** The first page and the page `deepPages` pages in, measured; skipped (with why) when the api has no such route. */
export async function measureQueueHttp(tenant: Tenant, o: HttpOptions): Promise<HttpOutcome> {
  const first = await tenant.api(queuePath(o.limit));
  if (first.status !== 200)
    return {
      ok: false,
      reason: `GET /api/v1${queuePath(o.limit)} answered ${first.status} (${first.text.slice(0, 120)}): the queue endpoint is not in this build`,
    };
  const body = first.body as { action_items?: unknown[]; next_cursor?: string | null };
  if (!Array.isArray(body.action_items)) return { ok: false, reason: 'the answer has no action_items list' };
  let cursor = body.next_cursor ?? null;
  for (let page = 1; page < o.deepPages && cursor; page++) {
    const next = await tenant.api(queuePath(o.limit, cursor));
    if (next.status !== 200) return { ok: false, reason: `page ${page + 1} answered ${next.status}` };
    cursor = (next.body as { next_cursor?: string | null }).next_cursor ?? null;
  }
  if (!cursor) return { ok: false, reason: `the queue ended before page ${o.deepPages}` };
  const pages = [
    { page: 'first page', path: queuePath(o.limit) },
    { page: `page ${o.deepPages + 1} (next_cursor followed ${o.deepPages} times)`, path: queuePath(o.limit, cursor) },
  ];
  const runs: HttpTiming[][] = pages.map(() => []);
  for (let run = 0; run < o.runs; run++)
    for (const [i, p] of pages.entries()) runs[i]!.push(await load(tenant, p.page, p.path, o));
  return {
    ok: true,
    itemsOnPage: body.action_items.length,
    pages: pages.map((p, i) => ({ page: p.page, runs: runs[i]!, median: medianOf(p.page, runs[i]!) })),
  };
}

function medianOf(page: string, runs: HttpTiming[]): HttpTiming {
  const m = (f: (t: HttpTiming) => number) => median(runs.map(f));
  const sum = (f: (t: HttpTiming) => number) => runs.reduce((a, t) => a + f(t), 0);
  return {
    page,
    p50: m((t) => t.p50),
    p99: m((t) => t.p99),
    p99AllRequests: m((t) => t.p99AllRequests),
    firstRequestMax: m((t) => t.firstRequestMax),
    requests: m((t) => t.requests),
    perSecond: m((t) => t.perSecond),
    non2xx: sum((t) => t.non2xx),
    errors: sum((t) => t.errors),
  };
}

/**
 * The queue over HTTP: GET /api/v1/crew/action-items?review_status=OPEN&sort=due_by, its first page and a page
 * reached by following next_cursor, each under autocannon's concurrent connections against the running api.
 */
import autocannon from 'autocannon';
import type { Tenant } from '../lib/client';

export interface HttpOptions {
  limit: number;
  deepPages: number;
  connections: number;
  durationS: number;
}

export interface HttpTiming {
  page: string;
  p50: number;
  p99: number;
  requests: number;
  perSecond: number;
  non2xx: number;
  errors: number;
}

export type HttpOutcome = { ok: true; timings: HttpTiming[]; itemsOnPage: number } | { ok: false; reason: string };

export const queuePath = (limit: number, cursor?: string) =>
  `/crew/action-items?review_status=OPEN&sort=due_by&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

async function load(tenant: Tenant, label: string, path: string, o: HttpOptions): Promise<HttpTiming> {
  const r = await autocannon({
    url: `${tenant.urls.apiUrl}/api/v1${path}`,
    connections: o.connections,
    duration: o.durationS,
    headers: { authorization: `Bearer ${await tenant.token()}` },
    timeout: 30,
  });
  return {
    page: label,
    p50: r.latency.p50,
    p99: r.latency.p99,
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
  return {
    ok: true,
    itemsOnPage: body.action_items.length,
    timings: [
      await load(tenant, 'first page', queuePath(o.limit), o),
      await load(
        tenant,
        `page ${o.deepPages + 1} (next_cursor followed ${o.deepPages} times)`,
        queuePath(o.limit, cursor),
        o,
      ),
    ],
  };
}

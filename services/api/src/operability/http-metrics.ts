import type { Request, RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';

/**
 * The route template of a request with its mount prefix (`/api/v1/crew/schedules/:schedule_id`), never the
 * concrete URL, so label cardinality stays bounded. express gives `req.route.path` relative to the router;
 * the mounts are static, so the prefix is the request path's leading segments the route did not match.
 * (`req.baseUrl` is not used: it is reset when an error leaves the router.)
 */
export function routeTemplate(req: Request): string {
  const routePath: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof routePath === 'string') {
    const urlSegments = (req.originalUrl.split('?')[0] ?? '').split('/').filter(Boolean);
    const routeSegments = routePath.split('/').filter(Boolean);
    const prefix = urlSegments.slice(0, Math.max(0, urlSegments.length - routeSegments.length));
    return `/${[...prefix, ...routeSegments].join('/')}`;
  }
  // Static files and sub-apps without a route of their own: their mount point.
  return req.baseUrl ? `${req.baseUrl}/*` : 'unmatched';
}

/** `crew_http_request_duration_seconds{method,route,status}`; a request the client abandoned has status "aborted". */
export function httpMetrics(registry: Registry): RequestHandler {
  const histogram = new Histogram({
    name: 'crew_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    // Up to a minute: roster uploads of several MB take seconds.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      histogram.observe(
        { method: req.method, route: routeTemplate(req), status },
        Number(process.hrtime.bigint() - started) / 1e9,
      );
    });
    next();
  };
}

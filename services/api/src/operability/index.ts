import type { Express, RequestHandler } from 'express';
import type { RouteSpec } from '@crew/platform';
import type { ApiDeps } from '../app';

/** Middleware that must see every request (HTTP metrics). */
export function operabilityMiddleware(_deps: ApiDeps): RequestHandler[] {
  return [];
}

/** /openapi.json, /docs, /admin/queues, /metrics. Mounted before the 404 fallback. */
export function mountOperability(_app: Express, _deps: ApiDeps, _routes: { crew: RouteSpec[]; ops: RouteSpec[] }): void {
  // Filled in by the operability work (issue 6).
}

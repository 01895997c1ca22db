import express, { type Express, type RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { OAUTH_ROUTES } from '@crew/contracts';
import { mountRoutes, type RouteSpec } from '@crew/platform';
import { createQueues } from '@crew/queue';
import { createRegistry, registerQueueMetrics } from '@crew/queue';
import { API_BASE, OPS_BASE, type ApiDeps } from '../deps';
import { mountDocs } from './docs';
import { httpMetrics } from './http-metrics';
import { buildOpenApi, type OpenApiDocument, type RouteGroup } from './openapi';
import { mountQueueDashboard } from './queue-dashboard';
import { operationalRoutes, PROBE_ROUTES } from './routes';
import { CONFIRMATION_PAGE_ROUTES } from '../rooming/confirmation.page';
import { OWN_AIRLINE_CALLBACK_ROUTES } from '../callbacks/own-airline.callback';
import { DUFFEL_CALLBACK_ROUTES } from '../callbacks/duffel.callback';
import { CONSOLE_PAGE_ROUTES } from '../console/console.router';

export { buildOpenApi, type OpenApiDocument } from './openapi';

/**
 * One metrics registry per api app: the owner's (`deps.metrics`, with the process's own metrics on it), or one of
 * the app's own with its HTTP and queue metrics only. operabilityMiddleware fills it, mountOperability serves it.
 */
const registries = new WeakMap<ApiDeps, Registry>();

function registryFor(deps: ApiDeps): Registry {
  let registry = deps.metrics ?? registries.get(deps);
  if (!registry) {
    registry = createRegistry('api');
    registries.set(deps, registry);
  }
  return registry;
}

/** Middleware that must see every request (HTTP metrics). */
export function operabilityMiddleware(deps: ApiDeps): RequestHandler[] {
  return [httpMetrics(registryFor(deps))];
}

/** Every route group the document describes: what this app mounts, plus the auth service on its own host. */
function documentedGroups(
  deps: ApiDeps,
  routes: { crew: RouteSpec[]; ops: RouteSpec[] },
  operational: RouteSpec[],
): RouteGroup[] {
  return [
    { prefix: API_BASE, routes: routes.crew },
    { prefix: OPS_BASE, routes: routes.ops },
    { prefix: '', routes: [...PROBE_ROUTES, ...operational] },
    { prefix: '', routes: CONFIRMATION_PAGE_ROUTES },
    { prefix: '', routes: OWN_AIRLINE_CALLBACK_ROUTES },
    { prefix: '', routes: DUFFEL_CALLBACK_ROUTES },
    { prefix: '', routes: CONSOLE_PAGE_ROUTES },
    {
      prefix: '',
      routes: Object.values(OAUTH_ROUTES),
      server: { url: deps.config.authUrl, description: 'The auth service (AUTH_URL)' },
    },
  ];
}

/** /openapi.json, /docs, /admin/queues, /metrics. Mounted before the 404 fallback. */
export function mountOperability(app: Express, deps: ApiDeps, routes: { crew: RouteSpec[]; ops: RouteSpec[] }): void {
  const registry = registryFor(deps);
  // The dashboard and the depth metrics share Queue objects on the api's fail-fast producer connection.
  const queues = Object.values(createQueues(deps.redis, deps.config.queuePrefix));
  registerQueueMetrics(registry, queues);

  // /openapi.json is itself in the document: its handler reads the document built just below.
  let document: OpenApiDocument | null = null;
  const operational = operationalRoutes(() => document!, registry);
  document = buildOpenApi({ authUrl: deps.config.authUrl, groups: documentedGroups(deps, routes, operational) });

  const router = express.Router();
  mountRoutes(router, operational, () => []);
  app.use(router);
  mountDocs(app, '/openapi.json', deps.config.authUrl);
  mountQueueDashboard(app, queues, deps.config.opsToken);
}

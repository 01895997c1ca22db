import { Type } from '@sinclair/typebox';
import type { Registry } from 'prom-client';
import { route, type RouteSpec } from '@crew/platform';
import type { DocumentedRoute, OpenApiDocument } from './openapi';

const TAGS = ['Operations'];

const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checks: Type.Object({ postgres: Type.Boolean(), migrations: Type.Boolean(), redis: Type.Boolean() }),
  },
  { title: 'Readiness' },
);

/** The probes createApiApp serves itself; documented here so the document covers every route the api has. */
export const PROBE_ROUTES: readonly DocumentedRoute[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness: the process answers',
    tags: TAGS,
    auth: 'none',
    responses: { 200: { description: 'Up', schema: Type.Object({ status: Type.Literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: Postgres reachable and migrated, Redis reachable',
    tags: TAGS,
    auth: 'none',
    responses: {
      200: { description: 'Ready', schema: Readiness },
      503: { description: 'Not ready (the failing check is false)', schema: Readiness },
    },
  },
];

/** `/openapi.json` and `/metrics`, declared like every other route. `document` is read per request (it documents itself). */
export function operationalRoutes(document: () => OpenApiDocument, registry: Registry): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document (rendered at /docs)',
      tags: TAGS,
      auth: 'none',
      responses: { 200: { description: 'OpenAPI 3.1 document', schema: Type.Object({ openapi: Type.String() }) } },
      handler: () => ({ status: 200, body: document() }),
    }),
    route({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics: process, HTTP request durations, BullMQ queue depths',
      tags: TAGS,
      auth: 'none',
      responses: { 200: { description: 'Prometheus text exposition format 0.0.4', contentType: 'text/plain' } },
      handler: async ({ res }) => {
        const body = await registry.metrics();
        res.type(registry.contentType).send(body);
        return undefined;
      },
    }),
  ];
}

import type { Request, Response } from 'express';
import type { Static, TSchema } from '@sinclair/typebox';
import { ErrorEnvelope } from '@crew/contracts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  /** Defaults to application/json. */
  contentType?: string;
}

/** What a handler answers; `undefined` when it wrote the response itself (a stream, say). */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

type StaticOr<S, D> = S extends TSchema ? Static<S> : D;

/**
 * One endpoint, declared once: express mounts it, the validator checks it, the OpenAPI document describes it.
 * `path` uses express syntax (`/crew/schedules/:schedule_id`).
 */
export interface RouteSpec<B extends TSchema | undefined = TSchema | undefined, Q extends TSchema | undefined = TSchema | undefined, P extends TSchema | undefined = TSchema | undefined> {
  method: HttpMethod;
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  operationId: string;
  /** Scope a token needs (airline API), `ops` for the operator token, `none` for public routes. */
  auth: string;
  body?: B;
  /** Maximum body size (bytes, or a size string such as '256mb'). */
  bodyLimit?: string;
  query?: Q;
  params?: P;
  /** Extra request headers documented (Idempotency-Key, say). */
  headers?: Record<string, { description: string; required?: boolean }>;
  responses: Record<number, ResponseSpec>;
  handler: (input: HandlerInput<StaticOr<B, undefined>, StaticOr<Q, Record<string, never>>, StaticOr<P, Record<string, string>>>) => Promise<Reply | undefined> | Reply | undefined;
}

/** Identity with inference: keeps each route's handler typed by its own schemas. */
export function route<B extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, P extends TSchema | undefined = undefined>(
  spec: RouteSpec<B, Q, P>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** Converts `/a/:id/b` into a regular expression that matches concrete paths. */
export function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** `/a/:id` → `/a/{id}` (OpenAPI). */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The documented error responses of a route, all in the spec's envelope. */
export function errorResponses(codes: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(codes.map((c) => [c, { description: 'Error (spec section 7 envelope)', schema: ErrorEnvelope }]));
}

import type { Request, Response } from 'express';
import type { Static, TSchema } from '@sinclair/typebox';
import type { RouteDoc, ValidationIssue } from '@crew/contracts';

export type { HttpMethod, ResponseSpec, RouteDoc } from '@crew/contracts';
export { errorResponses } from '@crew/contracts';

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
 * The documentation part is the contracts' RouteDoc; this adds how it is served.
 */
export interface RouteSpec<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
> extends RouteDoc<B, Q, P> {
  /** Maximum body size (bytes, or a size string such as '256mb'). */
  bodyLimit?: string;
  /**
   * `stream`: the body is left unread for the handler (see `streamedBody`): Content-Type,
   * Content-Encoding and a declared Content-Length are checked here, nothing is parsed or validated
   * (the handler does both off the event loop, for a big roster). The schema still documents it.
   */
  bodyMode?: 'json' | 'stream';
  /**
   * Keep a JSON body's bytes as received (decoded), for a handler that stores the body as sent instead of
   * serialising it again: `jsonBodyBytes(req)`.
   */
  keepJsonBytes?: boolean;
  /**
   * The body's whole check, in place of the schema alone: the schema's faults and the rules a schema cannot
   * say, all named in one 422 (an invoice's lines, say).
   */
  bodyIssues?: (body: unknown) => ValidationIssue[];
  handler: (
    input: HandlerInput<
      StaticOr<B, undefined>,
      StaticOr<Q, Record<string, never>>,
      StaticOr<P, Record<string, string>>
    >,
  ) => Promise<Reply | undefined> | Reply | undefined;
}

/** Identity with inference: keeps each route's handler typed by its own schemas. */
export function route<
  B extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  P extends TSchema | undefined = undefined,
>(spec: RouteSpec<B, Q, P>): RouteSpec {
  return spec;
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

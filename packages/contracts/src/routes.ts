import type { TSchema } from '@sinclair/typebox';
import { ErrorEnvelope } from './errors';

/** The airline API's base path: links the services put in answers are built from it (never by the engine). */
export const API_PREFIX = '/api/v1';

/** Where a person picks a flight for an action item awaiting a manual choice. */
export function flightOptionsUrl(actionId: string): string {
  return `${API_PREFIX}/crew/flight-options?action_id=${encodeURIComponent(actionId)}`;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: TSchema;
  /** Defaults to application/json. */
  contentType?: string;
}

/**
 * What an endpoint is, without how it is served: method, path, schemas and responses. The OpenAPI
 * document is built from these; a service adds the handler (see `route` in @crew/platform).
 */
export interface RouteDoc<
  B extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  P extends TSchema | undefined = TSchema | undefined,
> {
  method: HttpMethod;
  /** Express syntax (`/crew/schedules/:schedule_id`). */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  operationId: string;
  /** Scope a token needs (airline API), `ops` for the operator token, `none`, `user` or `client`. */
  auth: string;
  body?: B;
  /**
   * The body may also be sent as `text/csv` (this describes its columns): the handler receives the text and
   * checks it itself; a JSON body is validated against `body` as always.
   */
  csvBody?: string;
  /** The body may be left out (it is then taken as `{}`, which the schema must accept); one given is validated. */
  bodyOptional?: boolean;
  query?: Q;
  params?: P;
  /** Extra request headers documented (Idempotency-Key, say). */
  headers?: Record<string, { description: string; required?: boolean }>;
  responses: Record<number, ResponseSpec>;
}

/** The documented error responses of a route, all in the spec's envelope. */
export function errorResponses(codes: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(
    codes.map((c) => [c, { description: 'Error (spec section 7 envelope)', schema: ErrorEnvelope }]),
  );
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import express, {
  type ErrorRequestHandler,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { pinoHttp } from 'pino-http';
import { checkBody, checkQuery, ErrorCode } from '@crew/contracts';
import { ApiError, isDatabaseUnavailable } from './errors';
import type { Logger } from './logger';
import { pathPattern, type RouteSpec } from './route';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Whose X-Forwarded-For a service believes (express's `trust proxy`): proxies on a loopback or private network
 * only (the cluster's ingress, which writes the client's address there). A client reaching a service from
 * elsewhere cannot choose its own address (`req.ip`), which keys the console's sign-in limit.
 */
export const TRUSTED_PROXIES = 'loopback, linklocal, uniquelocal';

/**
 * Whether a browser's Origin names a site other than the one asked (`req.host`): a page's form posted from
 * another site. No Origin, or the opaque "null", leaves it to the form's own token; an Origin that is no URL at
 * all counts as another site (refused, never a 500).
 */
export function crossSiteOrigin(req: Request): boolean {
  const origin = req.get('origin');
  if (!origin || origin === 'null') return false;
  try {
    return new URL(origin).host !== req.host;
  } catch {
    return true;
  }
}

/** One JSON line per request, with a request id reused from `X-Request-Id` or minted, and echoed back. */
export function requestLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId(req, res) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // request_id is bound once, when the request starts; the fields a route bound later (bindLog) go on the
    // request's line itself (a second customProps child would repeat request_id on that line).
    customProps(req) {
      return { request_id: req.id };
    },
    customSuccessObject: (_req, res, line) => ({ ...logBindings(res as Response), ...(line as object) }),
    customErrorObject: (_req, res, _err, line) => ({ ...logBindings(res as Response), ...(line as object) }),
    customLogLevel(req, res, err) {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      // The queue dashboard polls every few seconds and the docs page loads assets: not worth an info line each.
      if (req.method === 'GET' && /^\/(admin\/queues|docs)(\/|$)/.test(req.url ?? '')) return 'debug';
      return 'info';
    },
    serializers: {
      req(req: { method: string; url: string }) {
        // The URL without its query string: a refresh token travels in the query. A rooming-list link's token
        // is a hotel's credential: its signature is not logged; nor is a console invitation's token, in any case
        // of its path (the console's routes match any).
        return {
          method: req.method,
          url: String(req.url)
            .split('?')[0]!
            .replace(/^(\/hotel\/rooming-lists\/[^/.]*\.)[^/]*/i, '$1[REDACTED]')
            .replace(/^(\/console\/invite\/)[^/]*/i, '$1[REDACTED]'),
        };
      },
      res(res: { statusCode: number }) {
        return { status: res.statusCode };
      },
    },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
  });
}

/** What a `stream` route's handler needs to read its body: how it is encoded and how much of it may be read. */
export interface StreamedBody {
  encoding: 'identity' | 'gzip' | 'deflate';
  /** Most bytes the body may have once decoded (the route's bodyLimit). */
  limit: number;
  /** The declared Content-Length (encoded bytes), when there is one. */
  length: number | null;
}

/** The unread body of a `bodyMode: 'stream'` route, checked by `mountRoutes`. */
export function streamedBody(req: Request): StreamedBody | undefined {
  return (req as Request & { streamedBody?: StreamedBody }).streamedBody;
}

export const payloadTooLarge = () =>
  new ApiError(413, ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than this endpoint accepts');

const SIZE = /^(\d+)\s*(b|kb|mb|gb)?$/i;
const UNIT: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** '256mb' → bytes (the size strings body-parser takes). */
function sizeInBytes(size: string): number {
  const m = SIZE.exec(size.trim());
  if (!m) throw new Error(`not a size: "${size}"`);
  return Number(m[1]) * UNIT[(m[2] ?? 'b').toLowerCase()]!;
}

const JSON_TYPE = /^application\/(.+\+)?json\b/i;

/** The Content-Encodings every body may have (docs/decisions.md); another one is a 415, whatever body-parser could decode. */
function bodyEncoding(req: Request): StreamedBody['encoding'] | ApiError {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === 'gzip' || encoding === 'deflate') return encoding;
  return new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, `Unsupported content encoding "${encoding}"`);
}

const encodingGuard: RequestHandler = (req, _res, next) => {
  const encoding = bodyEncoding(req);
  next(encoding instanceof ApiError ? encoding : undefined);
};

/** The checks body-parser would make before reading, for a body the handler reads itself. */
function streamBodyGuard(bodyLimit: string): RequestHandler {
  const limit = sizeInBytes(bodyLimit);
  return (req, _res, next) => {
    if (!JSON_TYPE.test(String(req.headers['content-type'] ?? '')))
      return next(new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The body must be application/json'));
    const encoding = bodyEncoding(req);
    if (encoding instanceof ApiError) return next(encoding);
    const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
    // Refused before a byte is read; an encoded body's limit applies to its decoded size, found while decoding.
    if (encoding === 'identity' && declared !== null && declared > limit) return next(payloadTooLarge());
    (req as Request & { streamedBody?: StreamedBody }).streamedBody = { encoding, limit, length: declared };
    next();
  };
}

const logBindings = (res: Response) => (res.locals?.logBindings as Record<string, unknown> | undefined) ?? {};

/** Adds fields (airline_id, schedule_id, booking_id…) to this request's log line. */
export function bindLog(res: Response, fields: Record<string, unknown>): void {
  res.locals.logBindings = { ...((res.locals.logBindings as Record<string, unknown> | undefined) ?? {}), ...fields };
}

export function sendError(res: Response, err: ApiError): void {
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  res.status(err.status).json(err.toEnvelope());
}

/** Maps every error to the spec's envelope; a 500 never carries a stack or internal message. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    const apiError = toApiError(err);
    if (apiError.status >= 500) (req.log ?? logger).error({ err }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, apiError);
  };
}

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // The router decodes path parameters (`/crew/bookings/%`): a malformed request on every route, not a 500.
  if (err instanceof URIError)
    return ApiError.invalid('The request path is not validly percent-encoded', [
      { field: 'path', issue: 'malformed percent-encoding' },
    ]);
  const e = err as { type?: string; status?: number; expose?: boolean; message?: string };
  switch (e?.type) {
    case 'entity.parse.failed':
      return ApiError.invalid('The request body is not valid JSON', [{ field: '/', issue: 'malformed JSON' }]);
    case 'entity.too.large':
      return payloadTooLarge();
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, e.message ?? 'Unsupported content encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return ApiError.invalid('The request body could not be read');
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return new ApiError(e.status, ErrorCode.INVALID_REQUEST, e.message ?? 'Bad request');
  }
  // An outage, not a bug: the client should retry (the pool reconnects by itself once Postgres is back).
  if (isDatabaseUnavailable(err))
    return new ApiError(
      503,
      ErrorCode.SERVICE_UNAVAILABLE,
      'The service cannot reach its database right now; retry shortly',
      [],
      { 'Retry-After': '5' },
    );
  return new ApiError(500, ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred; it has been logged');
}

const BODY_METHODS = new Set(['post', 'put', 'patch']);

/** Mounts declared routes on a router: body parsing with the route's limit, validation, the handler. */
export function mountRoutes(router: Router, routes: RouteSpec[], guard: (spec: RouteSpec) => RequestHandler[]): void {
  for (const spec of routes) {
    const handlers: RequestHandler[] = [...guard(spec)];
    if (spec.body && (BODY_METHODS.has(spec.method) || spec.bodyOptional)) {
      if (spec.bodyMode === 'stream') {
        handlers.push(streamBodyGuard(spec.bodyLimit ?? '1mb'));
      } else {
        handlers.push(
          encodingGuard,
          express.json({
            limit: spec.bodyLimit ?? '1mb',
            strict: false,
            inflate: true,
            ...(spec.keepJsonBytes ? { verify: keepBytes } : {}),
          }),
        );
        if (spec.csvBody)
          handlers.push(express.text({ type: CSV_TYPE, limit: spec.bodyLimit ?? '1mb', inflate: true }));
        handlers.push(requireJson);
      }
    }
    handlers.push(async (req, res, next) => {
      try {
        const input = validateInput(spec, req);
        const reply = await spec.handler({ ...input, req, res });
        if (reply === undefined || res.headersSent) return;
        for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
        if (reply.body === undefined) res.status(reply.status).end();
        else res.status(reply.status).json(reply.body);
      } catch (err) {
        next(err);
      }
    });
    router[spec.method](spec.path, ...handlers);
  }
}

const CSV_TYPE = 'text/csv';

const JSON_BYTES = Symbol('json body bytes');
type WithJsonBytes = Request & { [JSON_BYTES]?: Buffer };

/** body-parser's verify hook: the bytes it is about to parse (after Content-Encoding), kept on the request. */
function keepBytes(req: IncomingMessage, _res: ServerResponse, bytes: Buffer): void {
  (req as WithJsonBytes)[JSON_BYTES] = bytes;
}

/** The bytes of a JSON body as received, on a route with `keepJsonBytes` (undefined for any other body). */
export function jsonBodyBytes(req: Request): Buffer | undefined {
  return req.is('application/json') ? (req as WithJsonBytes)[JSON_BYTES] : undefined;
}

/** A `text/csv` body of a route that takes one (csvBody): the text, for the handler to check. */
export function csvText(req: Request): string | undefined {
  return typeof req.body === 'string' && req.is(CSV_TYPE) ? req.body : undefined;
}

const requireJson: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) return next(new ApiError(415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'The body must be application/json'));
  }
  next();
};

function validateInput(spec: RouteSpec, req: Request): { body: unknown; query: unknown; params: unknown } {
  let query: unknown = req.query;
  let params: unknown = req.params;
  let body: unknown = req.body;
  if (spec.params) {
    const r = checkQuery(spec.params, { ...req.params });
    if (!r.ok) throw ApiError.notFound();
    params = r.value;
  }
  if (spec.query) {
    const r = checkQuery(spec.query, { ...(req.query as Record<string, unknown>) });
    if (!r.ok)
      throw ApiError.invalid(
        'The query string is not valid',
        r.issues.map((i) => ({ ...i, field: `query${i.field === '/' ? '' : i.field.replace(/^\//, '.')}` })),
      );
    query = r.value;
  }
  if (spec.body && spec.bodyMode === 'stream') {
    body = undefined;
  } else if (spec.body && spec.csvBody && csvText(req) !== undefined) {
    // Checked by the handler, which names the CSV's rows and columns.
  } else if (spec.body) {
    if (body === undefined && spec.bodyOptional) body = {};
    if (body === undefined) throw ApiError.validation([{ field: '/', issue: 'a JSON body is required' }]);
    if (spec.bodyIssues) {
      const issues = spec.bodyIssues(body);
      if (issues.length) throw ApiError.validation(issues);
    } else {
      const r = checkBody(spec.body, body);
      if (!r.ok) throw ApiError.validation(r.issues);
      body = r.value;
    }
  } else if (BODY_METHODS.has(spec.method)) {
    body = undefined;
  }
  return { body, query, params };
}

/** After all routes: 405 (with Allow) when the path exists under another method, else 404 — both in the envelope. */
export function fallbackHandler(routes: RouteSpec[], mountPath = ''): RequestHandler {
  const compiled = routes.map((r) => ({ method: r.method.toUpperCase(), re: pathPattern(mountPath + r.path) }));
  return (req, _res, next) => {
    const path = req.originalUrl.split('?')[0] ?? '';
    const allowed = [...new Set(compiled.filter((c) => c.re.test(path)).map((c) => c.method))];
    if (allowed.length > 0) {
      if (allowed.includes('GET')) allowed.push('HEAD');
      return next(
        new ApiError(405, ErrorCode.METHOD_NOT_ALLOWED, `Method ${req.method} is not allowed here`, [], {
          Allow: allowed.join(', '),
        }),
      );
    }
    next(new ApiError(404, ErrorCode.NOT_FOUND, `No route ${req.method} ${path}`));
  };
}

/** Listens and resolves with the bound port. */
export function listen(server: Server, port: number, host = '0.0.0.0'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/** Stops accepting connections and waits for in-flight requests, forcing them closed after the deadline. */
export async function closeServer(server: Server, deadlineMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), deadlineMs);
  timer.unref();
  await closed;
  clearTimeout(timer);
}

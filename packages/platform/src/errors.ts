import { ErrorCode, type ErrorEnvelope, type ValidationIssue } from '@crew/contracts';

/** A typed error that maps one-to-one onto the spec's envelope. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ValidationIssue[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, details: this.details }, status: this.status };
  }

  static invalid(message: string, details: ValidationIssue[] = []): ApiError {
    return new ApiError(400, ErrorCode.INVALID_REQUEST, message, details);
  }
  static unauthorized(message = 'A valid bearer token is required'): ApiError {
    return new ApiError(401, ErrorCode.UNAUTHORIZED, message, [], { 'WWW-Authenticate': 'Bearer' });
  }
  static forbiddenScope(scope: string): ApiError {
    return new ApiError(403, ErrorCode.INSUFFICIENT_SCOPE, `This operation needs the scope ${scope}`, [
      { field: 'scope', issue: `missing ${scope}` },
    ]);
  }
  static notFound(what = 'Resource'): ApiError {
    return new ApiError(404, ErrorCode.NOT_FOUND, `${what} not found`);
  }
  static conflict(message: string, code: string = ErrorCode.CONFLICT): ApiError {
    return new ApiError(409, code, message);
  }
  static validation(
    details: ValidationIssue[],
    message = 'The request body is not valid',
    code: string = ErrorCode.VALIDATION_FAILED,
  ): ApiError {
    return new ApiError(422, code, message, details);
  }
  static unprocessable(code: string, message: string, details: ValidationIssue[] = []): ApiError {
    return new ApiError(422, code, message, details);
  }
  /** Something this call depends on (a supplier, say) is unreachable now; nothing was changed. */
  static unavailable(message: string): ApiError {
    return new ApiError(503, ErrorCode.SERVICE_UNAVAILABLE, message, [], { 'Retry-After': '5' });
  }
}

/** Socket-level failures reaching Postgres (node errno codes). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server going away or not taking connections: admin/crash shutdown, starting up, too many connections. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03', '53300']);
/**
 * What node-postgres itself says when a connection dies, cannot be made in time, or a statement got no answer
 * within the pool's query_timeout (a server that went silent).
 */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Query read timeout)/;

/**
 * True for an error that means Postgres cannot be reached right now (restart, failover, network), as opposed
 * to a bug or a refused statement: the request may succeed when retried, so it is a 503, not a 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNREACHABLE.has(e.code) || SERVER_GONE.has(e.code) || e.code.startsWith('08')))
    return true;
  if (typeof e.message === 'string' && PG_CONNECTION_MESSAGE.test(e.message)) return true;
  // Connecting to a host name with several addresses fails with an AggregateError of each attempt's error.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDatabaseUnavailable);
}

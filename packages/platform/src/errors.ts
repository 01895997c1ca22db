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
  static validation(details: ValidationIssue[], message = 'The request body is not valid', code: string = ErrorCode.VALIDATION_FAILED): ApiError {
    return new ApiError(422, code, message, details);
  }
  static unprocessable(code: string, message: string, details: ValidationIssue[] = []): ApiError {
    return new ApiError(422, code, message, details);
  }
}

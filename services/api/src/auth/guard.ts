import type { RequestHandler, Response } from 'express';
import { ApiError, bearerToken, bindLog, safeEqual, type Logger, type RouteSpec } from '@crew/platform';
import { InvalidTokenError, type Principal, type TokenVerifier } from './token-verifier';

/** The authenticated airline caller of this request. */
export function principal(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new Error('principal() called on a route without airline authentication');
  return p;
}

export function opsGuard(opsToken: string): RequestHandler {
  return (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token || !safeEqual(token, opsToken)) return next(ApiError.unauthorized('The operator token is required'));
    next();
  };
}

export function scopeGuard(verify: TokenVerifier, scope: string, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(ApiError.unauthorized('Authorization: Bearer <access token> is required'));
    try {
      const p = await verify(token);
      res.locals.principal = p;
      bindLog(res, { airline_id: p.airline_id, client_id: p.client_id });
      if (!p.scopes.has(scope)) return next(ApiError.forbiddenScope(scope));
      next();
    } catch (err) {
      if (err instanceof InvalidTokenError) {
        logger.debug({ reason: err.message }, 'bearer rejected');
        return next(ApiError.unauthorized('The access token is missing, malformed or expired; refresh it and retry'));
      }
      next(err);
    }
  };
}

/** Picks the guard a declared route asks for; airline routes also pass the airline's rate limit, when there is one. */
export function guardFor(
  verify: TokenVerifier,
  opsToken: string,
  logger: Logger,
  rateLimit: RequestHandler | null = null,
): (spec: RouteSpec) => RequestHandler[] {
  const ops = opsGuard(opsToken);
  return (spec) => {
    if (spec.auth === 'none') return [];
    if (spec.auth === 'ops') return [ops];
    return rateLimit ? [scopeGuard(verify, spec.auth, logger), rateLimit] : [scopeGuard(verify, spec.auth, logger)];
  };
}

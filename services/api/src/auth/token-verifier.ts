import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { API_AUDIENCE, isUuid } from '@crew/contracts';
import { ExpiringMap } from './expiring-map';

/** The caller as the access token describes it; the tenant comes from here only. */
export interface Principal {
  airline_id: string;
  user_id: string;
  email: string;
  client_id: string;
  scopes: Set<string>;
  /** When the token expires (its `exp`, in milliseconds since the epoch). */
  expires_at_ms: number;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** Longest lifetime (`exp - iat`) and age a token may have; auth issues 15-minute tokens. */
export const MAX_TOKEN_LIFETIME_SECONDS = 3600;
/** Clock skew allowed between auth and api (`exp`, and `iat` slightly in the future). */
const CLOCK_TOLERANCE_SECONDS = 5;

/** The api's token check: against the auth service's JWKS, each token that verified remembered for a while. */
export function createTokenVerifier(authUrl: string): TokenVerifier {
  return rememberVerifiedTokens(jwksTokenVerifier(authUrl));
}

/**
 * Verifies access tokens against the auth service's JWKS: pinned algorithm, `iss` and `aud` checked,
 * a small clock tolerance, keys cached (an unknown `kid` triggers one refetch, rate-limited by jose).
 */
export function jwksTokenVerifier(authUrl: string): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 3_000,
  });
  return async (token) => {
    let payload: JWTPayload;
    try {
      // exp and iat are required (a token without exp would never expire); maxTokenAge also refuses an iat in the future.
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: authUrl,
        audience: API_AUDIENCE,
        algorithms: ['ES256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub'],
        maxTokenAge: MAX_TOKEN_LIFETIME_SECONDS,
      }));
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) throw new InvalidTokenError(err.message);
      throw err;
    }
    const { airline_id, user_id, email, scope, sub } = payload as JWTPayload & Record<string, unknown>;
    if (typeof airline_id !== 'string' || typeof sub !== 'string' || typeof scope !== 'string')
      throw new InvalidTokenError('token lacks required claims');
    if (payload.exp! - payload.iat! > MAX_TOKEN_LIFETIME_SECONDS)
      throw new InvalidTokenError('token lifetime exceeds the maximum');
    // The tenant key goes into every query: a malformed one is refused here, not by Postgres.
    if (!isUuid(airline_id)) throw new InvalidTokenError('airline_id is not a UUID');
    return {
      airline_id,
      user_id: typeof user_id === 'string' ? user_id : '',
      email: typeof email === 'string' ? email : '',
      client_id: sub,
      scopes: new Set(scope.split(' ').filter(Boolean)),
      expires_at_ms: payload.exp! * 1000,
    };
  };
}

/** How long a verified token is taken on trust (never past its `exp`); shorter than the JWKS cache's 10 minutes. */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
const MAX_VERIFIED_TOKENS = 10_000;

/**
 * Remembers tokens that verified until `ttlMs` later or their expiry, whichever comes first: an integration
 * sends the same token for up to 15 minutes, and the ES256 check was a tenth of a queue page's CPU. A token that
 * fails is never remembered. A key withdrawn from the JWKS stops its tokens within `ttlMs` of the api's key
 * cache noticing, as before.
 */
export function rememberVerifiedTokens(
  verify: TokenVerifier,
  ttlMs = VERIFIED_TOKEN_TTL_MS,
  now: () => number = Date.now,
): TokenVerifier {
  const verified = new ExpiringMap<string, Principal>(MAX_VERIFIED_TOKENS, now);
  return async (token) => {
    const hit = verified.get(token);
    if (hit) return hit;
    const t = now();
    const principal = await verify(token);
    verified.set(token, principal, Math.min(t + ttlMs, principal.expires_at_ms));
    return principal;
  };
}

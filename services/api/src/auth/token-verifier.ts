import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { API_AUDIENCE } from '@crew/contracts';

/** The caller as the access token describes it; the tenant comes from here only. */
export interface Principal {
  airline_id: string;
  user_id: string;
  email: string;
  client_id: string;
  scopes: Set<string>;
}

export type TokenVerifier = (token: string) => Promise<Principal>;

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/**
 * Verifies access tokens against the auth service's JWKS: pinned algorithm, `iss` and `aud` checked,
 * a small clock tolerance, keys cached (an unknown `kid` triggers one refetch, rate-limited by jose).
 */
export function createTokenVerifier(authUrl: string): TokenVerifier {
  const jwks = createRemoteJWKSet(new URL(`${authUrl}/.well-known/jwks.json`), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 3_000,
  });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, { issuer: authUrl, audience: API_AUDIENCE, algorithms: ['ES256'], clockTolerance: 5 }));
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) throw new InvalidTokenError((err as Error).message);
      throw err;
    }
    const { airline_id, user_id, email, scope, sub } = payload as JWTPayload & Record<string, unknown>;
    if (typeof airline_id !== 'string' || typeof sub !== 'string' || typeof scope !== 'string') throw new InvalidTokenError('token lacks required claims');
    return {
      airline_id,
      user_id: typeof user_id === 'string' ? user_id : '',
      email: typeof email === 'string' ? email : '',
      client_id: sub,
      scopes: new Set(scope.split(' ').filter(Boolean)),
    };
  };
}

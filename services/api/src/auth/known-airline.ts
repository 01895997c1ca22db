import { ExpiringMap } from './expiring-map';
import { InvalidTokenError, type TokenVerifier } from './token-verifier';

/** How long an airline seen to exist is trusted without asking Postgres again. */
export const KNOWN_AIRLINE_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Refuses a validly signed token whose airline does not exist (401, like any bad token). Airlines found are
 * remembered for `ttlMs`, so a busy airline costs one query per interval, not one per request; an unknown
 * airline is never remembered, so it is refused every time and one created later is accepted at once.
 */
export function requireKnownAirline(
  verify: TokenVerifier,
  exists: (airlineId: string) => Promise<boolean>,
  ttlMs = KNOWN_AIRLINE_TTL_MS,
  now: () => number = Date.now,
): TokenVerifier {
  const known = new ExpiringMap<string, true>(MAX_ENTRIES, now);
  const pending = new Map<string, Promise<boolean>>();
  const lookup = (airlineId: string): Promise<boolean> => {
    let p = pending.get(airlineId);
    if (!p) {
      // Concurrent requests of one airline share a single query.
      p = exists(airlineId).finally(() => pending.delete(airlineId));
      pending.set(airlineId, p);
    }
    return p;
  };
  return async (token) => {
    const principal = await verify(token);
    const id = principal.airline_id;
    if (known.get(id)) return principal;
    if (!(await lookup(id))) throw new InvalidTokenError("the token's airline does not exist");
    known.set(id, true, now() + ttlMs);
    return principal;
  };
}

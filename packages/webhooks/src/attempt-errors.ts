/*
 * What an airline reads of a failed webhook attempt (an endpoint's deliveries): a stable phrase per kind of
 * failure, never a host name or an address. Node's errors name them ("getaddrinfo ENOTFOUND <name>",
 * "connect ECONNREFUSED <address>:<port>"), and so does the refusal of a private target: read back through
 * the deliveries of an endpoint pointed at an internal name, they would map the deployment's network. The
 * worker's log has the full error.
 */

/**
 * A name that resolves to an address the policy refuses, or to none. One phrase for both: two would tell an
 * airline which internal names exist.
 */
export const UNREACHABLE_NAME = 'target refused: its host name does not resolve to a public address';

/**
 * An attempt that could not be signed: the endpoint's signing secret does not open with this WEBHOOK_SECRET_KEY
 * (sealed under another key, or a lost one). Nothing was sent; rotating the secret is the airline's fix.
 */
export const SECRET_UNAVAILABLE =
  "secret unavailable: the endpoint's signing secret cannot be read; rotate it (POST …/rotate-secret)";

const PHRASES: Record<string, string> = {
  EWEBHOOKTARGET: UNREACHABLE_NAME,
  ENOTFOUND: UNREACHABLE_NAME,
  EAI_AGAIN: UNREACHABLE_NAME,
  EAI_FAIL: UNREACHABLE_NAME,
  ENODATA: UNREACHABLE_NAME,
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The airline's phrase for an error of a webhook request (TLS and others: their code, never their message). */
export function attemptErrorOf(err: { code?: unknown }): string {
  const code = typeof err.code === 'string' ? err.code : '';
  const phrase = PHRASES[code];
  if (phrase) return phrase;
  return /^[A-Z][A-Z0-9_]*$/.test(code) ? `connection failed (${code})` : 'connection failed';
}

/**
 * A stored attempt error as the airline reads it. Attempts recorded before errors were phrased carry Node's
 * wording (and the refusal's, with the resolved address): they read as their phrase.
 */
export function visibleAttemptError(stored: string | null): string | null {
  if (stored === null) return null;
  if (stored.startsWith('webhook target refused: ')) return UNREACHABLE_NAME;
  const node = /^(?:getaddrinfo|connect|read|write) ([A-Z][A-Z0-9_]*)\b/.exec(stored);
  return node ? attemptErrorOf({ code: node[1] }) : stored;
}

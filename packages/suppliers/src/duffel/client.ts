/**
 * The Duffel API client (`@duffel/api`) and the mapping of its failures onto `SupplierError`, shared by the
 * Duffel adapters (flights, stays). The client has no timeout and no retries: `duffelCall` adds the deadline,
 * and retries stay with the caller, who knows whether the call created something.
 */
import { Duffel, DuffelError } from '@duffel/api';
import { SupplierError, SupplierErrorCode } from '../errors';

export interface DuffelClientOptions {
  /** A Duffel access token, `duffel_test_…` or `duffel_live_…`. */
  token: string;
  /** e.g. `https://api.duffel.com/` (the default) or a simulation such as `http://127.0.0.1:4100/duffel/`. */
  basePath?: string;
}

export interface DuffelCallOptions {
  timeoutMs: number;
  /** The call creates something (an order, a confirmed cancellation): a timeout or 5xx leaves its outcome unknown. */
  creates?: boolean;
}

/** The client resolves paths (`air/offers`) against basePath, so a base with a path needs its trailing slash. */
export function createDuffelClient({ token, basePath }: DuffelClientOptions): Duffel {
  const base = basePath === undefined ? undefined : basePath.endsWith('/') ? basePath : `${basePath}/`;
  return new Duffel({ token, ...(base === undefined ? {} : { basePath: base }), source: 'crew-travel' });
}

/** Whether a token is a live one (real money), from Duffel's token prefixes. */
export function isLiveToken(token: string): boolean {
  return token.startsWith('duffel_live_');
}

/** Anything shaped like a Duffel token is cut from text we put in errors, whatever its origin. */
const TOKEN_PATTERN = /duffel_(?:test|live)_[A-Za-z0-9_\-=.+/]*/g;

export function redactTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, 'duffel_[redacted]');
}

/** Duffel error codes that the engine branches on, by our name; any other code goes through upper-snaked. */
const CODE_MAP: Record<string, string> = {
  offer_no_longer_available: SupplierErrorCode.OFFER_EXPIRED,
  offer_expired: SupplierErrorCode.OFFER_EXPIRED,
  expired_offer: SupplierErrorCode.OFFER_EXPIRED,
  insufficient_balance: SupplierErrorCode.INSUFFICIENT_BALANCE,
  balance_insufficient: SupplierErrorCode.INSUFFICIENT_BALANCE,
  not_found: SupplierErrorCode.NOT_FOUND,
};

const upperSnake = (code: string) =>
  code
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();

/** Longest pause a rate limit may ask of us; Duffel's windows are a minute. */
const MAX_PAUSE_MS = 600_000;
/** A 429 that says nothing of when to come back. */
const DEFAULT_PAUSE_MS = 1000;

/**
 * Milliseconds until a rate-limit window resets. Duffel's `ratelimit-reset` is an HTTP date (the instant the
 * window resets); seconds (delta or epoch) and `retry-after` are accepted too, so a format change still paces us.
 */
export function rateLimitPauseMs(headers: { get(name: string): string | null } | undefined, now = Date.now()): number {
  for (const name of ['retry-after', 'ratelimit-reset']) {
    const raw = headers?.get(name)?.trim();
    if (!raw) continue;
    let ms: number;
    if (/^\d+(\.\d+)?$/.test(raw)) {
      const n = Number(raw);
      ms = n > 1_000_000_000 ? n * 1000 - now : n * 1000;
    } else {
      ms = Date.parse(raw) - now;
    }
    if (Number.isFinite(ms)) return Math.min(MAX_PAUSE_MS, Math.max(0, Math.round(ms)));
  }
  return DEFAULT_PAUSE_MS;
}

interface DuffelErrorLike {
  status?: number | undefined;
  meta?: { status?: number; request_id?: string } | undefined;
  errors?: Array<{ code?: string; title?: string; message?: string }> | undefined;
  headers?: { get(name: string): string | null } | undefined;
}

function isDuffelError(err: unknown): err is DuffelErrorLike {
  if (err instanceof DuffelError) return true;
  return typeof err === 'object' && err !== null && 'headers' in err && ('errors' in err || 'meta' in err);
}

/** Network failures that prove the request never reached Duffel (nothing can have been created). */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function networkCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; errno?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.errno ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps one failure of a Duffel call; exported for the adapters that inspect errors themselves. */
export function toSupplierError(
  operation: string,
  err: unknown,
  options: Pick<DuffelCallOptions, 'creates'> = {},
): SupplierError {
  if (err instanceof SupplierError) return err;
  const creates = options.creates ?? false;
  if (isDuffelError(err)) {
    const status = err.status ?? err.meta?.status;
    const first = err.errors?.[0];
    const text = redactTokens(first?.message ?? first?.title ?? `HTTP ${status ?? 'error'}`);
    const requestId = err.meta?.request_id ? ` (request ${err.meta.request_id})` : '';
    const message = `${operation}: ${text}${requestId}`;
    const base = { operation, ...(status === undefined ? {} : { status }) };
    if (status === 429) {
      const code = first?.code ? upperSnake(first.code) : 'RATE_LIMITED';
      // The airline's own token is paced, not the service: only that airline's Duffel lane waits.
      return new SupplierError('transient', code, message, {
        ...base,
        retryAfterMs: rateLimitPauseMs(err.headers),
        supplier: 'DUFFEL',
      });
    }
    if (status === undefined || status >= 500 || status === 408) {
      return new SupplierError('transient', SupplierErrorCode.SERVER_ERROR, message, {
        ...base,
        outcomeUnknown: creates,
      });
    }
    const duffelCode = first?.code ?? (status === 404 ? 'not_found' : 'refused');
    const code =
      CODE_MAP[duffelCode] ??
      (status === 404 ? SupplierErrorCode.NOT_FOUND : upperSnake(duffelCode) || SupplierErrorCode.REFUSED);
    return new SupplierError('refusal', code, message, {
      ...base,
      details: [{ field: 'duffel_code', issue: duffelCode }],
    });
  }
  const netCode = networkCode(err);
  if (netCode !== undefined) {
    const message = `${operation}: Duffel could not be reached (${netCode})`;
    return new SupplierError('transient', SupplierErrorCode.UNREACHABLE, message, {
      operation,
      outcomeUnknown: creates && !NOT_SENT.has(netCode),
    });
  }
  const text = redactTokens(err instanceof Error ? err.message : String(err));
  return new SupplierError(
    'transient',
    SupplierErrorCode.BAD_RESPONSE,
    `${operation}: unreadable answer from Duffel (${text})`,
    { operation, outcomeUnknown: creates },
  );
}

/**
 * Runs one Duffel call under our deadline. The client cannot be aborted, so on timeout its request keeps
 * running in the background: for a call that creates something, the thing may appear after we gave up.
 */
export async function duffelCall<T>(operation: string, run: () => Promise<T>, options: DuffelCallOptions): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(
        new SupplierError(
          'transient',
          SupplierErrorCode.TIMEOUT,
          `${operation}: no answer from Duffel within ${options.timeoutMs} ms`,
          {
            operation,
            outcomeUnknown: options.creates ?? false,
          },
        ),
      );
    }, options.timeoutMs);
  });
  const call = run();
  // A call that loses the race must not surface later as an unhandled rejection.
  call.catch(() => undefined);
  try {
    return await Promise.race([call, deadline]);
  } catch (err) {
    throw toSupplierError(operation, err, options);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a token with one cheap call (one airline). A refused token (401/403) rejects as a refusal; whether
 * it is live comes from its prefix, which Duffel fixes per mode (the airline list carries no mode).
 */
export async function checkDuffelToken(
  basePath: string | undefined,
  token: string,
  timeoutMs = 10_000,
): Promise<{ live_mode: boolean }> {
  const client = createDuffelClient({ token, ...(basePath === undefined ? {} : { basePath }) });
  await duffelCall('duffel.check_token', () => client.airlines.list({ limit: 1 }), { timeoutMs });
  return { live_mode: isLiveToken(token) };
}

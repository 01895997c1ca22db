/**
 * JSON over HTTP to a supplier with Node's global fetch: deadlines, retries of safe calls, and the mapping
 * of every failure into a `SupplierError`.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SupplierError, SupplierErrorCode } from './errors';

export interface HttpSupplierOptions {
  /** e.g. `http://127.0.0.1:4100` (config `SUPPLIER_URL`). */
  baseUrl: string;
  /** Longest wait for the supplier's host to accept a TCP connection (default 2000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait for a whole answer, headers and body, per attempt (default 5000 ms). */
  responseTimeoutMs?: number;
  /** Extra attempts for calls safe to repeat (searches and reads) after a transient failure (default 2). */
  retries?: number;
  /** First pause between attempts; doubled each time (default 100 ms). */
  retryBackoffMs?: number;
}

export interface SupplierCall {
  /** Names the call in errors, e.g. `hotel.book`. */
  operation: string;
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

type Envelope = { error?: { code?: unknown; message?: unknown; details?: unknown } };

/** How long a successful exchange vouches for the host, so the connect check runs rarely. */
const REACHABLE_FOR_MS = 30_000;

/**
 * Global fetch does not expose its connection phase, so the connect timeout is enforced by a TCP connect made
 * before the request — only while the host has not answered recently, so steady traffic pays nothing. A host
 * that does not accept the connection in time fails the call fast instead of at the response deadline. The
 * request waits for it: aborting fetch does not end fetch's own connection attempt, so a request sent beside the
 * check to a host that never accepts kept a socket connecting after the call had failed (until the kernel gave
 * up), and a process stopping then waited for it.
 */
class ConnectCheck {
  private vouchedUntil = 0;
  /** Concurrent calls share one connect attempt. */
  private pending: Promise<void> | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  /** Resolves once connected (or when recently vouched for); rejects with the reason the connect failed. */
  run(): Promise<void> {
    if (Date.now() < this.vouchedUntil) return Promise.resolve();
    this.pending ??= this.connect().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port });
      const timer = setTimeout(() => fail(new Error(`no TCP connection within ${this.timeoutMs} ms`)), this.timeoutMs);
      timer.unref();
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      socket.once('error', fail);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.destroy();
        resolve();
      });
    });
  }

  /** The host answered recently: no check is needed. */
  vouched(): boolean {
    return Date.now() < this.vouchedUntil;
  }

  vouch(): void {
    this.vouchedUntil = Date.now() + REACHABLE_FOR_MS;
  }

  doubt(): void {
    this.vouchedUntil = 0;
  }
}

export class SupplierHttp {
  private readonly baseUrl: string;
  private readonly responseTimeoutMs: number;
  private readonly retries: number;
  private readonly retryBackoffMs: number;
  private readonly connectCheck: ConnectCheck;

  constructor(options: HttpSupplierOptions) {
    const base = new URL(options.baseUrl);
    this.baseUrl = base.href.replace(/\/+$/, '');
    this.responseTimeoutMs = options.responseTimeoutMs ?? 5000;
    this.retries = options.retries ?? 2;
    this.retryBackoffMs = options.retryBackoffMs ?? 100;
    const port = Number(base.port) || (base.protocol === 'https:' ? 443 : 80);
    this.connectCheck = new ConnectCheck(base.hostname.replace(/^\[|\]$/g, ''), port, options.connectTimeoutMs ?? 2000);
  }

  /**
   * One call; GETs (searches and reads) are retried with backoff on transient failures. Mutations are
   * never retried here: the caller's reference makes a later retry safe, and the engine decides when.
   * `nullOn404` turns a 404 into null (a read of something that does not exist).
   */
  async call<T>(call: SupplierCall, nullOn404: true): Promise<T | null>;
  async call<T>(call: SupplierCall, nullOn404?: false): Promise<T>;
  async call<T>(call: SupplierCall, nullOn404 = false): Promise<T | null> {
    const attempts = call.method === 'GET' ? this.retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt<T>(call, nullOn404);
      } catch (err) {
        // A supplier pacing us is not retried here: the caller's lane waits (Retry-After) instead.
        if (!(err instanceof SupplierError) || !err.transient || err.rateLimited || attempt >= attempts) throw err;
        await sleep(this.retryBackoffMs * 2 ** (attempt - 1));
      }
    }
  }

  private async attempt<T>(call: SupplierCall, nullOn404: boolean): Promise<T | null> {
    const { status, text, retryAfter } = await this.exchange(call);
    if (status >= 200 && status < 300) {
      if (text === '') return null;
      try {
        return JSON.parse(text) as T;
      } catch (cause) {
        throw new SupplierError(
          'transient',
          SupplierErrorCode.BAD_RESPONSE,
          `${call.operation}: the supplier answered ${status} with a body that is not JSON`,
          {
            operation: call.operation,
            status,
            cause,
          },
        );
      }
    }
    if (status === 404 && nullOn404) return null;
    throw this.statusError(call, status, text, retryAfter);
  }

  /** Sends the request and reads the whole answer within the deadlines; network failures become transient errors. */
  private async exchange(call: SupplierCall): Promise<{ status: number; text: string; retryAfter: string | null }> {
    const url = new URL(this.baseUrl + call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const connectFailed = new AbortController();
    const signal = AbortSignal.any([AbortSignal.timeout(this.responseTimeoutMs), connectFailed.signal]);
    try {
      if (!this.connectCheck.vouched()) await this.connected(signal, connectFailed);
      const res = await fetch(url, {
        method: call.method,
        headers:
          call.body === undefined
            ? { accept: 'application/json' }
            : { accept: 'application/json', 'content-type': 'application/json' },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal,
      });
      const text = await res.text();
      this.connectCheck.vouch();
      return { status: res.status, text, retryAfter: res.headers.get('retry-after') };
    } catch (err) {
      this.connectCheck.doubt();
      throw this.networkError(call, signal, connectFailed.signal, err);
    }
  }

  /**
   * Resolves once the host accepted a connection; rejects at the call's deadline, or aborts `connectFailed` with why
   * it did not.
   */
  private connected(signal: AbortSignal, connectFailed: AbortController): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      this.connectCheck
        .run()
        .then(resolve, (cause: unknown) => {
          connectFailed.abort(cause);
          reject(cause instanceof Error ? cause : new Error(String(cause)));
        })
        .finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  private networkError(
    call: SupplierCall,
    signal: AbortSignal,
    connectSignal: AbortSignal,
    err: unknown,
  ): SupplierError {
    const info = { operation: call.operation };
    if (connectSignal.aborted) {
      const cause: unknown = connectSignal.reason;
      return new SupplierError(
        'transient',
        SupplierErrorCode.UNREACHABLE,
        `${call.operation}: cannot connect to the supplier (${describe(cause)})`,
        { ...info, cause },
      );
    }
    if (signal.aborted) {
      return new SupplierError(
        'transient',
        SupplierErrorCode.TIMEOUT,
        `${call.operation}: no answer from the supplier within ${this.responseTimeoutMs} ms`,
        { ...info, cause: err },
      );
    }
    const cause = (err as { cause?: unknown })?.cause ?? err;
    return new SupplierError(
      'transient',
      SupplierErrorCode.UNREACHABLE,
      `${call.operation}: the supplier could not be reached (${describe(cause)})`,
      { ...info, cause },
    );
  }

  /** 5xx, 408 and 429 are transient; any other refusal status is the supplier saying no. */
  private statusError(
    call: SupplierCall,
    status: number,
    text: string,
    retryAfter: string | null = null,
  ): SupplierError {
    const envelope = parseEnvelope(text);
    const transient = status >= 500 || status === 408 || status === 429;
    const fallback = transient
      ? SupplierErrorCode.SERVER_ERROR
      : status === 404
        ? SupplierErrorCode.NOT_FOUND
        : SupplierErrorCode.REFUSED;
    const code =
      typeof envelope?.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(envelope.code) ? envelope.code : fallback;
    const message = typeof envelope?.message === 'string' ? envelope.message : `HTTP ${status}`;
    const details = Array.isArray(envelope?.details)
      ? envelope.details.filter(
          (d: { field?: unknown; issue?: unknown } | null): d is { field: string; issue: string } =>
            typeof d?.field === 'string' && typeof d?.issue === 'string',
        )
      : [];
    // 429 always asks us to slow down (1 s when it does not say how long); 503 only when it says how long.
    const pause = parseRetryAfter(retryAfter);
    const retryAfterMs = status === 429 ? (pause ?? 1000) : status === 503 && pause !== undefined ? pause : undefined;
    return new SupplierError(transient ? 'transient' : 'refusal', code, `${call.operation}: ${message}`, {
      operation: call.operation,
      status,
      details,
      retryAfterMs,
    });
  }
}

/** Retry-After as delay-seconds or an HTTP date, in ms (at most 10 minutes); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const v = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(600_000, Math.max(0, Math.round(ms)));
}

function parseEnvelope(text: string): Envelope['error'] | undefined {
  try {
    return (JSON.parse(text) as Envelope)?.error;
  } catch {
    return undefined;
  }
}

function describe(cause: unknown): string {
  const code = (cause as { code?: unknown })?.code;
  if (typeof code === 'string') return code;
  return cause instanceof Error ? cause.message : String(cause);
}

/** One HTTP attempt of a webhook delivery: signed the Standard Webhooks way, never redirected, SSRF-guarded. */
import { type Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { attemptErrorOf, guardedLookup, refusedUrl, type TargetPolicy } from '@crew/webhooks';

export interface AttemptResult {
  ok: boolean;
  response_code: number | null;
  /** What the airline reads (the attempt's record): a stable phrase, no host name or address. */
  error: string | null;
  /** The error as Node gave it, for the worker's log only. */
  detail?: string;
  duration_ms: number;
}

/** The Standard Webhooks headers of one request; during a rotation grace period both secrets sign (space-separated). */
export function signatureHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  const signature = secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' ');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

/**
 * POSTs once: a 2xx within the timeout is a success; a 3xx is a failure (redirects are never followed); the
 * resolved address is checked when the socket connects (SSRF). A failed request's error is recorded as its
 * phrase (attemptErrorOf), Node's message kept in `detail`.
 */
export function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  policy: TargetPolicy,
  agent?: HttpAgent,
): Promise<AttemptResult> {
  const started = Date.now();
  const done = (r: Omit<AttemptResult, 'duration_ms'>): AttemptResult => ({ ...r, duration_ms: Date.now() - started });
  const refused = refusedUrl(policy, url);
  if (refused) return Promise.resolve(done({ ok: false, response_code: null, error: `target refused: ${refused}` }));
  return new Promise((resolve) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    let timedOut = false;
    const failed = (code: number | null, err: Error) =>
      finish({
        ok: false,
        response_code: code,
        error: timedOut ? `no answer within ${timeoutMs} ms` : attemptErrorOf(err as NodeJS.ErrnoException),
        detail: err.message,
      });
    const finish = (r: Omit<AttemptResult, 'duration_ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(r));
    };
    const req = send(
      u,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'CrewTravel-Webhooks/1',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
        // A drain's keep-alive agent (one socket, reused for the endpoint's backlog); its connections are made
        // through the guarded lookup like any other.
        ...(agent ? { agent } : { agent: false, lookup: guardedLookup(policy) as never }),
      },
      (res: IncomingMessage) => {
        const code = res.statusCode ?? 0;
        // The answer's body is not needed: drained so the socket can close.
        res.resume();
        res.on('end', () =>
          finish({
            ok: code >= 200 && code < 300,
            response_code: code,
            error:
              code >= 300 && code < 400
                ? `redirect (${code}) not followed`
                : code >= 200 && code < 300
                  ? null
                  : `HTTP ${code}`,
          }),
        );
        res.on('error', (err) => failed(code, err));
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => failed(null, err));
    req.end(body);
  });
}

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Job, Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { webhookRepo, type Db } from '@crew/db';
import { guardedLookup, openSecret, parseSecretKey, refusedUrl, type Config, type Logger, type TargetPolicy } from '@crew/platform';
import { WEBHOOK_PRIORITY, webhookDrainJobId, type JobData } from '@crew/queue';
import type { WorkerMetrics } from '../operability/hooks';

export type DrainJob = Job<JobData<'webhooks', 'drain-endpoint'>, void, 'drain-endpoint'>;

export interface AttemptResult {
  ok: boolean;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** The Standard Webhooks headers of one request; during a rotation grace period both secrets sign (space-separated). */
export function signatureHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  const signature = secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' ');
  return { 'webhook-id': eventId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

/**
 * POSTs once: a 2xx within the timeout is a success; a 3xx is a failure (redirects are never followed); the
 * resolved address is checked when the socket connects (SSRF).
 */
export function post(url: string, headers: Record<string, string>, body: string, timeoutMs: number, policy: TargetPolicy, agent?: HttpAgent): Promise<AttemptResult> {
  const started = Date.now();
  const done = (r: Omit<AttemptResult, 'duration_ms'>): AttemptResult => ({ ...r, duration_ms: Date.now() - started });
  const refused = refusedUrl(policy, url);
  if (refused) return Promise.resolve(done({ ok: false, response_code: null, error: `target refused: ${refused}` }));
  return new Promise((resolve) => {
    const u = new URL(url);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
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
        headers: { 'content-type': 'application/json', 'user-agent': 'CrewTravel-Webhooks/1', 'content-length': String(Buffer.byteLength(body)), ...headers },
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
            error: code >= 300 && code < 400 ? `redirect (${code}) not followed` : code >= 200 && code < 300 ? null : `HTTP ${code}`,
          }),
        );
        res.on('error', (err) => finish({ ok: false, response_code: code, error: err.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err) => finish({ ok: false, response_code: null, error: err.message }));
    req.end(body);
  });
}

/**
 * Deliveries read per query while draining an endpoint: small, since the batch is re-read after it, and an urgent
 * delivery written meanwhile overtakes at most this many bulk ones.
 */
const DRAIN_BATCH = 10;

export interface WebhookDelivererDeps {
  db: Db;
  queue: Queue;
  config: Config;
  logger: Logger;
  /** Attempts and event lag (change committed → delivered) for /metrics. */
  metrics?: Pick<WorkerMetrics, 'webhookAttempt'>;
}

/**
 * Delivers webhook events. Deliveries live in Postgres; BullMQ drain jobs (one per endpoint and lane, urgent
 * ones at a higher priority) wake a drainer, which takes the endpoint's lease (per-endpoint concurrency 1) and
 * sends its due deliveries in order: urgent first, then by event sequence. A failure holds the endpoint's queue
 * until its retry is due (order kept). A poll finds due deliveries (retries, events written by other
 * processes) and re-queues drains; a dead drainer's lease runs out, so nothing is lost with a killed worker.
 */
export class WebhookDeliverer {
  private readonly key: Buffer;
  private readonly policy: TargetPolicy;
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly deps: WebhookDelivererDeps) {
    this.key = parseSecretKey(deps.config.webhookSecretKey)!;
    this.policy = { allowPrivate: deps.config.webhookAllowPrivateTargets, production: deps.config.nodeEnv === 'production' };
    // Longer than one attempt can take; a killed drainer's endpoint is taken over once it runs out.
    this.leaseMs = deps.config.webhookTimeoutMs + 5_000;
  }

  start(): this {
    this.schedule(0);
    return this;
  }

  /** Look for due deliveries now (after a commit that wrote some). */
  kick(): void {
    if (this.closed) return;
    if (this.polling) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    this.timer = null;
    this.polling = (async () => {
      try {
        const due = await webhookRepo.dueEndpoints(this.deps.db, 500);
        if (due.length) {
          await this.deps.queue.addBulk(
            due.map((d) => ({
              name: 'drain-endpoint',
              data: { endpoint_id: d.endpoint_id },
              opts: { jobId: webhookDrainJobId(d.endpoint_id, d.urgent), priority: d.urgent ? WEBHOOK_PRIORITY.urgent : WEBHOOK_PRIORITY.bulk, removeOnComplete: true, removeOnFail: true },
            })),
          );
        }
      } catch (err) {
        this.deps.logger.warn({ err }, 'webhook poll failed; retried');
      }
    })();
    await this.polling;
    this.polling = null;
    const again = this.again;
    this.again = false;
    this.schedule(again ? 0 : this.deps.config.webhookPollMs);
  }

  /** The signing secrets now: the current one, and the previous one while its grace period runs. */
  private secretsOf(row: { secret_enc: string; previous_secret_enc: string | null; previous_secret_expires_at: Date | null }): string[] {
    const out = [openSecret(this.key, row.secret_enc)];
    if (row.previous_secret_enc && row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > Date.now()) out.push(openSecret(this.key, row.previous_secret_enc));
    return out;
  }

  private backoffMs(attempts: number): number {
    const { webhookBackoffBaseMs: base, webhookBackoffMaxMs: max } = this.deps.config;
    return Math.min(max, base * 2 ** Math.min(30, attempts - 1));
  }

  async process(job: DrainJob): Promise<void> {
    await this.drain(job.data.endpoint_id);
  }

  /** Sends the endpoint's due deliveries in order while it holds the endpoint's lease. */
  async drain(endpointId: string): Promise<void> {
    // One connection for the whole drain: a backlog's queries never queue behind booking tasks for the pool.
    await this.deps.db.connection().execute((conn) => this.drainOn(conn, endpointId));
  }

  private async drainOn(db: Db, endpointId: string): Promise<void> {
    const { logger } = this.deps;
    const claimed = await webhookRepo.claimEndpoint(db, endpointId, this.leaseMs);
    if (!claimed) return;
    const log = logger.child({ endpoint_id: endpointId, airline_id: claimed.airline_id });
    // The endpoint (URL, secrets, enabled) is re-read at most every second, and the lease renewed as often:
    // a backlog drains at a few queries per delivery.
    let endpoint: Awaited<ReturnType<typeof webhookRepo.endpointSecrets>> = undefined;
    let secrets: string[] = [];
    let readAt = 0;
    let failing = claimed.failing_since !== null;
    let recording: Promise<void> = Promise.resolve();
    const agentOptions = { keepAlive: true, maxSockets: 1, lookup: guardedLookup(this.policy) as never };
    const agent = claimed.url.startsWith('https:') ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    try {
      for (;;) {
        if (this.closed) return;
        // A batch at a time, re-read after each batch so that an urgent delivery overtakes within one batch.
        await recording;
        const batch = await webhookRepo.nextDeliveries(db, endpointId, DRAIN_BATCH);
        if (!batch.length) return;
        for (const head of batch) {
          if (this.closed) return;
          if (head.next_attempt_at.getTime() > Date.now()) return;
          if (Date.now() - readAt > 1000) {
            if (readAt) await webhookRepo.renewLease(db, endpointId, this.leaseMs);
            endpoint = await webhookRepo.endpointSecrets(db, endpointId);
            if (!endpoint?.enabled || endpoint.url !== claimed.url) return;
            secrets = this.secretsOf(endpoint);
            readAt = Date.now();
          }
          const body = JSON.stringify({ id: head.event_id, type: head.type, created_at: head.created_at.toISOString(), data: head.data, links: head.links });
          const at = new Date();
          const result = await post(endpoint!.url, signatureHeaders(secrets, head.event_id, at, body), body, this.deps.config.webhookTimeoutMs, this.policy, agent);
          const attempt = { at: at.toISOString(), response_code: result.response_code, error: result.error, duration_ms: result.duration_ms };
          const attempts = head.attempts + 1;
          // The previous success is recorded while this one was sent; at most one record in flight.
          await recording;
          if (result.ok) {
            // Recorded while the next one is sent (a crash in between re-sends it: same webhook-id, at least once).
            recording = webhookRepo.recordAttempt(db, head.delivery_id, attempt, { status: 'SUCCEEDED' });
            if (failing) await webhookRepo.markEndpointHealth(db, endpointId, true);
            failing = false;
            this.deps.metrics?.webhookAttempt(true, head.urgent, (Date.now() - head.created_at.getTime()) / 1000);
            continue;
          }
          this.deps.metrics?.webhookAttempt(false, head.urgent, null);
          const giveUp = attempts >= this.deps.config.webhookMaxAttempts;
          await webhookRepo.recordAttempt(
            db,
            head.delivery_id,
            attempt,
            giveUp ? { status: 'FAILED' } : { status: 'PENDING', nextAttemptAt: new Date(Date.now() + this.backoffMs(attempts)) },
          );
          const failingSince = await webhookRepo.markEndpointHealth(db, endpointId, false);
          failing = true;
          log.info(
            { delivery_id: head.delivery_id, event_id: head.event_id, attempts, response_code: result.response_code, error: result.error, gave_up: giveUp },
            'webhook delivery failed',
          );
          if (failingSince && Date.now() - failingSince.getTime() >= this.deps.config.webhookDisableAfterDays * 86_400_000) {
            const reason = `every attempt failed since ${failingSince.toISOString()} (${this.deps.config.webhookDisableAfterDays} days or more)`;
            if (await db.transaction().execute((trx) => webhookRepo.disableFailingEndpoint(trx, endpointId, reason))) log.warn({ failing_since: failingSince }, 'webhook endpoint disabled');
            this.kick();
            return;
          }
          // The failed delivery holds the ones behind it (order); re-read: it may have been given up.
          break;
        }
      }
    } finally {
      await recording.catch((err) => log.warn({ err }, 'webhook attempt not recorded (it will be sent again)'));
      agent.destroy();
      await webhookRepo.releaseEndpoint(db, endpointId).catch((err) => log.warn({ err }, 'webhook lease release failed (it runs out)'));
      // Deliveries written while this drain held the lease were skipped by the poll: look again now.
      this.kick();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }
}

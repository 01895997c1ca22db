import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { webhookRepo, type Db } from '@crew/db';
import type { Config, Logger } from '@crew/platform';
import { guardedLookup, openSecret, parseSecretKey, SECRET_UNAVAILABLE, type TargetPolicy } from '@crew/webhooks';
import type { WorkerMetrics } from '../operability/hooks';
import { post, signatureHeaders, type AttemptResult } from './attempt';

/**
 * Deliveries read per query while draining an endpoint: small, since the batch is re-read after it, and an urgent
 * delivery written meanwhile overtakes at most this many bulk ones.
 */
const DRAIN_BATCH = 10;

/**
 * A drain's slice: it stops after WEBHOOK_DRAIN_SLICE_MS (5 s by default) or this many attempts, whichever comes
 * first, and its endpoint goes back to the queue behind the drains waiting there (an urgent one first). Without it
 * one endpoint's backlog (an L roster is ~160k events) held a drain slot for as long as it took, and a busy
 * airline's endpoints could hold every slot while another airline's P1 event waited. The count keeps a fast
 * receiver's slices short too; at ~1-4 ms a delivery, going back to the queue (a few ms) costs about 1 % of a
 * drain's time.
 */
const DRAIN_SLICE_DELIVERIES = 500;

export interface EndpointDrainerDeps {
  db: Db;
  config: Config;
  logger: Logger;
  /** Attempts and event lag (change committed → delivered) for /metrics. */
  metrics?: Pick<WorkerMetrics, 'webhookAttempt'>;
  /** Asks the deliverer to look for due deliveries now (a drain ended; an endpoint was disabled). */
  kick(): void;
}

/**
 * Drains one endpoint at a time per call: takes the endpoint's lease (per-endpoint concurrency 1) and sends its due
 * deliveries in order, urgent first, then by event sequence, for one slice (webhookDrainSliceMs / DRAIN_SLICE_DELIVERIES).
 * A failure holds the endpoint's queue until its retry is due (order kept). Runs in the worker's drain thread
 * (`drain.thread.ts`).
 */
export class EndpointDrainer {
  private readonly key: Buffer;
  private readonly policy: TargetPolicy;
  private readonly leaseMs: number;
  private readonly running = new Set<Promise<unknown>>();
  private closed = false;

  constructor(private readonly deps: EndpointDrainerDeps) {
    this.key = parseSecretKey(deps.config.webhookSecretKey)!;
    this.policy = {
      allowPrivate: deps.config.webhookAllowPrivateTargets,
      production: deps.config.nodeEnv === 'production',
    };
    // Longer than one attempt can take; a killed drainer's endpoint is taken over once it runs out.
    this.leaseMs = deps.config.webhookTimeoutMs + deps.config.webhookLeaseMarginMs;
  }

  /**
   * The signing secrets now: the current one, and the previous one while its grace period runs. A secret that
   * does not open with this WEBHOOK_SECRET_KEY (sealed under another key): the current one leaves `secrets` null
   * (each attempt then fails as SECRET_UNAVAILABLE, recorded and backed off), the previous one is left out.
   */
  private secretsOf(row: {
    secret_enc: string;
    previous_secret_enc: string | null;
    previous_secret_expires_at: Date | null;
  }): { secrets: string[] | null; error?: string; previousUnreadable?: string } {
    const open = (sealed: string): { plain: string } | { error: string } => {
      try {
        return { plain: openSecret(this.key, sealed) };
      } catch (err) {
        return { error: (err as Error).message };
      }
    };
    const current = open(row.secret_enc);
    if ('error' in current) return { secrets: null, error: current.error };
    if (
      !row.previous_secret_enc ||
      !row.previous_secret_expires_at ||
      row.previous_secret_expires_at.getTime() <= Date.now()
    )
      return { secrets: [current.plain] };
    const previous = open(row.previous_secret_enc);
    return 'error' in previous
      ? { secrets: [current.plain], previousUnreadable: previous.error }
      : { secrets: [current.plain, previous.plain] };
  }

  private backoffMs(attempts: number): number {
    const { webhookBackoffBaseMs: base, webhookBackoffMaxMs: max } = this.deps.config;
    return Math.min(max, base * 2 ** Math.min(30, attempts - 1));
  }

  /**
   * Sends the endpoint's due deliveries in order while it holds the endpoint's lease, for one slice at most. True when
   * the slice ran out with deliveries left: the caller queues the endpoint again once this drain's job has ended.
   */
  async drain(endpointId: string): Promise<boolean> {
    const running = webhookRepo.onDrainConnection(this.deps.db, (conn) => this.drainOn(conn, endpointId));
    this.running.add(running);
    try {
      return await running;
    } finally {
      this.running.delete(running);
    }
  }

  private async drainOn(db: Db, endpointId: string): Promise<boolean> {
    const { logger } = this.deps;
    const claimed = await webhookRepo.claimEndpoint(db, endpointId, this.leaseMs);
    if (!claimed) return false;
    const sliceEnds = Date.now() + this.deps.config.webhookDrainSliceMs;
    let attempted = 0;
    const log = logger.child({ endpoint_id: endpointId, airline_id: claimed.airline_id });
    // The endpoint (URL, secrets, enabled) is re-read at most every second, and the lease renewed as often:
    // a backlog drains at a few queries per delivery.
    let endpoint: Awaited<ReturnType<typeof webhookRepo.endpointSecrets>> = undefined;
    let secrets: string[] | null = [];
    let secretError: string | undefined;
    let previousWarned = false;
    let readAt = 0;
    let failing = claimed.failing_since !== null;
    let recording: Promise<void> = Promise.resolve();
    const agentOptions = { keepAlive: true, maxSockets: 1, lookup: guardedLookup(this.policy) as never };
    const agent = claimed.url.startsWith('https:') ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    try {
      for (;;) {
        if (this.closed) return false;
        // A batch at a time, re-read after each batch so that an urgent delivery overtakes within one batch.
        await recording;
        const batch = await webhookRepo.nextDeliveries(db, endpointId, DRAIN_BATCH);
        if (!batch.length) return false;
        for (const head of batch) {
          if (this.closed) return false;
          if (head.next_attempt_at.getTime() > Date.now()) return false;
          // The slice is over: the rest waits for the endpoint's next turn (order kept: it starts at this head).
          if (attempted >= DRAIN_SLICE_DELIVERIES || Date.now() >= sliceEnds) return true;
          attempted++;
          if (Date.now() - readAt > 1000) {
            if (readAt) await webhookRepo.renewLease(db, endpointId, this.leaseMs);
            endpoint = await webhookRepo.endpointSecrets(db, endpointId);
            if (!endpoint?.enabled || endpoint.url !== claimed.url) return false;
            const opened = this.secretsOf(endpoint);
            secrets = opened.secrets;
            secretError = opened.error;
            if (opened.previousUnreadable && !previousWarned) {
              previousWarned = true;
              log.warn(
                { detail: opened.previousUnreadable },
                'webhook previous signing secret cannot be opened (another WEBHOOK_SECRET_KEY?); the current one alone signs',
              );
            }
            readAt = Date.now();
          }
          const body = JSON.stringify({
            id: head.event_id,
            type: head.type,
            created_at: head.created_at.toISOString(),
            data: head.data,
            links: head.links,
          });
          const at = new Date();
          // Unsigned, nothing is sent: a failed attempt like any other (recorded, backed off, counted as failing).
          const result: AttemptResult = secrets
            ? await post(
                endpoint!.url,
                signatureHeaders(secrets, head.event_id, at, body),
                body,
                this.deps.config.webhookTimeoutMs,
                this.policy,
                agent,
              )
            : { ok: false, response_code: null, error: SECRET_UNAVAILABLE, detail: secretError, duration_ms: 0 };
          const attempt = {
            at: at.toISOString(),
            response_code: result.response_code,
            error: result.error,
            duration_ms: result.duration_ms,
          };
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
          // One transaction: a reader never sees the failed attempt without the endpoint's failing run.
          const failingSince = await db.transaction().execute(async (trx) => {
            await webhookRepo.recordAttempt(
              trx,
              head.delivery_id,
              attempt,
              giveUp
                ? { status: 'FAILED' }
                : { status: 'PENDING', nextAttemptAt: new Date(Date.now() + this.backoffMs(attempts)) },
            );
            return webhookRepo.markEndpointHealth(trx, endpointId, false);
          });
          failing = true;
          // A secret that does not open is the operator's to see (a WEBHOOK_SECRET_KEY differing between api and worker).
          log[secrets ? 'info' : 'warn'](
            {
              delivery_id: head.delivery_id,
              event_id: head.event_id,
              attempts,
              response_code: result.response_code,
              error: result.error,
              detail: result.detail,
              gave_up: giveUp,
            },
            'webhook delivery failed',
          );
          if (
            failingSince &&
            Date.now() - failingSince.getTime() >= this.deps.config.webhookDisableAfterDays * 86_400_000
          ) {
            const reason = `every attempt failed since ${failingSince.toISOString()} (${this.deps.config.webhookDisableAfterDays} days or more)`;
            if (await db.transaction().execute((trx) => webhookRepo.disableFailingEndpoint(trx, endpointId, reason)))
              log.warn({ failing_since: failingSince }, 'webhook endpoint disabled');
            this.deps.kick();
            return false;
          }
          // Given up with nothing else waiting, the failing run ends: a failure after a quiet spell starts anew.
          if (giveUp && (await webhookRepo.endIdleFailingRun(db, endpointId))) failing = false;
          // The failed delivery holds the ones behind it (order); re-read: it may have been given up.
          break;
        }
      }
    } finally {
      await recording.catch((err) => log.warn({ err }, 'webhook attempt not recorded (it will be sent again)'));
      agent.destroy();
      await webhookRepo
        .releaseEndpoint(db, endpointId)
        .catch((err) => log.warn({ err }, 'webhook lease release failed (it runs out)'));
      // Deliveries written while this drain held the lease were skipped by the poll: look again now.
      this.deps.kick();
    }
  }

  /** Running drains stop after their delivery in flight; resolves when they have. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.running]);
  }
}

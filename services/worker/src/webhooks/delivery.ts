import type { Job, Queue } from 'bullmq';
import { webhookRepo, type Db } from '@crew/db';
import type { Config, Logger } from '@crew/platform';
import { WEBHOOK_PRIORITY, webhookDrainJobId, type JobData } from '@crew/queue';
import type { WorkerMetrics } from '../operability/hooks';
import { DrainThread } from './drain';
import { closeBoundMs } from '../close-bound';

export type DrainJob = Job<JobData<'webhooks', 'drain-endpoint'>, boolean, 'drain-endpoint'>;

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
 * sends its due deliveries in order for one slice (`EndpointDrainer`, on the drain thread); an endpoint with more
 * left is queued again, so no backlog holds a drain slot for long. A poll finds due deliveries (retries, events
 * written by other processes) and re-queues drains; a dead drainer's lease runs out, so nothing is lost with a
 * killed worker.
 */
export class WebhookDeliverer {
  private readonly drains: DrainThread;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly deps: WebhookDelivererDeps) {
    this.drains = new DrainThread({
      config: deps.config,
      logger: deps.logger,
      metrics: deps.metrics,
      kick: () => this.kick(),
      closeDeadlineMs: closeBoundMs(deps.config.shutdownDeadlineMs),
    });
  }

  /** Starts polling, and the drain thread. */
  start(): this {
    this.drains
      .start()
      .catch((err: unknown) =>
        this.deps.logger.error({ err }, 'webhook drain thread did not start; the next drain starts it again'),
      );
    this.schedule(0);
    return this;
  }

  /** Resolves once the drain thread is ready (the worker's start-up waits for it: a broken build fails at boot). */
  ready(): Promise<void> {
    return this.drains.start();
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
              opts: {
                jobId: webhookDrainJobId(d.endpoint_id, d.urgent),
                priority: d.urgent ? WEBHOOK_PRIORITY.urgent : WEBHOOK_PRIORITY.bulk,
                removeOnComplete: true,
                removeOnFail: true,
              },
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

  /**
   * Runs one slice of the endpoint's drain. True when the slice ran out with deliveries left: `drained` queues the
   * endpoint again once the job has ended (before, its job id is still taken and the add would be dropped).
   */
  process(job: DrainJob): Promise<boolean> {
    return this.drains.drain(job.data.endpoint_id);
  }

  /**
   * A drain job ended (the worker's `completed` event: its id is free again). One whose slice ran out goes back to
   * the queue now, at the back of its lane: the drains waiting meanwhile, an urgent one first, run before it.
   */
  drained(more: boolean): void {
    if (more) this.kick();
  }

  /** Stops polling; drains in flight end after their current delivery. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
    await this.drains.close();
  }
}

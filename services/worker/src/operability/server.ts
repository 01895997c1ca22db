import type { Worker } from 'bullmq';
import express, { type Express } from 'express';
import { sql, webhookRepo, type Db } from '@crew/db';
import { errorHandler, fallbackHandler, type Logger } from '@crew/platform';
import { BOOKING_QUEUES, sampleLanes, type Queues } from '@crew/queue';
import { withDeadline } from '@crew/queue';
import { WorkerHealth, type WorkerHealthOptions } from './health';
import type { PromWorkerMetrics } from './metrics';
import { registerQueueMetrics } from '@crew/queue';

export interface WorkerOpsDeps {
  /** The runtime's BullMQ workers. */
  workers: readonly Worker[];
  /** Queues on a non-blocking connection: depth metrics and the stall check. */
  queues: Queues;
  metrics: PromWorkerMetrics;
  db: Db;
  logger: Logger;
  health?: WorkerHealthOptions;
  /** How often the booking lanes are sampled for /metrics (default 15 s). */
  laneSampleMs?: number;
}

export interface WorkerOps {
  app: Express;
  health: WorkerHealth;
  /** Samples the booking lanes and the webhook backlog now (also runs every laneSampleMs). */
  sampleLanes(): Promise<void>;
  /** Stops the lane sampling. */
  stop(): void;
}

function postgresReachable(db: Db, ms = 2000): Promise<boolean> {
  return withDeadline(sql`select 1`.execute(db), ms).then(
    () => true,
    () => false,
  );
}

/**
 * The worker's HTTP side on WORKER_PORT: `/healthz` (liveness: consumers running, none stuck), `/readyz`
 * (that, plus Redis and Postgres answer), `/metrics` (Prometheus). Wires the job-duration and queue-depth
 * metrics to the given workers.
 */
export function createWorkerOps(deps: WorkerOpsDeps): WorkerOps {
  const queueList = Object.values(deps.queues);
  deps.metrics.observeWorkers(deps.workers);
  registerQueueMetrics(deps.metrics.registry, queueList);
  const health = new WorkerHealth(deps.workers, new Map(queueList.map((q) => [q.name, q])), deps.health);
  // Lane depths and ages are sampled periodically, so a scrape never waits on the per-job reads behind them.
  const bookingQueues = BOOKING_QUEUES.map((name) => deps.queues[name]);
  let sampling: Promise<void> | null = null;
  const sample = () =>
    (sampling ??= Promise.all([
      sampleLanes(bookingQueues)
        .then((s) => deps.metrics.setLanes(s))
        .catch((err) => deps.logger.warn({ err }, 'booking lane sampling failed')),
      webhookRepo
        .pendingBacklog(deps.db)
        .then((rows) => deps.metrics.setWebhookBacklog(rows))
        .catch((err) => deps.logger.warn({ err }, 'webhook backlog sampling failed')),
    ])
      .then(() => undefined)
      .finally(() => (sampling = null)));
  const timer = setInterval(() => void sample(), deps.laneSampleMs ?? 15_000);
  timer.unref();
  // The first sample once Redis answers (a sample before that only logs a start-up warning).
  void Promise.all(bookingQueues.map((q) => q.waitUntilReady())).then(sample, () => undefined);

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', async (_req, res) => {
    const report = await health.liveness();
    res.status(report.ok ? 200 : 503).json({ status: report.ok ? 'ok' : 'unhealthy', queues: report.queues });
  });
  app.get('/readyz', async (_req, res) => {
    const [live, postgres] = await Promise.all([health.liveness(), postgresReachable(deps.db)]);
    const checks = { postgres, redis: Object.values(live.queues).every((q) => q.redis), consumers: live.ok };
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks, queues: live.queues });
  });
  app.get('/metrics', async (_req, res, next) => {
    try {
      const body = await deps.metrics.registry.metrics();
      res.type(deps.metrics.registry.contentType).send(body);
    } catch (err) {
      next(err);
    }
  });
  app.use(fallbackHandler([]));
  app.use(errorHandler(deps.logger));
  return {
    app,
    health,
    sampleLanes: sample,
    stop: () => clearInterval(timer),
  };
}

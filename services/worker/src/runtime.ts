import { Worker } from 'bullmq';
import { pipelineRepo, type Db } from '@crew/db';
import type { Config, Logger } from '@crew/platform';
import { closeQueues, createQueues, createRedis, OutboxRelay, type JobData } from '@crew/queue';
import type { Suppliers } from '@crew/suppliers';
import { NO_METRICS, type WorkerMetrics } from './operability/hooks';
import { BookingProcessor } from './bookings/booking.processor';
import { ScheduleProcessor } from './schedules/schedule.processor';

export interface WorkerDeps {
  config: Config;
  db: Db;
  logger: Logger;
  suppliers: Suppliers;
  /** Processing clock (tests pin it). */
  now?: () => Date;
  metrics?: WorkerMetrics;
}

export interface WorkerRuntime {
  relay: OutboxRelay;
  workers: Worker[];
  /** Stops taking jobs, waits for the running ones, then closes Redis. Idempotent. */
  close(): Promise<void>;
}

/** The worker process's consumers: schedules (diff) and bookings (supplier calls), plus the outbox relay. */
export function startWorkerRuntime(deps: WorkerDeps): WorkerRuntime {
  const { config, logger } = deps;
  const producer = createRedis(config.redisUrl);
  const queues = createQueues(producer, config.queuePrefix);
  const relay = new OutboxRelay(deps.db, queues, logger.child({ component: 'outbox-relay' })).start();
  // Workers block on Redis: their connection must never give up on a command (maxRetriesPerRequest null).
  const consumer = createRedis(config.redisUrl, true);
  const common = {
    connection: consumer,
    prefix: config.queuePrefix,
    lockDuration: config.jobLockMs,
    stalledInterval: config.stalledIntervalMs,
    maxStalledCount: 3,
  };
  const metrics = deps.metrics ?? NO_METRICS;
  const schedules = new ScheduleProcessor({ db: deps.db, relay, logger, now: deps.now, metrics });
  const scheduleWorker = new Worker<JobData<'schedules', 'process-schedules'>, void, 'process-schedules'>('schedules', (job, token) => schedules.process(job, token), {
    ...common,
    // Diffing is CPU-bound: two airlines at a time per process; replicas add more.
    concurrency: 2,
  });
  const bookings = new BookingProcessor({ db: deps.db, relay, logger, suppliers: deps.suppliers, metrics, retryDelays: config.autoRetryDelays, now: deps.now });
  const bookingWorker = new Worker<JobData<'bookings', 'execute-booking'>, void, 'execute-booking'>('bookings', (job) => bookings.process(job), {
    ...common,
    // Supplier calls are I/O-bound: many at once per process.
    concurrency: 16,
  });
  const workers = [scheduleWorker as unknown as Worker, bookingWorker as unknown as Worker];
  for (const w of workers) {
    w.on('failed', (job, err) => logger.warn({ queue: w.name, job_id: job?.id, airline_id: (job?.data as { airline_id?: string })?.airline_id, err: err.message }, 'job failed'));
    w.on('error', (err) => logger.error({ queue: w.name, err }, 'worker error'));
  }
  // Safety net for completion checks lost with a dead worker; cheap (one statement).
  const sweep = setInterval(() => {
    pipelineRepo.completeSettledSchedules(deps.db).catch((err) => logger.warn({ err }, 'settled-schedule sweep failed'));
  }, 30_000);
  sweep.unref();
  let closing: Promise<void> | null = null;
  return {
    relay,
    workers,
    close() {
      closing ??= (async () => {
        clearInterval(sweep);
        await Promise.all(workers.map((w) => w.close()));
        await relay.close();
        await closeQueues(queues);
        await producer.quit().catch(() => producer.disconnect());
        await consumer.quit().catch(() => consumer.disconnect());
      })();
      return closing;
    },
  };
}

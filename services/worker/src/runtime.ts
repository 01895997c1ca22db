import { DelayedError, Worker } from 'bullmq';
import { authRepo, idempotencyRepo, scheduleLifecycleRepo, type Db, type DbOrTrx } from '@crew/db';
import { TravellerVault, type Config, type Logger } from '@crew/platform';
import {
  BOOKING_QUEUES,
  closeQueues,
  createQueues,
  createRedis,
  OutboxRelay,
  withDeadline,
  type JobData,
} from '@crew/queue';
import type { SupplierRegistry, Suppliers } from '@crew/suppliers';
import { supplierRegistry } from './bookings/supplier-registry';
import { NO_METRICS, type WorkerMetrics } from './operability/hooks';
import { BookingProcessor, SupplierPaced } from './bookings/booking.processor';
import { ScheduleCompletion } from './schedules/schedule-completion';
import { ScheduleProcessor } from './schedules/schedule.processor';
import { RoomingChannel } from './rooming/rooming.channel';
import { smtpMailer } from './rooming/rooming.mail';
import { WebhookDeliverer } from './webhooks/delivery';
import { purgeWebhookHistory } from './webhooks/purge';
import { AirlineChangeProcessor } from './bookings/airline-change';
import { resendOverdueHolds } from './bookings/overdue-holds';
import { resendOverdueRetries } from './bookings/overdue-retries';
import { CoverageMonitor, emitCoverageAtRisk, type AtRiskLayover } from './roster-coverage/coverage.monitor';
import { ReviewEscalation } from './review-queue/escalation.monitor';
import { InvoiceReconciler } from './invoices/invoice.reconciler';
import { requeueStalledInvoices } from './invoices/stalled-invoices';
import { closeBoundMs } from './close-bound';

/** How long close() waits for a Redis client's QUIT. */
const QUIT_MS = 2_000;

/** The longest a supplier's Retry-After pauses its queue in one go. */
const MAX_PAUSE_MS = 60_000;
/** A schedule's completion check waits this long for more of its items to settle (ScheduleCompletion). */
const COMPLETION_CHECK_MS = 100;
/** How often airline-initiated changes are looked for at Duffel, behind its webhook (a lost or unregistered one). */
const AIRLINE_CHANGE_SWEEP_MS = 15 * 60_000;
/**
 * How often bookings with a recorded PNR beside an order whose answer was lost are looked at (stray-orders.ts): one
 * statement on an almost always empty partial index, so often enough that such a ticket is cancelled within seconds.
 */
const STRAY_ORDER_SWEEP_MS = 5_000;
/** Idempotency keys past their 24 h deleted per sweep (the rest in the next: a backlog never makes one long delete). */
const IDEMPOTENCY_PURGE_BATCH = 5_000;
/**
 * Webhook history past WEBHOOK_RETENTION_DAYS: looked for every 10 minutes (the retention is days), events read
 * 5,000 at a time, at most 20 such steps a pass (a backlog, as after an upgrade, is worked off over several passes).
 */
const WEBHOOK_PURGE_MS = 10 * 60_000;
const WEBHOOK_PURGE = { batch: 5_000, maxBatches: 20 };
/** Refresh tokens of families expired over a day ago deleted per sweep (each token fetched adds one row). */
const REFRESH_TOKEN_PURGE_BATCH = 5_000;

export interface WorkerDeps {
  config: Config;
  db: Db;
  logger: Logger;
  suppliers: Suppliers;
  /** Each airline's ordered suppliers; default: built from the stored settings over `suppliers` as the sandbox. */
  registry?: SupplierRegistry;
  /** Deadline of one call to an airline's Duffel account (default 20 s). */
  duffelTimeoutMs?: number;
  /** Deadline of one call to an airline's Duffel Stays (default 30 s). */
  duffelStaysTimeoutMs?: number;
  /** How long an airline's supplier setting, once read, is reused before an operator's change applies (default 5 s). */
  supplierSettingsTtlMs?: number;
  /** Processing clock (tests pin it). */
  now?: () => Date;
  metrics?: WorkerMetrics;
  /** Period of the airline-change check at Duffel (default 15 minutes; 0: never). */
  airlineChangeSweepMs?: number;
  /** Period of the look-up of orders a failed call made beside a recorded PNR (default 5 s; 0: never). */
  strayOrderSweepMs?: number;
  /** Period of the webhook history purge (default 10 minutes; 0: never). */
  webhookPurgeMs?: number;
  /**
   * The coverage of the next 24 h, recomputed periodically for the /metrics gauges and the coverage.at_risk
   * events (CoverageMonitor; default every 60 s, events to the airlines' subscribed endpoints). Off unless
   * given: the worker process turns it on, the in-process runtimes of tests leave it off.
   */
  coverageMonitor?: { intervalMs?: number; onAtRisk?: (trx: DbOrTrx, layovers: AtRiskLayover[]) => Promise<void> };
  /**
   * The review queue's escalation: action_item.due_soon once per item due soon or overdue, and the queue's
   * /metrics gauges (ReviewEscalation; default every 60 s). Off unless given, as the coverage monitor.
   */
  reviewEscalation?: { intervalMs?: number };
}

export interface WorkerRuntime {
  relay: OutboxRelay;
  workers: Worker[];
  webhooks: WebhookDeliverer;
  /** DIRECT hotels' rooming lists: sends due lists, retries the mail server, expires unanswered lists. */
  rooming: RoomingChannel;
  /** Airline-initiated changes on Duffel orders: the jobs of verified events, and the periodic check. */
  airlineChanges: AirlineChangeProcessor;
  /** The coverage sampling, when `coverageMonitor` turned it on. */
  coverage: CoverageMonitor | null;
  /** The review queue's escalation, when `reviewEscalation` turned it on. */
  review: ReviewEscalation | null;
  /** Orders a failed call made beside a PNR a person recorded since: one pass now (the timer runs them too). */
  strayOrders: { sweep(): Promise<number> };
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
  const webhooks = new WebhookDeliverer({
    db: deps.db,
    queue: queues.webhooks,
    config,
    logger: logger.child({ component: 'webhooks' }),
    metrics,
  }).start();
  // The api seals traveller personal fields with the same key list; the worker opens them.
  const vault = TravellerVault.fromKey(config.supplierCredentialsKey);
  const schedules = new ScheduleProcessor({
    db: deps.db,
    relay,
    logger,
    vault,
    now: deps.now,
    metrics,
    webhookKick: () => webhooks.kick(),
  });
  const scheduleWorker = new Worker<JobData<'schedules', 'process-schedules'>, void, 'process-schedules'>(
    'schedules',
    (job, token) => schedules.process(job, token),
    {
      ...common,
      // Diffing is CPU-bound: two airlines at a time per process; replicas add more.
      concurrency: 2,
    },
  );
  const rooming = new RoomingChannel({
    db: deps.db,
    logger: logger.child({ component: 'rooming-lists' }),
    mailer: smtpMailer(config.smtpUrl, config.smtpFrom),
    config,
    now: deps.now,
  }).start();
  // A schedule's completion is checked once per COMPLETION_CHECK_MS however many of its items settle meanwhile.
  const completion = new ScheduleCompletion({
    check: (id) => scheduleLifecycleRepo.completeIfSettled(deps.db, id),
    logger,
    delayMs: COMPLETION_CHECK_MS,
  });
  const bookings = new BookingProcessor({
    db: deps.db,
    relay,
    logger,
    suppliers: deps.suppliers,
    registry:
      deps.registry ??
      supplierRegistry(deps.db, config, deps.suppliers, {
        flightsMs: deps.duffelTimeoutMs,
        staysMs: deps.duffelStaysTimeoutMs,
        settingsTtlMs: deps.supplierSettingsTtlMs,
      }),
    callbackBase: config.publicApiUrl,
    vault,
    metrics,
    retryDelays: config.autoRetryDelays,
    now: deps.now,
    webhookKick: () => webhooks.kick(),
    rooming,
    completion,
  });
  // One worker per supplier queue (hotel tasks on `bookings`, flight tasks on `flight-bookings`): a supplier
  // that asks us to slow down pauses only its own queue, for every worker process (the limiter key is in Redis).
  const bookingWorkers = BOOKING_QUEUES.map((name) => {
    const worker: Worker<JobData<'bookings', 'execute-booking'>, void, 'execute-booking'> = new Worker(
      name,
      async (job, token) => {
        try {
          await bookings.process(job);
        } catch (err) {
          if (!(err instanceof SupplierPaced)) throw err;
          if (err.lane) {
            // One airline's own supplier account is pacing us: only its tasks wait; the queue goes on.
            logger.info(
              { queue: name, job_id: job.id, ...err.lane, pause_ms: err.retryAfterMs },
              "an airline's supplier lane is paused; its task waits",
            );
            await job.moveToDelayed(Date.now() + Math.min(MAX_PAUSE_MS, Math.max(1, err.retryAfterMs)), token);
            throw new DelayedError();
          }
          logger.info(
            { queue: name, job_id: job.id, pause_ms: err.retryAfterMs },
            'supplier asked to slow down; its queue pauses',
          );
          // Back to its lane (same priority, front of its tie), not counted as an attempt.
          // At most a minute at a time: a supplier still pacing us answers the next try with another pause, and
          // the worker's liveness (no progress for 5 minutes with a backlog) never mistakes a pause for a hang.
          const pauseMs = Math.min(MAX_PAUSE_MS, Math.max(1, err.retryAfterMs));
          await worker.rateLimit(pauseMs);
          // A task put back into a priority lane leaves no wake-up marker, so idle workers would sleep out their
          // drainDelay after the pause; a delayed marker wakes them when it ends (BullMQ's own delayed-job marker).
          await producer.zadd(`${config.queuePrefix}:${name}:marker`, Date.now() + pauseMs, '1');
          throw Worker.RateLimitError();
        }
      },
      {
        ...common,
        // Supplier calls are I/O-bound: many at once per process (BOOKING_CONCURRENCY).
        concurrency: config.bookingConcurrency,
        // The manual pause above needs a limiter; without SUPPLIER_RATE_LIMIT_PER_SECOND it never binds.
        limiter: { max: config.supplierRateLimitPerSecond || 1_000_000, duration: 1000 },
      },
    );
    return worker;
  });
  // Webhook drains: one endpoint per job (its lease keeps it to one drainer anywhere); urgent ones first (job priority).
  // A job sends one slice of its endpoint's backlog; one that left deliveries is queued again once it has ended.
  const webhookWorker = new Worker<JobData<'webhooks', 'drain-endpoint'>, boolean, 'drain-endpoint'>(
    'webhooks',
    (job) => webhooks.process(job),
    {
      ...common,
      concurrency: config.webhookConcurrency,
    },
  );
  webhookWorker.on('completed', (_job, more) => webhooks.drained(more));
  const airlineChanges = new AirlineChangeProcessor({
    db: deps.db,
    config,
    logger,
    webhookKick: () => webhooks.kick(),
    now: deps.now,
  });
  const changeWorker = new Worker<JobData<'supplier-changes', 'airline-change'>, void, 'airline-change'>(
    'supplier-changes',
    async (job) => {
      const outcome = await airlineChanges.process(job.data);
      logger.info(
        { queue: 'supplier-changes', job_id: job.id, airline_id: job.data.airline_id, outcome },
        'airline-initiated change job done',
      );
    },
    { ...common, concurrency: 4 },
  );
  const invoices = new InvoiceReconciler({
    db: deps.db,
    logger: logger.child({ component: 'invoices' }),
    webhookKick: () => webhooks.kick(),
  });
  // Matching is CPU-bound (an invoice of 100k lines is a second or two): one invoice at a time per process.
  const invoiceWorker = new Worker<JobData<'invoices', 'reconcile-invoice'>, void, 'reconcile-invoice'>(
    'invoices',
    (job) => invoices.process(job),
    { ...common, concurrency: 1 },
  );
  // A job failed for good without process() settling it (stalled too often: BullMQ fails it without calling the
  // processor) must not leave its invoice RECONCILING; the sweep below records what this misses.
  invoiceWorker.on('failed', (job, err) => {
    if (job)
      invoices
        .jobFailed(job, err)
        .catch((e) => logger.warn({ err: e, job_id: job.id }, 'invoice failure not recorded; the sweep will'));
  });
  const workers = [
    scheduleWorker as unknown as Worker,
    ...(bookingWorkers as unknown as Worker[]),
    webhookWorker as unknown as Worker,
    changeWorker as unknown as Worker,
    invoiceWorker as unknown as Worker,
  ];
  for (const w of workers) {
    w.on('failed', (job, err) =>
      logger.warn(
        {
          queue: w.name,
          job_id: job?.id,
          airline_id: (job?.data as { airline_id?: string })?.airline_id,
          err: err.message,
        },
        'job failed',
      ),
    );
    w.on('error', (err) => logger.error({ queue: w.name, err }, 'worker error'));
  }
  // Safety nets for completion checks lost with a dead worker, hold timers, automatic retries and invoice jobs lost
  // with Redis, the purge of Idempotency-Keys past their 24 h (only a reuse of the same key deleted them otherwise) and
  // of the auth service's refresh tokens whose family expired over a day ago (nothing else deletes them); cheap (one
  // statement each when there is nothing to do).
  const sweep = setInterval(() => {
    idempotencyRepo
      .purgeIdempotencyKeys(deps.db, IDEMPOTENCY_PURGE_BATCH)
      .catch((err) => logger.warn({ err }, 'idempotency-key purge failed'));
    authRepo
      .purgeRefreshTokens(deps.db, REFRESH_TOKEN_PURGE_BATCH)
      .catch((err) => logger.warn({ err }, 'refresh-token purge failed'));
    scheduleLifecycleRepo
      .completeSettledSchedules(deps.db)
      .catch((err) => logger.warn({ err }, 'settled-schedule sweep failed'));
    resendOverdueHolds({ db: deps.db, relay, now: deps.now })
      .then((n) => n > 0 && logger.warn({ count: n }, 'held cancellations past their hold: timer sent again'))
      .catch((err) => logger.warn({ err }, 'overdue-hold sweep failed'));
    resendOverdueRetries({ db: deps.db, relay, now: deps.now })
      .then((n) => n > 0 && logger.warn({ count: n }, 'automatic retries past their time: job sent again'))
      .catch((err) => logger.warn({ err }, 'overdue-retry sweep failed'));
    requeueStalledInvoices({ db: deps.db, relay, queue: queues.invoices })
      .then(
        (r) =>
          r.requeued + r.failed > 0 &&
          logger.warn(r, 'invoices RECONCILING without a live job: queued again or failed'),
      )
      .catch((err) => logger.warn({ err }, 'stalled-invoice sweep failed'));
  }, 30_000);
  sweep.unref();
  let closing: Promise<void> | null = null;
  // Webhook events and deliveries past their retention; one pass at a time, each going on where the last stopped.
  let webhookPurge: Promise<unknown> | null = null;
  let webhookPurgeFrom = 0;
  const webhookPurgeMs = deps.webhookPurgeMs ?? WEBHOOK_PURGE_MS;
  const webhookPurgeTimer =
    webhookPurgeMs > 0
      ? setInterval(() => {
          webhookPurge ??= purgeWebhookHistory(deps.db, config.webhookRetentionDays, {
            ...WEBHOOK_PURGE,
            afterSeq: webhookPurgeFrom,
            stopped: () => closing !== null,
          })
            .then((r) => {
              webhookPurgeFrom = r.next;
              if (r.deliveries + r.events > 0)
                logger.info(
                  { deliveries: r.deliveries, events: r.events },
                  'webhook history past its retention deleted',
                );
            })
            .catch((err) => logger.warn({ err }, 'webhook history purge failed'))
            .finally(() => (webhookPurge = null));
        }, webhookPurgeMs)
      : null;
  webhookPurgeTimer?.unref();
  // Orders a failed call made beside a PNR a person recorded: one pass at a time, each claiming its bookings.
  let strayPass: Promise<number> | null = null;
  const strayOrders = {
    sweep: () => (strayPass ??= bookings.sweepStrayOrders().finally(() => (strayPass = null))),
  };
  const strayOrderSweepMs = deps.strayOrderSweepMs ?? STRAY_ORDER_SWEEP_MS;
  const strayTimer =
    strayOrderSweepMs > 0
      ? setInterval(() => {
          if (!closing) strayOrders.sweep().catch((err) => logger.warn({ err }, 'stray-order sweep failed'));
        }, strayOrderSweepMs)
      : null;
  strayTimer?.unref();
  // One pass at a time: a slow Duffel never stacks passes up.
  let changeSweep: Promise<unknown> | null = null;
  const changeSweepMs = deps.airlineChangeSweepMs ?? AIRLINE_CHANGE_SWEEP_MS;
  const changeTimer =
    changeSweepMs > 0
      ? setInterval(() => {
          changeSweep ??= airlineChanges
            .sweep()
            .catch((err) => logger.warn({ err }, 'airline-change check failed'))
            .finally(() => (changeSweep = null));
        }, changeSweepMs)
      : null;
  changeTimer?.unref();
  const coverage = deps.coverageMonitor
    ? new CoverageMonitor({
        db: deps.db,
        logger,
        report: (f, at) => metrics.setCoverage(f, at),
        onAtRisk: deps.coverageMonitor.onAtRisk ?? emitCoverageAtRisk,
        intervalMs: deps.coverageMonitor.intervalMs,
      }).start()
    : null;
  const review = deps.reviewEscalation
    ? new ReviewEscalation({
        db: deps.db,
        logger,
        report: (f, at) => metrics.setReviewQueue(f, at),
        now: deps.now,
        intervalMs: deps.reviewEscalation.intervalMs,
      }).start()
    : null;
  return {
    relay,
    workers,
    webhooks,
    rooming,
    airlineChanges,
    coverage,
    review,
    strayOrders,
    close() {
      closing ??= (async () => {
        const bound = closeBoundMs(config.shutdownDeadlineMs);
        // First stop taking work: BullMQ's close fetches no more jobs from now on and resolves once the active
        // ones have ended. It can wait forever on a blocking client stuck reconnecting (taskforcesh/bullmq#4656):
        // after the bound, below the process's deadline, its connections are dropped and its jobs left to stall
        // (another worker takes them after the lock).
        const stopped = Promise.all(
          workers.map((w) =>
            withDeadline(w.close(), bound).catch(() => {
              logger.warn({ queue: w.name }, 'worker did not close within its bound; its connections are dropped');
              void w.disconnect().catch(() => undefined);
            }),
          ),
        );
        airlineChanges.stop();
        clearInterval(sweep);
        if (changeTimer) clearInterval(changeTimer);
        if (strayTimer) clearInterval(strayTimer);
        if (webhookPurgeTimer) clearInterval(webhookPurgeTimer);
        // The periodic passes end between units of work (a Duffel call, a purge step, an airline's coverage, a batch
        // of review items); the stray-order pass with its claimed bookings (their lease hands what it leaves to the
        // next process); the webhook drains in flight after their current delivery. No pass starts from now on. All
        // within the same bound: what is left, the next process does.
        await withDeadline(
          Promise.all([
            changeSweep,
            strayPass?.catch(() => 0),
            webhookPurge,
            coverage?.close(),
            review?.close(),
            webhooks.close(),
          ]),
          bound,
        ).catch(() =>
          logger.warn('periodic passes or webhook drains did not end within the close bound; left to the next process'),
        );
        await stopped;
        await completion.close();
        await rooming.close();
        await relay.close();
        await closeQueues(queues);
        // A client still reconnecting would hold QUIT until Redis answers: bounded, then dropped.
        await withDeadline(producer.quit(), QUIT_MS).catch(() => producer.disconnect());
        await withDeadline(consumer.quit(), QUIT_MS).catch(() => consumer.disconnect());
      })();
      return closing;
    },
  };
}

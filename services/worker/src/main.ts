import { createServer, type Server } from 'node:http';
import type { Redis } from 'ioredis';
import { openDatabase, type Db } from '@crew/db';
import { checkSharedKeys, closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import { closeQueues, createQueues, createRedis, type Queues } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { PromWorkerMetrics } from './operability/metrics';
import { createWorkerOps } from './operability/server';
import { startWorkerRuntime, type WorkerRuntime } from './runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.logLevel);
  checkSharedKeys(config, logger);
  // Assigned as start-up goes, read by the shutdown steps installed before: `const` would leave them in the
  // temporal dead zone for a SIGTERM during start-up.
  /* eslint-disable prefer-const */
  let db: Db | undefined;
  let runtime: WorkerRuntime | undefined;
  let server: Server | undefined;
  let queues: Queues | undefined;
  let redis: Redis | undefined;
  let ops: ReturnType<typeof createWorkerOps> | undefined;
  let metrics: PromWorkerMetrics | undefined;
  /* eslint-enable prefer-const */
  // Installed first: a SIGTERM at any moment of start-up closes whatever exists by then, in this order.
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'workers', run: async () => runtime?.close() },
    { name: 'http', run: async () => (ops?.stop(), server && closeServer(server, 2000)) },
    { name: 'queues', run: async () => queues && closeQueues(queues) },
    { name: 'redis', run: async () => void (await redis?.quit().catch(() => redis?.disconnect())) },
    { name: 'postgres', run: async () => db?.destroy() },
    { name: 'metrics', run: async () => metrics?.close() },
  ]);
  db = await openDatabase(config.databaseUrl, { applicationName: 'crew-worker', max: 12 });
  metrics = new PromWorkerMetrics();
  runtime = startWorkerRuntime({
    config,
    db,
    logger,
    suppliers: createSandboxSuppliers({ baseUrl: config.supplierUrl }),
    metrics,
    coverageMonitor: {},
    reviewEscalation: {},
  });
  // The webhook drain thread loads before the worker reports ready: a build without it fails here, not later.
  await runtime.webhooks.ready();
  // A fail-fast connection for queue depths: a scrape or a health check must not wait for Redis to come back.
  redis = createRedis(config.redisUrl);
  queues = createQueues(redis, config.queuePrefix);
  ops = createWorkerOps({ workers: runtime.workers, queues, metrics, db, logger });
  server = createServer(ops.app);
  const port = await listen(server, config.workerPort);
  logger.info({ port }, 'worker consuming; /healthz, /readyz and /metrics on this port');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

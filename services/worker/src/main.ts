import { createServer } from 'node:http';
import { openDatabase } from '@crew/db';
import { closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import { closeQueues, createQueues, createRedis } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { PromWorkerMetrics } from './operability/metrics';
import { createWorkerOps } from './operability/server';
import { startWorkerRuntime } from './runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.logLevel);
  const db = await openDatabase(config.databaseUrl, { applicationName: 'crew-worker', max: 12 });
  const metrics = new PromWorkerMetrics();
  const runtime = startWorkerRuntime({ config, db, logger, suppliers: createSandboxSuppliers({ baseUrl: config.supplierUrl }), metrics });
  // A fail-fast connection for queue depths: a scrape or a health check must not wait for Redis to come back.
  const redis = createRedis(config.redisUrl);
  const queues = createQueues(redis, config.queuePrefix);
  const ops = createWorkerOps({ workers: runtime.workers, queues, metrics, db, logger });
  const server = createServer(ops.app);
  const port = await listen(server, config.workerPort);
  logger.info({ port }, 'worker consuming; /healthz, /readyz and /metrics on this port');
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'workers', run: () => runtime.close() },
    { name: 'http', run: () => closeServer(server, 2000) },
    { name: 'queues', run: () => closeQueues(queues) },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => redis.disconnect())) },
    { name: 'postgres', run: () => db.destroy() },
  ]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

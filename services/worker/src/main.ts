import { createServer } from 'node:http';
import express from 'express';
import { createDb, ensureDatabase, migrateToLatest } from '@crew/db';
import { closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import { createRedis, redisReachable } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from './runtime';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.logLevel);
  await ensureDatabase(config.databaseUrl);
  const db = createDb(config.databaseUrl, { applicationName: 'crew-worker', max: 12 });
  await migrateToLatest(db);
  const runtime = startWorkerRuntime({ config, db, logger, suppliers: createSandboxSuppliers({ baseUrl: config.supplierUrl }) });
  const probe = createRedis(config.redisUrl);
  const app = express();
  app.get('/healthz', async (_req, res) => {
    const ok = await redisReachable(probe);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'redis_unreachable' });
  });
  const server = createServer(app);
  const port = await listen(server, config.workerPort);
  logger.info({ port }, 'worker consuming; health on this port');
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'workers', run: () => runtime.close() },
    { name: 'http', run: () => closeServer(server, 2000) },
    { name: 'redis', run: async () => void (await probe.quit().catch(() => probe.disconnect())) },
    { name: 'postgres', run: () => db.destroy() },
  ]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { createServer } from 'node:http';
import express from 'express';
import { createDb, ensureDatabase, migrateToLatest } from '@crew/db';
import { closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import { createRedis, redisReachable } from '@crew/queue';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('worker', config.logLevel);
  await ensureDatabase(config.databaseUrl);
  const db = createDb(config.databaseUrl, { applicationName: 'crew-worker' });
  await migrateToLatest(db);
  const redis = createRedis(config.redisUrl, true);
  const app = express();
  app.get('/healthz', async (_req, res) => {
    const ok = await redisReachable(redis);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ok' : 'redis_unreachable' });
  });
  const server = createServer(app);
  const port = await listen(server, config.workerPort);
  logger.info({ port }, 'worker listening (health and metrics)');
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: () => closeServer(server, 2000) },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => redis.disconnect())) },
    { name: 'postgres', run: () => db.destroy() },
  ]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

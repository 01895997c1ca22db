import { createServer } from 'node:http';
import { BOOKING_SETTLED_CHANNEL, openDatabase, PgListener } from '@crew/db';
import { checkSharedKeys, closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import { closeQueues, createQueues, createRedis, createRegistry, OutboxRelay, ProcessMetrics } from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { createApiApp } from './app';
import { createTokenVerifier } from './auth/token-verifier';
import { RosterIntake } from './schedules/roster-intake';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('api', config.logLevel);
  checkSharedKeys(config, logger);
  const db = await openDatabase(config.databaseUrl, { applicationName: 'crew-api' });
  const redis = createRedis(config.redisUrl);
  const queues = createQueues(redis, config.queuePrefix);
  const relay = new OutboxRelay(db, queues, logger.child({ component: 'outbox-relay' })).start();
  // One connection of its own: PATCH and DELETE wait on booking settle notifications, not by polling.
  const listenLog = logger.child({ component: 'booking-settled-listener' });
  const bookingSettled = new PgListener(config.databaseUrl, BOOKING_SETTLED_CHANNEL, {
    applicationName: 'crew-api-listen',
    onError: (err) => listenLog.warn({ err: err.message }, 'booking settle listener lost its connection; reconnecting'),
  }).start();
  const rosterIntake = new RosterIntake();
  // Warm before listening: a pod is ready only once it can check a roster without a cold start.
  await rosterIntake.start();
  const metrics = createRegistry('api');
  const processMetrics = new ProcessMetrics(metrics);
  const app = createApiApp({
    config,
    db,
    redis,
    logger,
    verifyToken: createTokenVerifier(config.authUrl),
    suppliers: createSandboxSuppliers({ baseUrl: config.supplierUrl }),
    relay,
    rosterIntake,
    bookingSettled,
    metrics,
  });
  const server = createServer(app);
  // Big rosters take a while to upload; keep-alive a little above a typical load balancer's idle timeout.
  server.requestTimeout = 300_000;
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.apiPort);
  logger.info({ port }, 'api listening');
  // Development only (production refuses to start without OPS_TOKEN): the operator needs to see it.
  if (config.opsTokenGenerated)
    logger.warn({ ops_token: config.opsToken }, 'OPS_TOKEN unset: generated a random operator token for this process');
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: () => closeServer(server, config.shutdownDeadlineMs - 2000) },
    { name: 'roster-intake', run: () => rosterIntake.close() },
    { name: 'outbox-relay', run: () => relay.close() },
    { name: 'booking-settled-listener', run: () => bookingSettled.close() },
    { name: 'queues', run: () => closeQueues(queues) },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => redis.disconnect())) },
    { name: 'postgres', run: () => db.destroy() },
    { name: 'metrics', run: async () => processMetrics.close() },
  ]);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

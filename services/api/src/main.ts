import { createServer, type Server } from 'node:http';
import { BOOKING_SETTLED_CHANNEL, openDatabase, PgListener, SERVING_DB, type Db } from '@crew/db';
import { checkSharedKeys, closeServer, createLogger, installShutdown, listen, loadConfig } from '@crew/platform';
import {
  closeQueues,
  createQueues,
  createRedis,
  createRegistry,
  OutboxRelay,
  ProcessMetrics,
  type Queues,
} from '@crew/queue';
import { createSandboxSuppliers } from '@crew/suppliers';
import { createApiApp } from './app';
import { createTokenVerifier } from './auth/token-verifier';
import { RosterIntake } from './schedules/roster-intake';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger('api', config.logLevel);
  checkSharedKeys(config, logger);
  // Assigned as start-up goes, read by the shutdown steps installed before: `const` would leave them in the
  // temporal dead zone for a SIGTERM during start-up.
  /* eslint-disable prefer-const */
  let db: Db | undefined;
  let redis: ReturnType<typeof createRedis> | undefined;
  let queues: Queues | undefined;
  let relay: OutboxRelay | undefined;
  let bookingSettled: PgListener | undefined;
  let rosterIntake: RosterIntake | undefined;
  let processMetrics: ProcessMetrics | undefined;
  let server: Server | undefined;
  /* eslint-enable prefer-const */
  // Installed first (node runs as PID 1, which ignores a signal it has no handler for): a SIGTERM during the
  // migrations or the roster-intake warm-up closes whatever exists by then, in this order.
  installShutdown(logger, config.shutdownDeadlineMs, [
    { name: 'http', run: async () => server && closeServer(server, config.shutdownDeadlineMs - 2000) },
    { name: 'roster-intake', run: async () => rosterIntake?.close() },
    { name: 'outbox-relay', run: async () => relay?.close() },
    { name: 'booking-settled-listener', run: async () => bookingSettled?.close() },
    { name: 'queues', run: async () => queues && closeQueues(queues) },
    { name: 'redis', run: async () => void (await redis?.quit().catch(() => redis?.disconnect())) },
    { name: 'postgres', run: async () => db?.destroy() },
    { name: 'metrics', run: async () => processMetrics?.close() },
  ]);
  db = await openDatabase(config.databaseUrl, { ...SERVING_DB, applicationName: 'crew-api' });
  redis = createRedis(config.redisUrl);
  queues = createQueues(redis, config.queuePrefix);
  relay = new OutboxRelay(db, queues, logger.child({ component: 'outbox-relay' })).start();
  // One connection of its own: PATCH and DELETE wait on booking settle notifications, not by polling.
  const listenLog = logger.child({ component: 'booking-settled-listener' });
  bookingSettled = new PgListener(config.databaseUrl, BOOKING_SETTLED_CHANNEL, {
    applicationName: 'crew-api-listen',
    onError: (err) => listenLog.warn({ err: err.message }, 'booking settle listener lost its connection; reconnecting'),
  }).start();
  rosterIntake = new RosterIntake();
  // Warm before listening: a pod is ready only once it can check a roster without a cold start.
  await rosterIntake.start();
  const metrics = createRegistry('api');
  processMetrics = new ProcessMetrics(metrics);
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
  server = createServer(app);
  // Big rosters take a while to upload; keep-alive a little above a typical load balancer's idle timeout.
  server.requestTimeout = 300_000;
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.apiPort);
  logger.info({ port }, 'api listening');
  // Development only (production refuses to start without OPS_TOKEN): the operator needs to see it.
  if (config.opsTokenGenerated)
    logger.warn({ ops_token: config.opsToken }, 'OPS_TOKEN unset: generated a random operator token for this process');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

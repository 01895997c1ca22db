import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createApiApp, createTokenVerifier, RosterIntake, type ApiDeps, type PasswordHashCost } from '@crew/api';
import { createAuthApp, KeyStore } from '@crew/auth';
import { createSandboxApp, type SandboxApp } from '@crew/supplier-sandbox';
import { startWorkerRuntime, type WorkerMetrics, type WorkerRuntime } from '@crew/worker';
import { createLogger, Keyring, listen, loadConfig, type Config, type Logger } from '@crew/platform';
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
import { BOOKING_SETTLED_CHANNEL, PgListener } from '@crew/db';
import { createTestDatabase, type TestDatabase } from './database';

export interface Stack {
  apiUrl: string;
  authUrl: string;
  sandboxUrl: string;
  /** The in-process supplier sandbox (clock, faults, reservations). */
  sandbox: SandboxApp;
  opsToken: string;
  config: Config;
  database: TestDatabase;
  keys: KeyStore;
  redis: Redis;
  queues: Queues;
  relay: OutboxRelay;
  rosterIntake: RosterIntake;
  /** Every JSON log line the stack wrote (tests read them, e.g. for redaction). */
  logLines: string[];
  /** The in-process worker, when started with `worker: true`. */
  worker: WorkerRuntime | null;
  close(): Promise<void>;
}

function capture(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      // TEST_LOG=1 shows the stack's logs while debugging a test.
      if (process.env.TEST_LOG) process.stderr.write(chunk);
      cb();
    },
  });
}

async function serve(app: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  // As in production: longer than fetch's own keep-alive, so the server never drops a socket the client reuses.
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, 0, '127.0.0.1');
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Deletes every Redis key of a stack's prefix (queues, rate limits): a test leaves nothing behind. */
export async function removeKeys(redis: Redis, prefix: string): Promise<void> {
  // A test that cut Redis off can end while this client is still reconnecting (it queues no command while
  // offline): a short-lived client of the same options then does the cleanup.
  const client =
    redis.status === 'ready' ? redis : redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  try {
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
      if (keys.length) await client.unlink(...keys);
    }
  } finally {
    if (client !== redis) client.disconnect();
  }
}

/** Auth + API in this process against real Postgres (a fresh database) and Redis (a unique prefix). */
/** What an api of a test's own (its routes, a second app) needs, on the stack's services; `overrides` replaces parts. */
export function apiDepsOf(stack: Stack, overrides: Partial<ApiDeps> = {}): ApiDeps {
  return {
    config: stack.config,
    db: stack.database.db,
    redis: stack.redis,
    logger: createLogger('test', 'silent'),
    verifyToken: createTokenVerifier(stack.authUrl),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl }),
    relay: stack.relay,
    rosterIntake: stack.rosterIntake,
    ...overrides,
  };
}

export interface StackOptions {
  env?: Record<string, string>;
  /** Run the worker's consumers in this process too. */
  worker?: boolean;
  /** The worker's processing clock, and the api's today (a flight search for a past date is refused). */
  now?: () => Date;
  /** Supplier sandbox latency (ms), to keep booking tasks in flight. */
  sandboxLatencyMs?: number;
  /** Deadline of the in-process worker's Duffel Stays calls (default: the worker's, 30 s). */
  duffelStaysTimeoutMs?: number;
  /** Deadline of the in-process worker's calls to the sandbox's own API (default 2 s: a test's faults answer fast). */
  sandboxTimeoutMs?: number;
  /** How long the in-process worker reuses an airline's supplier setting (default the worker's, 5 s). */
  supplierSettingsTtlMs?: number;
  /** What the in-process worker reports its figures to (default: nothing). */
  workerMetrics?: WorkerMetrics;
  /**
   * The scrypt cost of the console's password hashes (default the api's, about a tenth of a second each): a file
   * making hundreds of sign-in tries passes a cheap one (CHEAP_PASSWORD_HASH_COST).
   */
  passwordHashCost?: PasswordHashCost;
}

/** 1 MiB and about a millisecond per hash: for tests whose subject is not the hash's cost. */
export const CHEAP_PASSWORD_HASH_COST: PasswordHashCost = { N: 2 ** 10, r: 8, p: 1 };

export async function startStack(label: string, options: StackOptions = {}): Promise<Stack> {
  const env = options.env ?? {};
  const database = await createTestDatabase(label);
  const logLines: string[] = [];
  const logger: Logger = createLogger('stack', 'info', capture(logLines));
  // One credentials key for the whole stack: the auth service seals its signing keys with the api's and worker's.
  const credentialsKey = env.SUPPLIER_CREDENTIALS_KEY ?? Keyring.mint();
  const keys = new KeyStore(database.db, Keyring.parse(credentialsKey));
  let authUrl = '';
  const auth = await serve(
    createAuthApp({ db: database.db, keys, logger: logger.child({ service: 'auth' }), issuer: () => authUrl }),
  );
  authUrl = auth.url;
  const sandbox = createSandboxApp({
    logger: logger.child({ service: 'supplier-sandbox' }),
    latencyMs: options.sandboxLatencyMs ?? 0,
  });
  const supplier = await serve(sandbox.app);
  const opsToken = `ops-${randomBytes(12).toString('hex')}`;
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
    AUTH_URL: authUrl,
    SUPPLIER_URL: supplier.url,
    // The sandbox's Duffel dialect (a path prefix keeps its trailing slash).
    DUFFEL_API_URL: `${supplier.url}/duffel/`,
    OPS_TOKEN: opsToken,
    LOG_LEVEL: 'info',
    SUPPLIER_CREDENTIALS_KEY: credentialsKey,
    ...env,
  });
  const redis = createRedis(config.redisUrl);
  const queues = createQueues(redis, config.queuePrefix);
  const relay = new OutboxRelay(database.db, queues, logger.child({ component: 'outbox-relay' }), 100).start();
  const rosterIntake = new RosterIntake();
  const bookingSettled = new PgListener(database.url, BOOKING_SETTLED_CHANNEL, {
    applicationName: 'crew-api-listen',
  }).start();
  const metrics = createRegistry('api');
  const processMetrics = new ProcessMetrics(metrics);
  const api = await serve(
    createApiApp({
      config,
      db: database.db,
      redis,
      logger: logger.child({ service: 'api' }),
      verifyToken: createTokenVerifier(authUrl),
      suppliers: createSandboxSuppliers({ baseUrl: config.supplierUrl }),
      relay,
      rosterIntake,
      bookingSettled,
      metrics,
      now: options.now,
      passwordHashCost: options.passwordHashCost,
    }),
  );
  const worker = options.worker
    ? startWorkerRuntime({
        config,
        db: database.db,
        logger: logger.child({ service: 'worker' }),
        suppliers: createSandboxSuppliers({
          baseUrl: supplier.url,
          responseTimeoutMs: options.sandboxTimeoutMs ?? 2000,
        }),
        duffelTimeoutMs: 2000,
        duffelStaysTimeoutMs: options.duffelStaysTimeoutMs,
        supplierSettingsTtlMs: options.supplierSettingsTtlMs,
        now: options.now,
        metrics: options.workerMetrics,
      })
    : null;
  let closing: Promise<void> | undefined;
  return {
    apiUrl: api.url,
    worker,
    authUrl,
    sandboxUrl: supplier.url,
    sandbox,
    opsToken,
    config,
    database,
    keys,
    redis,
    queues,
    relay,
    rosterIntake,
    logLines,
    /** Idempotent. */
    close() {
      closing ??= (async () => {
        await worker?.close();
        sandbox.releaseWithheld();
        for (const s of [api.server, auth.server, supplier.server]) {
          s.closeAllConnections();
          await new Promise((r) => s.close(r));
        }
        await relay.close();
        await rosterIntake.close();
        await bookingSettled.close();
        await removeKeys(redis, config.queuePrefix);
        await closeQueues(queues);
        redis.disconnect();
        processMetrics.close();
        await database.drop();
      })();
      return closing;
    },
  };
}

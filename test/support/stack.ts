import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Redis } from 'ioredis';
import { createApiApp, createTokenVerifier } from '@crew/api';
import { createAuthApp, KeyStore } from '@crew/auth';
import { createLogger, listen, loadConfig, type Config, type Logger } from '@crew/platform';
import { createRedis } from '@crew/queue';
import { createTestDatabase, type TestDatabase } from './database';

export interface Stack {
  apiUrl: string;
  authUrl: string;
  opsToken: string;
  config: Config;
  database: TestDatabase;
  keys: KeyStore;
  redis: Redis;
  /** Every JSON log line the stack wrote (tests read them, e.g. for redaction). */
  logLines: string[];
  close(): Promise<void>;
}

function capture(lines: string[]): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
}

async function serve(app: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(app);
  const port = await listen(server, 0, '127.0.0.1');
  return { server, url: `http://127.0.0.1:${port}` };
}

/** Auth + API in this process against real Postgres (a fresh database) and Redis (a unique prefix). */
export async function startStack(label: string, env: Record<string, string> = {}): Promise<Stack> {
  const database = await createTestDatabase(label);
  const logLines: string[] = [];
  const logger: Logger = createLogger('stack', 'info', capture(logLines));
  const keys = new KeyStore(database.db);
  let authUrl = '';
  const auth = await serve(createAuthApp({ db: database.db, keys, logger: logger.child({ service: 'auth' }), issuer: () => authUrl }));
  authUrl = auth.url;
  const opsToken = `ops-${randomBytes(12).toString('hex')}`;
  const config = loadConfig({
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `t${randomBytes(5).toString('hex')}`,
    AUTH_URL: authUrl,
    OPS_TOKEN: opsToken,
    LOG_LEVEL: 'info',
    ...env,
  });
  const redis = createRedis(config.redisUrl);
  const api = await serve(createApiApp({ config, db: database.db, redis, logger: logger.child({ service: 'api' }), verifyToken: createTokenVerifier(authUrl) }));
  return {
    apiUrl: api.url,
    authUrl,
    opsToken,
    config,
    database,
    keys,
    redis,
    logLines,
    async close() {
      for (const s of [api.server, auth.server]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
      redis.disconnect();
      await database.drop();
    },
  };
}

import { Redis, type RedisOptions } from 'ioredis';
import { withDeadline } from './deadline';

/** ioredis options from REDIS_URL. BullMQ workers need `maxRetriesPerRequest: null` (blocking commands). */
export function redisOptions(redisUrl: string, forWorker = false): RedisOptions {
  const u = new URL(redisUrl);
  const db = u.pathname && u.pathname !== '/' ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname,
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: forWorker ? null : 3,
    // Producers fail fast while Redis is down (the outbox keeps the work); workers keep waiting.
    enableOfflineQueue: forWorker,
    lazyConnect: false,
  };
}

export function createRedis(redisUrl: string, forWorker = false): Redis {
  const redis = new Redis(redisOptions(redisUrl, forWorker));
  // Errors surface through readiness and failed commands; an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

/** PING with a deadline, for readiness. */
export async function redisReachable(redis: Redis, timeoutMs = 1000): Promise<boolean> {
  try {
    return (await withDeadline(redis.ping(), timeoutMs)) === 'PONG';
  } catch {
    return false;
  }
}

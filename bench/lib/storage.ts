import pg from 'pg';
import { createDb, dropDatabase, ensureDatabase, migrateToLatest } from '@crew/db';
import { createRedis } from '@crew/queue';
import type { Redis } from 'ioredis';

export interface Cleanup {
  name: string;
  run: () => Promise<unknown>;
}

/**
 * A benchmark's own database (migrated) and queue prefix, with their cleanups registered first so they run
 * last: the database is dropped and every Redis key of the prefix removed. Returns a reader connection and the Redis connection (closed by the cleanup).
 */
export async function prepareBenchStorage(
  databaseUrl: string,
  redisUrl: string,
  prefix: string,
  cleanups: Cleanup[],
): Promise<{ reader: pg.Client; redis: Redis }> {
  await ensureDatabase(databaseUrl);
  // BENCH_KEEP_DB=1 (diagnostics): the database stays, to look at its rows and plans afterwards.
  if (process.env.BENCH_KEEP_DB !== '1') cleanups.push({ name: 'drop database', run: () => dropDatabase(databaseUrl) });
  const redis = createRedis(redisUrl);
  cleanups.push({
    name: 'redis keys',
    run: async () => {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await redis.unlink(...keys);
      } while (cursor !== '0');
      redis.disconnect();
    },
  });
  const db = createDb(databaseUrl, { max: 2, applicationName: 'crew-bench' });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  const reader = new pg.Client({ connectionString: databaseUrl, application_name: 'crew-bench' });
  await reader.connect();
  cleanups.push({ name: 'postgres reader', run: () => reader.end() });
  return { reader, redis };
}

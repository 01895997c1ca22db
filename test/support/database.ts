import { randomBytes } from 'node:crypto';
import { createDb, dropDatabase, ensureDatabase, migrateToLatest, type Db } from '@crew/db';

const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const url = new URL(BASE);
  url.pathname = `/crew_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(url.toString());
  const db = createDb(url.toString(), { max: 5 });
  await migrateToLatest(db);
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(url.toString());
    },
  };
}

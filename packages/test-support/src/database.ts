import { randomBytes } from 'node:crypto';
import { dropDatabase, openDatabase, type Db } from '@crew/db';

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
  const db = await openDatabase(url.toString(), { max: 5 });
  return {
    url: url.toString(),
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(url.toString());
    },
  };
}

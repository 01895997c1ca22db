import { randomBytes } from 'node:crypto';
import { createDb, dropDatabase, ensureDatabase, openDatabase, type Db } from '@crew/db';

const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  db: Db;
  drop(): Promise<void>;
}

function testDatabaseUrl(label: string): string {
  const url = new URL(BASE);
  url.pathname = `/crew_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  return url.toString();
}

/** The database at `url` for one test file, with its clean-up: the pool closed, then the database dropped. */
function testDatabase(url: string, db: Db): TestDatabase {
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(url);
    },
  };
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const url = testDatabaseUrl(label);
  return testDatabase(url, await openDatabase(url, { max: 5 }));
}

/** A fresh database with no migration applied, for a test that migrates it step by step itself. */
export async function createUnmigratedDatabase(label: string): Promise<TestDatabase> {
  const url = testDatabaseUrl(label);
  await ensureDatabase(url);
  return testDatabase(url, createDb(url, { max: 2 }));
}

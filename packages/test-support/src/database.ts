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

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const url = new URL(testDatabaseUrl(label));
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

/** A fresh database with no migration applied, for a test that migrates it step by step itself. */
export async function createUnmigratedDatabase(
  label: string,
): Promise<{ url: string; db: ReturnType<typeof createDb>; drop(): Promise<void> }> {
  const url = testDatabaseUrl(label);
  await ensureDatabase(url);
  const db = createDb(url, { max: 2 });
  return {
    url,
    db,
    async drop() {
      await db.destroy();
      await dropDatabase(url);
    },
  };
}

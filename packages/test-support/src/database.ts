import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createDb,
  databaseNameOf,
  dropDatabase,
  ensureDatabase,
  migrateToLatest,
  openDatabase,
  quotedIdentifier,
  withAdminClient,
  type Db,
} from '@crew/db';

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

const MIGRATIONS = path.resolve(__dirname, '../../db/src/migrations');
const TEMPLATE_PREFIX = 'crew_template_';

/**
 * The template every test database is copied from: the migrations applied once, named by a hash of the
 * migrations' sources, so that a changed or added migration makes a new one. Copying it is about half the time
 * of applying the 50-odd migrations, in each of some 150 test files.
 */
function templateName(): string {
  const hash = createHash('sha1');
  for (const file of readdirSync(MIGRATIONS).sort())
    hash.update(file).update(readFileSync(path.join(MIGRATIONS, file)));
  return `${TEMPLATE_PREFIX}${hash.digest('hex').slice(0, 16)}`;
}

/**
 * Creates the database `url` names as a copy of the migrated template, building the template first when this set of migrations has
 * none. Under an advisory lock: the test files running side by side build it once, and a copy never starts while
 * the template is being built, or dropped (templates of other migration sets are dropped when a new one is built).
 */
async function createFromTemplate(url: string): Promise<void> {
  const template = templateName();
  await withAdminClient(url, async (client) => {
    // Held until the client ends.
    await client.query(`select pg_advisory_lock(hashtext('crew test database template'))`);
    const found = await client.query('select 1 from pg_database where datname = $1', [template]);
    if (found.rowCount === 0) {
      const stale = await client.query<{ datname: string }>('select datname from pg_database where datname like $1', [
        `${TEMPLATE_PREFIX}%`,
      ]);
      for (const { datname } of stale.rows)
        await client.query(`drop database if exists ${quotedIdentifier(datname)} with (force)`);
      // Built under a name of its own and renamed when complete: an interrupted build leaves no half template.
      const building = `${template}_building`;
      await client.query(`create database ${quotedIdentifier(building)}`);
      const buildUrl = new URL(url);
      buildUrl.pathname = `/${building}`;
      const db = createDb(buildUrl.toString(), { max: 1 });
      try {
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
      await client.query(`alter database ${quotedIdentifier(building)} rename to ${quotedIdentifier(template)}`);
    }
    await client.query(
      `create database ${quotedIdentifier(databaseNameOf(url))} template ${quotedIdentifier(template)}`,
    );
  });
}

/** A fresh, migrated database for one test file (a copy of the migrated template). */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const url = testDatabaseUrl(label);
  await createFromTemplate(url);
  // openDatabase applies any migration the template lacks (none): the same path every process starts by.
  return testDatabase(url, await openDatabase(url, { max: 5 }));
}

/** A fresh database with no migration applied, for a test that migrates it step by step itself. */
export async function createUnmigratedDatabase(label: string): Promise<TestDatabase> {
  const url = testDatabaseUrl(label);
  await ensureDatabase(url);
  return testDatabase(url, createDb(url, { max: 2 }));
}

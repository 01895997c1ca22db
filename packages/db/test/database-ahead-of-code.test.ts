import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '@crew/test-support';
import { isMigrated, migrateToLatest } from '../src/connect';
import { migrations } from '../src/migrations';

/*
 * A rollback (`kubectl rollout undo`) or a pod of the previous release restarting during a rollout starts the
 * previous release's code on a schema a newer release has migrated further. Migrations are additive, so that
 * code runs there: its migrate step must call the schema current, not refuse to start.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase('database_ahead_of_code');
});
afterAll(() => t.drop());

const NEWER = '2099_01_01_0000_a_newer_release';
const known = Object.keys(migrations).sort();

test('a database holding every known migration and a newer one is current for this release', async () => {
  await sql`insert into kysely_migration (name, timestamp) values (${NEWER}, ${new Date().toISOString()})`.execute(
    t.db,
  );
  await expect(migrateToLatest(t.db)).resolves.toEqual({ results: [] });
  await expect(isMigrated(t.db)).resolves.toBe(true);
});

test('a database lacking one of this release’s migrations beside a newer one is refused, naming both', async () => {
  const last = known[known.length - 1]!;
  const { rows } = await sql<{ timestamp: string }>`delete from kysely_migration where name = ${last}
    returning timestamp`.execute(t.db);
  try {
    await expect(migrateToLatest(t.db)).rejects.toThrow(new RegExp(`${NEWER}.*but not ${last}`));
  } finally {
    await sql`insert into kysely_migration (name, timestamp) values (${last}, ${rows[0]!.timestamp})`.execute(t.db);
  }
});

test('without a newer migration the database is migrated as before (nothing pending here)', async () => {
  await sql`delete from kysely_migration where name = ${NEWER}`.execute(t.db);
  await expect(migrateToLatest(t.db)).resolves.toEqual({ results: [] });
});

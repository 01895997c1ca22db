/** `npm run migrate`: creates the database if missing and applies every pending migration, then exits. */
import { createDb, ensureDatabase, migrateToLatest } from '@crew/db';
import { loadConfig } from '@crew/platform';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, OPS_TOKEN: process.env.OPS_TOKEN || 'not-needed-to-migrate' });
  await ensureDatabase(config.databaseUrl);
  const db = createDb(config.databaseUrl, { max: 1 });
  try {
    const { results } = await migrateToLatest(db);
    for (const r of results ?? []) console.log(`${r.status}\t${r.migrationName}`);
    console.log(`migrations up to date (${results?.length ?? 0} applied now)`);
  } finally {
    await db.destroy();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

import { Migrator, type Kysely } from 'kysely';
import { createUnmigratedDatabase, type TestDatabase } from '@crew/test-support';
import { migrations } from '../src/migrations';

/**
 * A test file's own database with no migration applied, and a Migrator over every migration, to step the schema
 * to a release's and back: created before the file's tests, dropped after them.
 */
export function stepwiseDatabase(label: string): { readonly db: Kysely<any>; readonly migrator: Migrator } {
  let t: TestDatabase | undefined;
  let migrator: Migrator | undefined;
  beforeAll(async () => {
    t = await createUnmigratedDatabase(label);
    migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations } });
  });
  afterAll(() => t?.drop());
  return {
    get db() {
      return t!.db;
    },
    get migrator() {
      return migrator!;
    },
  };
}

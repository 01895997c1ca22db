import type { Migration } from 'kysely';
import * as foundation from './2026_11_21_0001_foundation';

/** Every migration, by its timestamped name; names sort in the order they run. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
};

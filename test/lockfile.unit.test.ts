import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm ci` (CI's install) refuses a lock file that misses an optional dependency of a locked package. The
 * registry here does not serve every platform's binary, so `npm install` can leave such entries out:
 * `npm run lockfile:complete` adds them. This fails when that step was forgotten.
 */
it('package-lock.json has an entry for every optional dependency of every locked package', () => {
  const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../package-lock.json'), 'utf8')) as {
    packages: Record<string, { optionalDependencies?: Record<string, string> }>;
  };
  const missing: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
      if (!lock.packages[`node_modules/${dep}`] && !lock.packages[`${key}/node_modules/${dep}`])
        missing.push(`${dep} (of ${key || 'the root'})`);
    }
  }
  expect(missing).toEqual([]);
});

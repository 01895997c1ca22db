/**
 * What `npm run build` produces: one bundle per process, each under its own `dist/` (paths from the
 * repository root). The Dockerfile, docker-compose.yml and k8s run these files with `node`; test/manifests
 * checks that every command names one of them, test/build checks that the build writes exactly these.
 */
export interface BuildTarget {
  /** The folder whose `dist/` receives the bundles. */
  dir: string;
  /** Output name (without `.js`) → source entry, both relative to `dir`. */
  entries: Record<string, string>;
}

export const BUILD_TARGETS: readonly BuildTarget[] = [
  // The roster-intake thread is its own entry: the bundled api starts it from dist/roster-intake.thread.js.
  {
    dir: 'services/api',
    entries: { main: 'src/main.ts', 'roster-intake.thread': 'src/schedules/roster-intake.thread.ts' },
  },
  // Likewise the worker's webhook drain thread (dist/drain.thread.js).
  { dir: 'services/worker', entries: { main: 'src/main.ts', 'drain.thread': 'src/webhooks/drain.thread.ts' } },
  { dir: 'services/auth', entries: { main: 'src/main.ts', 'keys-cli': 'src/keys-cli.ts' } },
  { dir: 'services/supplier-sandbox', entries: { main: 'src/main.ts' } },
  // The migrations alone (the k8s Job, the initContainers, compose's `migrate`).
  { dir: '.', entries: { migrate: 'scripts/migrate.ts' } },
];

/** Every file the build writes that a command may run, e.g. `services/api/dist/main.js`, `dist/migrate.js`. */
export function builtFiles(): string[] {
  return BUILD_TARGETS.flatMap((t) =>
    Object.keys(t.entries).map((name) => (t.dir === '.' ? `dist/${name}.js` : `${t.dir}/dist/${name}.js`)),
  );
}

/**
 * `npm run build`: bundles each process (scripts/build-targets.ts) with esbuild into CommonJS under its
 * `dist/`, run in production by plain `node` (no tsx). The workspace packages export TypeScript sources, so
 * they are bundled in; a dependency from node_modules stays a `require()` when node resolves it to the same
 * CommonJS file from the bundle's folder, and is bundled in otherwise (an ESM-only package such as jose, or
 * one npm installed under a package's own node_modules such as kysely). Types are checked by
 * `npm run typecheck`, not here.
 */
import { builtinModules, createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { readFileSync, rmSync } from 'node:fs';
import { build, type Plugin } from 'esbuild';
import { BUILD_TARGETS, type BuildTarget } from './build-targets';

const ROOT = resolve(__dirname, '..');
const BUILTIN = new Set(builtinModules);

/** True when `require()` of this file would load an ES module. */
function isEsm(file: string): boolean {
  if (extname(file) === '.mjs') return true;
  if (extname(file) !== '.js') return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { type?: string }).type === 'module';
    } catch {
      // no package.json here: look further up
    }
  }
  return false;
}

function resolveFrom(dir: string, request: string): string | null {
  try {
    return createRequire(join(dir, 'noop.js')).resolve(request);
  } catch {
    return null;
  }
}

/** node_modules packages stay external where the bundle's own `require()` finds the same CommonJS file. */
function dependencies(outdir: string): Plugin {
  return {
    name: 'crew-dependencies',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || BUILTIN.has(args.path.split('/')[0]!))
          return { path: args.path, external: true };
        if (args.path.startsWith('@crew/')) return undefined;
        const here = resolveFrom(args.resolveDir, args.path);
        if (here && !here.includes(`${ROOT}/packages/`) && resolveFrom(outdir, args.path) === here && !isEsm(here))
          return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

async function buildTarget(t: BuildTarget): Promise<void> {
  const outdir = join(ROOT, t.dir, 'dist');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(Object.entries(t.entries).map(([name, src]) => [name, join(t.dir, src)])),
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    // Error names and stack traces stay readable in logs (node --enable-source-maps).
    keepNames: true,
    sourcemap: 'linked',
    plugins: [dependencies(outdir)],
    logLevel: 'warning',
  });
}

export async function buildAll(): Promise<void> {
  await Promise.all(BUILD_TARGETS.map(buildTarget));
}

if (require.main === module) {
  const started = Date.now();
  buildAll().then(
    () => console.log(`built ${BUILD_TARGETS.length} targets in ${Date.now() - started} ms`),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

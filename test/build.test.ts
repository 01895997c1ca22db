/**
 * The production start: `npm run build` writes the bundles the Dockerfile, compose and k8s run, and they start
 * under plain node with tsx unloadable (the api's roster-intake thread and the worker's webhook drain thread
 * included): the built migrations create a fresh database, the built api and worker answer /readyz 200 against
 * it and stop on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { dropDatabase } from '@crew/db';
import { createRedis } from '@crew/queue';
import { exited, NO_TSX_PRELOAD, removeKeys, waitFor } from '@crew/test-support';
import { builtFiles } from '../scripts/build-targets';

const ROOT = path.resolve(__dirname, '..');
const BASE = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// Any attempt to load tsx fails, in the main thread and (execArgv is inherited) in worker threads.
const NO_TSX = ['-r', NO_TSX_PRELOAD];

/** The api's environment in docker-compose.yml (what production gives it), `${VAR:-default}` resolved. */
function composeEnv(): Record<string, string> {
  const compose = parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment: Record<string, string> }>;
  };
  const env = compose.services.api!.environment;
  return Object.fromEntries(
    Object.entries(env).map(([k, v]) => [
      k,
      String(v).replace(/\$\{(\w+):-([^}]*)\}/g, (_m, name: string, d: string) => process.env[name] ?? d),
    ]),
  );
}

function run(args: string[], env: Record<string, string>): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: string[] };
  child.output = [];
  child.stdout!.on('data', (d) => child.output.push(String(d)));
  child.stderr!.on('data', (d) => child.output.push(String(d)));
  return child;
}

it('npm run build; node dist/migrate.js, services/api/dist/main.js and services/worker/dist/main.js start without tsx; /readyz → 200', async () => {
  const started = Date.now();
  const build = run(['--import', 'tsx', 'scripts/build.ts'], {});
  expect([(await exited(build)).code, build.output.join('')]).toEqual([0, expect.stringContaining('built')]);
  expect(Date.now() - started).toBeLessThan(60_000);
  expect(builtFiles().filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);

  const url = new URL(BASE);
  url.pathname = `/crew_built_${randomBytes(4).toString('hex')}`;
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const env = {
    ...composeEnv(),
    NODE_ENV: 'production',
    DATABASE_URL: url.toString(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: prefix,
    AUTH_URL: 'http://127.0.0.1:9',
    SUPPLIER_URL: 'http://127.0.0.1:9',
    OPS_TOKEN: randomBytes(18).toString('hex'),
    API_PORT: '0',
    LOG_LEVEL: 'info',
  };
  let api: (ChildProcess & { output: string[] }) | undefined;
  let worker: (ChildProcess & { output: string[] }) | undefined;
  try {
    // The command of the k8s Job, the initContainers and compose's `migrate`: creates the database too.
    const migrate = run([...NO_TSX, 'dist/migrate.js'], env);
    expect([(await exited(migrate)).code, migrate.output.join('')]).toEqual([
      0,
      expect.stringContaining('migrations up to date'),
    ]);

    api = run([...NO_TSX, '--enable-source-maps', 'services/api/dist/main.js'], env);
    const port = await waitFor(
      async () =>
        /"port":(\d+)[^\n]*api listening/.exec(api!.output.join(''))?.[1] ?? (api!.exitCode !== null ? 'exited' : null),
      30_000,
      'the built api to listen',
    );
    if (port === 'exited') throw new Error(`the built api exited: ${api.output.join('')}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: true, migrations: true, redis: true } });
    expect(ready.status).toBe(200);

    api.kill('SIGTERM');
    expect((await exited(api)).code).toBe(0);
    expect(api.output.join('')).not.toContain('tsx loaded at runtime');

    // The built worker reports ready only once its webhook drain thread (dist/drain.thread.js) has loaded.
    worker = run([...NO_TSX, '--enable-source-maps', 'services/worker/dist/main.js'], { ...env, WORKER_PORT: '0' });
    const workerPort = await waitFor(
      async () =>
        /"port":(\d+)[^\n]*worker consuming/.exec(worker!.output.join(''))?.[1] ??
        (worker!.exitCode !== null ? 'exited' : null),
      30_000,
      'the built worker to listen',
    );
    if (workerPort === 'exited') throw new Error(`the built worker exited: ${worker.output.join('')}`);
    expect((await fetch(`http://127.0.0.1:${workerPort}/readyz`)).status).toBe(200);
    worker.kill('SIGTERM');
    expect((await exited(worker)).code).toBe(0);
    expect(worker.output.join('')).not.toContain('tsx loaded at runtime');
  } finally {
    for (const child of [api, worker]) {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    await dropDatabase(url.toString());
    const redis = createRedis(env.REDIS_URL);
    if (redis.status !== 'ready') await new Promise((r) => redis.once('ready', r));
    await removeKeys(redis, prefix);
    redis.disconnect();
  }
});

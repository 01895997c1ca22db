/**
 * The stack a benchmark measures: its own database and queue prefix (names from one random suffix), and auth,
 * supplier-sandbox, api and workers as real processes on free ports of 127.0.0.1, every one of them stopped by
 * the benchmark's cleanups.
 */
import { randomBytes } from 'node:crypto';
import { Keyring } from '@crew/platform';
import type { StackUrls } from './client';
import {
  API_REPLICAS_LISTENING,
  freePort,
  startService,
  stopAll,
  stopService,
  waitHttpOk,
  waitOutput,
  type Service,
} from './processes';
import type { Cleanup } from './storage';

export const PG_BASE = 'postgres://postgres@127.0.0.1:5432';
export const REDIS_URL = 'redis://127.0.0.1:6379';

export interface BenchNames {
  /** crew_bench_<suffix>: created and migrated by prepareBenchStorage, dropped at the end. */
  dbName: string;
  databaseUrl: string;
  /** bench<suffix>: the BullMQ prefix; its Redis keys are deleted at the end. */
  prefix: string;
  opsToken: string;
  suffix: string;
}

export function benchNames(): BenchNames {
  const suffix = randomBytes(4).toString('hex');
  const dbName = `crew_bench_${suffix}`;
  return {
    suffix,
    dbName,
    databaseUrl: `${PG_BASE}/${dbName}`,
    prefix: `bench${suffix}`,
    opsToken: `bench-ops-${randomBytes(16).toString('hex')}`,
  };
}

export interface StackOptions {
  names: BenchNames;
  /** SANDBOX_LATENCY_MS of every supplier call (no jitter). */
  sandboxLatencyMs: number;
  /** The sandbox's Duffel dialect for the api and worker (DUFFEL_API_URL, SUPPLIER_CREDENTIALS_KEY). */
  duffel?: boolean;
  /** Further variables for every process. */
  env?: Record<string, string>;
  /** Node flags for the api that NODE_OPTIONS refuses (diagnostics). */
  apiExecArgv?: string[];
}

export interface Stack {
  /** The variables every process was started with. */
  env: Record<string, string>;
  urls: StackUrls;
  sandboxUrl: string;
  auth: Service;
  sandbox: Service;
  api: Service;
  /**
   * Stops the api and starts it again on the same port as `replicas` processes (bench/lib/api-replicas.ts when
   * more than one); resolved once every replica listens and /readyz answers. `stack.api` is then the new one.
   */
  restartApi(replicas: number): Promise<Service>;
  /** Starts a worker on a port of its own (env on top of the stack's), resolved once its /healthz answers. */
  startWorker(env?: Record<string, string>, execArgv?: string[]): Promise<Service>;
}

/** Starts auth, supplier-sandbox and api and waits until they answer; workers are started with startWorker. */
export async function startStack(o: StackOptions, cleanups: Cleanup[]): Promise<Stack> {
  const [apiPort, authPort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
  const authUrl = `http://127.0.0.1:${authPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: o.names.databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: o.names.prefix,
    AUTH_URL: authUrl,
    SUPPLIER_URL: sandboxUrl,
    // The sandbox's Duffel dialect (a path prefix keeps its trailing slash); one key for the api (seals) and the worker (opens).
    ...(o.duffel ? { DUFFEL_API_URL: `${sandboxUrl}/duffel/`, SUPPLIER_CREDENTIALS_KEY: Keyring.mint() } : {}),
    // The api encrypts webhook secrets, the worker decrypts them: one key for both.
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    OPS_TOKEN: o.names.opsToken,
    LOG_LEVEL: 'warn',
    API_PORT: String(apiPort),
    AUTH_PORT: String(authPort),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_LATENCY_MS: String(o.sandboxLatencyMs),
    SANDBOX_LATENCY_JITTER_MS: '0',
    SHUTDOWN_DEADLINE_MS: '8000',
    ...o.env,
  };
  cleanups.push({ name: 'stop processes', run: () => stopAll(12_000) });
  const auth = startService('auth', authPort, env);
  const sandbox = startService('supplier-sandbox', sandboxPort, env);
  const api = startService('api', apiPort, env, o.apiExecArgv ?? []);
  await Promise.all([
    waitHttpOk(`${authUrl}/healthz`, auth),
    waitHttpOk(`${sandboxUrl}/healthz`, sandbox),
    waitHttpOk(`http://127.0.0.1:${apiPort}/readyz`, api),
  ]);
  const startWorker = async (workerEnv: Record<string, string> = {}, execArgv: string[] = []): Promise<Service> => {
    const port = await freePort();
    const worker = startService('worker', port, { ...env, ...workerEnv, WORKER_PORT: String(port) }, execArgv);
    await waitHttpOk(`http://127.0.0.1:${port}/healthz`, worker);
    return worker;
  };
  const stack: Stack = {
    env,
    urls: { apiUrl: `http://127.0.0.1:${apiPort}`, authUrl, opsToken: o.names.opsToken },
    sandboxUrl,
    auth,
    sandbox,
    api,
    restartApi: async (replicas) => {
      await stopService(stack.api);
      const apiEnv = { ...env, BENCH_API_REPLICAS: String(replicas) };
      const launcher = replicas > 1 ? 'bench/lib/api-replicas.ts' : undefined;
      stack.api = startService('api', apiPort, apiEnv, o.apiExecArgv ?? [], launcher);
      if (replicas > 1) await waitOutput(stack.api, API_REPLICAS_LISTENING);
      await waitHttpOk(`http://127.0.0.1:${apiPort}/readyz`, stack.api);
      return stack.api;
    },
    startWorker,
  };
  return stack;
}

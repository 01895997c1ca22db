import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Stack } from './stack';
import { waitFor } from './wait';

const ROOT = path.resolve(__dirname, '../../..');

/** The real worker (services/worker/src/main.ts) as a child process against the stack's database, Redis prefix and sandbox. */
export function spawnWorker(stack: Stack, env: Record<string, string> = {}): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'services/worker/src/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: stack.config.databaseUrl,
      REDIS_URL: stack.config.redisUrl,
      QUEUE_PREFIX: stack.config.queuePrefix,
      SUPPLIER_URL: stack.sandboxUrl,
      AUTH_URL: stack.authUrl,
      OPS_TOKEN: stack.opsToken,
      WORKER_PORT: '0',
      LOG_LEVEL: 'info',
      // A killed worker's jobs are handed on within seconds, not the production minute.
      JOB_LOCK_MS: '3000',
      JOB_STALLED_INTERVAL_MS: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: string[] };
  child.output = [];
  child.stdout!.on('data', (d) => child.output.push(String(d)));
  child.stderr!.on('data', (d) => child.output.push(String(d)));
  return child;
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Resolves once the worker has started (its start-up log line), so that a signal finds its handlers. */
export function hasStarted(child: ChildProcess & { output: string[] }, deadlineMs = 60_000): Promise<void> {
  return waitFor(() => child.output.join('').includes('worker consuming'), deadlineMs, 'the worker to start').then(
    () => undefined,
  );
}

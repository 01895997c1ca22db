/**
 * Node runs as PID 1 in the image (`exec node`), and PID 1 ignores a signal it has no handler for: the api and the
 * auth service install their SIGTERM handler before anything else, so a SIGTERM during start-up (the migrations,
 * the roster-intake warm-up) shuts them down then. Here Postgres never answers, so start-up never ends; a process
 * not PID 1 would die of an unhandled SIGTERM anyway, so the test checks that the handler ran (a clean exit code
 * and its log line), not merely that the process ended.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { exited, waitFor } from '@crew/test-support';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '../../..');
let silentPostgres: Server;
let port = 0;
const sockets: Socket[] = [];
let connections = 0;
beforeAll(async () => {
  // Accepts connections and never answers: a database still starting, or migrations that take their time.
  silentPostgres = createServer((s) => {
    connections++;
    sockets.push(s);
  });
  await new Promise<void>((r) => silentPostgres.listen(0, '127.0.0.1', r));
  port = (silentPostgres.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silentPostgres.close(r));
});

describe.each([
  ['api', 'services/api/src/main.ts'],
  ['auth', 'services/auth/src/main.ts'],
])('the %s process sent SIGTERM during start-up', (_name, main) => {
  it('shuts down through its handler, promptly', async () => {
    const before = connections;
    const output: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, main)], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/never`,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        QUEUE_PREFIX: 'startup-sigterm',
        API_PORT: '0',
        AUTH_PORT: '0',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => output.push(String(d)));
    child.stderr.on('data', (d) => output.push(String(d)));
    try {
      await waitFor(() => connections > before, 30_000, 'start-up to reach Postgres');
      const sent = Date.now();
      child.kill('SIGTERM');
      const end = await exited(child);
      expect(Date.now() - sent).toBeLessThan(5_000);
      expect(end).toEqual({ code: 0, signal: null });
      expect(output.join('')).toContain('shutting down');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});

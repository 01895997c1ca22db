import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { postgresOutageScenario, type Stack, startStack } from '@crew/test-support';

jest.setTimeout(300_000);

// Stops and starts the machine's whole Postgres server, which every other test would feel: this file runs
// only in the outage project (jest.outage.config.js), serially after the main run (npm test).
const run = promisify(execFile);
const version = readdirSync('/etc/postgresql')
  .sort((a, b) => Number(a) - Number(b))
  .at(-1)!;
const pgCluster = (action: 'stop' | 'start') =>
  run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', action]);

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('pg_restart', { sandboxLatencyMs: 15 });
});

afterAll(async () => {
  // Whatever happened above, Postgres runs again ("already running" is an error exit, ignored).
  await pgCluster('start').catch(() => undefined);
  await stack?.close();
});

it('Postgres restarted mid-roster: no process exits, the roster completes with the same items, the api and worker answer 503 while it is down', async () => {
  await postgresOutageScenario({
    stack,
    apiUrl: stack.apiUrl,
    outage: { down: async () => void (await pgCluster('stop')), up: async () => void (await pgCluster('start')) },
    downMs: 2000,
    carrier: 'PR',
    seed: 22,
  });
});

import { createServer, type Server } from 'node:http';
import { createApiApp } from '@crew/api';
import { createDb, type Db } from '@crew/db';
import { createLogger, listen } from '@crew/platform';
import {
  apiDepsOf,
  postgresOutageScenario,
  type Stack,
  startStack,
  startTcpRelay,
  type TcpRelay,
} from '@crew/test-support';

jest.setTimeout(240_000);

// Postgres "goes away" for this file's services only: the worker child and a second api reach it through a
// TCP relay that the test cuts (every connection dropped, new ones refused) and restores. The real restart
// of the whole server is services/worker/test/postgres-restart.outage.test.ts (run serially by npm test).
let stack: Stack;
let pgRelay: TcpRelay;
let relayedDb: Db;
let api: Server;
let apiUrl: string;

beforeAll(async () => {
  stack = await startStack('pg_unreachable', { sandboxLatencyMs: 15 });
  const target = new URL(stack.config.databaseUrl);
  pgRelay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  target.host = `127.0.0.1:${pgRelay.port}`;
  relayedDb = createDb(target.toString(), { max: 5 });
  api = createServer(createApiApp(apiDepsOf(stack, { db: relayedDb, logger: createLogger('api', 'fatal') })));
  apiUrl = `http://127.0.0.1:${await listen(api, 0, '127.0.0.1')}`;
});

afterAll(async () => {
  api?.closeAllConnections();
  await new Promise((r) => api?.close(r));
  await pgRelay?.restore().catch(() => undefined);
  await relayedDb?.destroy();
  await pgRelay?.close();
  await stack?.close();
});

it('Postgres unreachable for a few seconds mid-roster: no process exits, the roster completes with the same items, the api and worker answer 503 meanwhile', async () => {
  const url = new URL(stack.config.databaseUrl);
  url.host = `127.0.0.1:${pgRelay.port}`;
  await postgresOutageScenario({
    stack,
    apiUrl,
    workerEnv: { DATABASE_URL: url.toString() },
    outage: { down: () => pgRelay.cut(), up: () => pgRelay.restore() },
    downMs: 3000,
    carrier: 'PO',
    seed: 21,
  });
});

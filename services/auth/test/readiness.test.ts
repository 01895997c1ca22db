import { createServer, type Server } from 'node:http';
import { createAuthApp } from '@crew/auth';
import { createDb, SERVING_DB, type Db } from '@crew/db';
import { createLogger, listen } from '@crew/platform';
import { http, type Stack, startStack, startTcpRelay, type TcpRelay, waitFor } from '@crew/test-support';

jest.setTimeout(60_000);

// A second auth service reaches Postgres through a TCP relay the test cuts or silences: its readiness follows
// its database, so Kubernetes takes a pod that lost Postgres out of the Service; liveness does not.
let stack: Stack;
let pgRelay: TcpRelay;
let relayedDb: Db;
let auth: Server;
let authUrl: string;

beforeAll(async () => {
  stack = await startStack('auth_readiness');
  const target = new URL(stack.config.databaseUrl);
  pgRelay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  target.host = `127.0.0.1:${pgRelay.port}`;
  relayedDb = createDb(target.toString(), { ...SERVING_DB, max: 2 });
  auth = createServer(
    createAuthApp({ db: relayedDb, keys: stack.keys, logger: createLogger('auth', 'fatal'), issuer: () => authUrl }),
  );
  authUrl = `http://127.0.0.1:${await listen(auth, 0, '127.0.0.1')}`;
});

afterAll(async () => {
  auth?.closeAllConnections();
  await new Promise((r) => auth?.close(r));
  await pgRelay?.restore().catch(() => undefined);
  await relayedDb?.destroy();
  await pgRelay?.close();
  await stack?.close();
});

async function readyWithin(ms: number): Promise<number> {
  const start = Date.now();
  const res = await http(`${authUrl}/readyz`);
  expect(Date.now() - start).toBeLessThan(ms);
  if (res.status === 503) expect(res.body).toMatchObject({ status: 'not_ready', checks: { postgres: false } });
  return res.status;
}

it.each([
  ['cut (connections refused)', () => pgRelay.cut()],
  ['silent (packets dropped)', () => Promise.resolve(pgRelay.blackHole())],
])(
  'auth /readyz is 200 while Postgres answers, 503 within 3 s when it is %s, 200 again once it is back; /healthz stays 200',
  async (_, down) => {
    expect(await readyWithin(3000)).toBe(200);
    await down();
    try {
      expect(await readyWithin(3000)).toBe(503);
      expect((await http(`${authUrl}/healthz`)).status).toBe(200);
    } finally {
      await pgRelay.restore();
    }
    await waitFor(async () => (await http(`${authUrl}/readyz`)).status === 200, 10_000, 'auth to be ready again');
  },
);

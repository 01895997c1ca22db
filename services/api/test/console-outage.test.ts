import { createServer, type Server } from 'node:http';
import { createApiApp } from '@crew/api';
import { createDb, SERVING_DB, type Db } from '@crew/db';
import { createLogger, listen } from '@crew/platform';
import { apiDepsOf, onboard, type Stack, startStack, startTcpRelay, type TcpRelay, waitFor } from '@crew/test-support';
import { ConsoleClient, consoleUserWithPassword, csrfOf, type PageResult } from './console-client';

jest.setTimeout(60_000);

/*
 * The console while Postgres cannot be reached: an api reaches Postgres through a TCP relay the test cuts (the
 * database is down) or silences (a statement gets no answer within the pool's query timeout, shortened here).
 * A console page then answers 503 with Retry-After, a page saying the service is briefly unavailable, as the
 * JSON API does, never the 500 of a bug; and the page is the console's own once Postgres is back.
 */
const QUERY_TIMEOUT_MS = 1000;
const PASSWORD = 'a password long enough';

let stack: Stack;
let pgRelay: TcpRelay;
let relayedDb: Db;
let api: Server;
let apiUrl: string;

beforeAll(async () => {
  stack = await startStack('console_outage');
  const target = new URL(stack.config.databaseUrl);
  pgRelay = await startTcpRelay({ host: target.hostname, port: Number(target.port || 5432) });
  target.host = `127.0.0.1:${pgRelay.port}`;
  relayedDb = createDb(target.toString(), { ...SERVING_DB, queryTimeoutMs: QUERY_TIMEOUT_MS, max: 3 });
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

let n = 0;
async function signedIn(carrier: string): Promise<ConsoleClient> {
  const t = await onboard(stack, { name: `Outage Air ${carrier}`, carrier });
  const email = `agent${++n}@desk.test`;
  await consoleUserWithPassword(stack, t, email, PASSWORD, 'AGENT');
  const browser = new ConsoleClient(apiUrl);
  expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
  expect((await browser.get('/console')).status).toBe(200);
  return browser;
}

/** The console's page for a database it cannot reach: 503, try again, nothing of the error itself. */
function expectUnavailablePage(page: PageResult): void {
  expect(page.status).toBe(503);
  expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
  expect(page.text).toContain('<html lang="en">');
  expect(page.text).toContain('<h1>Service briefly unavailable</h1>');
  expect(page.text).toMatch(/<p>[^<]*briefly unavailable[^<]*try again[^<]*<\/p>/i);
  expect(page.text).not.toContain('Something went wrong');
  for (const leak of ['ECONNREFUSED', 'ECONNRESET', 'timeout', 'Connection terminated', 'postgres', '    at '])
    expect(page.text).not.toContain(leak);
}

it('Postgres down: a console page and the sign-in form answer 503 "briefly unavailable, try again"; 200 once it is back', async () => {
  const browser = await signedIn('OD');
  const signInForm = await new ConsoleClient(apiUrl).get('/console/sign-in');
  expect(signInForm.status).toBe(200);

  await pgRelay.cut();
  try {
    expectUnavailablePage(await browser.get('/console'));
    expectUnavailablePage(await browser.get('/console/coverage'));
    // Signing in reads the person's login: the form's answer is the same page, the form can be sent again.
    const stranger = new ConsoleClient(apiUrl);
    const form = await stranger.get('/console/sign-in');
    expectUnavailablePage(
      await stranger.post('/console/sign-in', {
        csrf_token: csrfOf(form.text),
        email: 'someone@desk.test',
        password: PASSWORD,
      }),
    );
  } finally {
    await pgRelay.restore();
  }
  await waitFor(async () => (await browser.get('/console')).status === 200, 10_000, 'the console to answer again');
});

it('a statement times out (Postgres silent): 503 "briefly unavailable" within the query timeout; 200 once it answers', async () => {
  const browser = await signedIn('OT');
  pgRelay.blackHole();
  const start = Date.now();
  try {
    expectUnavailablePage(await browser.get('/console'));
    expect(Date.now() - start).toBeLessThan(QUERY_TIMEOUT_MS + 3000);
  } finally {
    await pgRelay.restore();
  }
  await waitFor(async () => (await browser.get('/console')).status === 200, 10_000, 'the console to answer again');
});

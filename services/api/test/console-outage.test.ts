import { onboard, type Stack, type TcpRelay, waitFor } from '@crew/test-support';
import { ConsoleClient, consoleUserWithPassword, csrfOf, type PageResult } from './console-client';
import { type RelayedApi, startRelayedApi } from './relayed-api';

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
let apiUrl: string;
let relayed: RelayedApi;

beforeAll(async () => {
  relayed = await startRelayedApi('console_outage', { queryTimeoutMs: QUERY_TIMEOUT_MS, max: 3 });
  ({ stack, pgRelay, apiUrl } = relayed);
});

afterAll(() => relayed?.close());

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

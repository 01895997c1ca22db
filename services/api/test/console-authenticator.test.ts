import { createServer } from 'node:http';
import express from 'express';
import { listen } from '@crew/platform';
import {
  apiDepsOf,
  CHEAP_PASSWORD_HASH_COST,
  http,
  onboard,
  type Stack,
  startStack,
  type Tenant,
} from '@crew/test-support';
import { ConsoleClient, consoleUserWithPassword, csrfOf, outcome } from './console-client';
import { totpCode } from '../src/console/totp';
import { consoleDeps, type ConsoleUser } from '../src/console/context';
import { requireConsoleUser, resolveSession } from '../src/console/session';

/*
 * Authenticator apps (enrolment, codes at sign-in, no replay, an airline requiring them) and roles
 * (requireConsoleUser for the pages built on the console), over HTTP against the real stack; the api's clock is
 * moved by the tests. The rest of sign-in: console-auth.test.ts.
 */

const START = Date.parse('2027-03-01T08:00:00Z');
let clock = START;
const advance = (ms: number) => (clock += ms);
const MINUTE = 60_000;
const PASSWORD = 'a password long enough';

let stack: Stack;
let t: Tenant;
let n = 0;
const email = () => `person${++n}@desk.test`;

beforeAll(async () => {
  // The subject is the authenticator step, not the password hash's cost: a cheap hash per sign-in.
  stack = await startStack('console-totp', { now: () => new Date(clock), passwordHashCost: CHEAP_PASSWORD_HASH_COST });
  t = await onboard(stack, { name: 'Desk Air', carrier: 'DA' });
});
afterAll(() => stack.close());

describe('authenticator apps (TOTP)', () => {
  const secretOf = (page: string) =>
    /<code class="secret" id="totp-secret">([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, '');

  it('a person enrols an app; from then on sign-in needs its code, once', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.signIn(who, PASSWORD);
    const page = await browser.get('/console/account/authenticator');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label for="totp_code">Authenticator code<\/label>/);
    expect(page.text).toContain('<button type="submit">Enable</button>');
    expect(page.text).toMatch(/otpauth:\/\/totp\//);
    const secret = secretOf(page.text);
    // The secret is stored sealed, never as text: on the session being shown it until it is enabled.
    const sealedOf = async () => {
      const rows = await stack.database.db
        .selectFrom('console_sessions as s')
        .innerJoin('console_users as u', 'u.user_id', 's.user_id')
        .select(['s.totp_pending_sealed', 'u.totp_secret_sealed'])
        .where('u.email', '=', who)
        .where('s.revoked_at', 'is', null)
        .execute();
      return rows[0]!;
    };
    const pending = await sealedOf();
    expect(pending.totp_pending_sealed).toMatch(/^v2\./);
    expect(pending.totp_pending_sealed).not.toContain(secret);
    expect(pending.totp_secret_sealed).toBeNull();

    const wrong = await browser.post('/console/account/authenticator', {
      csrf_token: csrfOf(page.text),
      totp_code: '000000',
    });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain('That code is not the one the app shows now.');
    const enable = await browser.post('/console/account/authenticator', {
      csrf_token: csrfOf(page.text),
      totp_code: totpCode(secret, new Date(clock)),
    });
    expect([enable.status, enable.location]).toEqual([303, '/console']);
    const enabled = await sealedOf();
    expect(enabled.totp_secret_sealed).toMatch(/^v2\./);
    expect(enabled.totp_secret_sealed).not.toContain(secret);
    const list = await http(`${stack.apiUrl}/api/v1/crew/console-users`, { token: t.accessToken });
    expect(list.body.console_users.find((u: { email: string }) => u.email === who).totp_enabled).toBe(true);

    advance(MINUTE);
    const fresh = new ConsoleClient(stack.apiUrl);
    expect(outcome(await fresh.signIn(who, PASSWORD))).toBe('refused');
    const code = totpCode(secret, new Date(clock));
    expect(outcome(await fresh.signIn(who, PASSWORD, code))).toBe('signed in');
    // The same code again is refused (no replay).
    expect(outcome(await new ConsoleClient(stack.apiUrl).signIn(who, PASSWORD, code))).toBe('refused');
  });

  it('wrong codes for one person are limited across addresses: after 10, 429 everywhere, the right code too', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.signIn(who, PASSWORD);
    const page = await browser.get('/console/account/authenticator');
    const secret = secretOf(page.text);
    const enable = await browser.post('/console/account/authenticator', {
      csrf_token: csrfOf(page.text),
      totp_code: totpCode(secret, new Date(clock)),
    });
    expect(enable.status).toBe(303);
    advance(MINUTE);
    const right = totpCode(secret, new Date(clock));
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    // The password is known (stolen): each wrong code comes from another address, each within its own limit.
    for (let i = 0; i < 10; i++)
      expect(
        outcome(await new ConsoleClient(stack.apiUrl).signInFrom(`203.0.113.${i + 1}`, who, PASSWORD, wrong)),
      ).toBe('refused');
    const held = await new ConsoleClient(stack.apiUrl).signInFrom('203.0.113.99', who, PASSWORD, right);
    expect(held.status).toBe(429);
    expect(stack.logLines.some((l) => l.includes('"rate_limited"') && l.includes('"limit":"totp"'))).toBe(true);
    // Another person is not held up, from the same addresses.
    const other = email();
    await consoleUserWithPassword(stack, t, other, PASSWORD);
    expect(outcome(await new ConsoleClient(stack.apiUrl).signInFrom('203.0.113.1', other, PASSWORD))).toBe('signed in');
  });

  it('an airline that requires it sends a person without an app to enrol before any other page', async () => {
    const desk = await onboard(stack, { name: 'Strict Air', carrier: 'SA' });
    await http(`${stack.apiUrl}/api/v1/crew/console-settings`, {
      method: 'PUT',
      token: desk.accessToken,
      body: { require_totp: true },
    });
    const who = email();
    await consoleUserWithPassword(stack, desk, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    expect((await browser.signIn(who, PASSWORD)).status).toBe(303);
    const home = await browser.get('/console');
    expect([home.status, home.location]).toEqual([303, '/console/account/authenticator']);
    const page = await browser.get('/console/account/authenticator');
    expect(page.text).toContain('Your airline requires an authenticator app');
    const enable = await browser.post('/console/account/authenticator', {
      csrf_token: csrfOf(page.text),
      totp_code: totpCode(secretOf(page.text), new Date(clock)),
    });
    expect(enable.status).toBe(303);
    expect((await browser.get('/console')).status).toBe(200);
  });
});

describe('enrolment and the person’s other sessions', () => {
  const AUTHENTICATOR = '/console/account/authenticator';
  const secretOf = (page: string) =>
    /<code class="secret" id="totp-secret">([A-Z2-7 ]+)<\/code>/.exec(page)![1]!.replace(/ /g, '');

  async function twoBrowsers(who: string): Promise<[ConsoleClient, ConsoleClient]> {
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const a = new ConsoleClient(stack.apiUrl);
    const b = new ConsoleClient(stack.apiUrl);
    expect(outcome(await a.signIn(who, PASSWORD))).toBe('signed in');
    expect(outcome(await b.signIn(who, PASSWORD))).toBe('signed in');
    return [a, b];
  }

  it('enabling an app ends every other session of the person and gives this browser a new session id', async () => {
    const [a, b] = await twoBrowsers(email());
    // A: a session opened with the password alone (a thief's, say).
    expect((await a.get('/console')).status).toBe(200);
    const before = b.cookies.get('console_session')!;
    const page = await b.get(AUTHENTICATOR);
    const enable = await b.post(AUTHENTICATOR, {
      csrf_token: csrfOf(page.text),
      totp_code: totpCode(secretOf(page.text), new Date(clock)),
    });
    expect([enable.status, enable.location]).toEqual([303, '/console']);
    const after = b.cookies.get('console_session');
    expect(after).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(after).not.toBe(before);
    expect((await b.get('/console')).status).toBe(200);

    const inA = await a.get('/console');
    expect(inA.status).toBe(303);
    expect(inA.location).toMatch(/^\/console\/sign-in\?ended=1/);
    const old = new ConsoleClient(stack.apiUrl);
    old.cookies.set('console_session', before);
    const withOld = await old.get('/console');
    expect(withOld.status).toBe(303);
    expect(withOld.location).toMatch(/^\/console\/sign-in\?ended=1/);
  });

  it('the secret being enrolled is the session’s own: another session gets another, and a code of the first is refused there', async () => {
    const who = email();
    const [a, b] = await twoBrowsers(who);
    const first = secretOf((await a.get(AUTHENTICATOR)).text);
    const pageB = await b.get(AUTHENTICATOR);
    const second = secretOf(pageB.text);
    expect(second).not.toBe(first);
    // Each session is shown its own again.
    expect(secretOf((await a.get(AUTHENTICATOR)).text)).toBe(first);
    expect(secretOf((await b.get(AUTHENTICATOR)).text)).toBe(second);

    const foreign = await b.post(AUTHENTICATOR, {
      csrf_token: csrfOf(pageB.text),
      totp_code: totpCode(first, new Date(clock)),
    });
    expect(foreign.status).toBe(200);
    expect(foreign.text).toContain('That code is not the one the app shows now.');
    expect(secretOf(foreign.text)).toBe(second);
    const own = await b.post(AUTHENTICATOR, {
      csrf_token: csrfOf(pageB.text),
      totp_code: totpCode(second, new Date(clock)),
    });
    expect([own.status, own.location]).toEqual([303, '/console']);

    // Sign-in from now on takes the codes of the secret enabled, and only those.
    advance(MINUTE);
    const code = (secret: string) => totpCode(secret, new Date(clock));
    expect(outcome(await new ConsoleClient(stack.apiUrl).signIn(who, PASSWORD, code(first)))).toBe('refused');
    expect(outcome(await new ConsoleClient(stack.apiUrl).signIn(who, PASSWORD, code(second)))).toBe('signed in');
  });
});

describe('requireConsoleUser(role), for the pages built on the console', () => {
  it('AGENT pages refuse a VIEWER (403) and let an AGENT through with the person on res.locals.consoleUser', async () => {
    const deps = consoleDeps({ ...apiDepsOf(stack), now: () => new Date(clock) });
    const app = express();
    app.get('/console/act', resolveSession(deps), requireConsoleUser('AGENT'), (_req, res) => {
      const user = res.locals.consoleUser as ConsoleUser;
      res.json({ email: user.email, role: user.role });
    });
    const server = createServer(app);
    const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    try {
      const agent = email();
      const viewer = email();
      await consoleUserWithPassword(stack, t, agent, PASSWORD, 'AGENT');
      await consoleUserWithPassword(stack, t, viewer, PASSWORD, 'VIEWER');
      for (const [who, status] of [
        [agent, 200],
        [viewer, 403],
      ] as const) {
        const browser = new ConsoleClient(stack.apiUrl);
        expect(outcome(await browser.signIn(who, PASSWORD))).toBe('signed in');
        const there = new ConsoleClient(url);
        there.cookies.set('console_session', browser.cookies.get('console_session')!);
        const res = await there.get('/console/act');
        expect([who, res.status]).toEqual([who, status]);
        if (status === 200) expect(JSON.parse(res.text)).toEqual({ email: who, role: 'AGENT' });
        else expect(res.text).toContain('Your role in the console only lets you read.');
      }
      expect((await new ConsoleClient(url).get('/console/act')).location).toBe(
        '/console/sign-in?next=%2Fconsole%2Fact',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

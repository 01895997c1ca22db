import { createServer } from 'node:http';
import { createApiApp } from '@crew/api';
import { sql } from '@crew/db';
import { listen } from '@crew/platform';
import { apiDepsOf, CHEAP_PASSWORD_HASH_COST, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import {
  ConsoleClient,
  consoleUserWithPassword,
  csrfOf,
  invitePath,
  inviteConsoleUser,
  outcome,
} from './console-client';

/*
 * The console's sign-in over HTTP against the real stack: invitations (single use, 72 hours), passwords,
 * sessions (cookie flags, idle and absolute expiry, sign-out), anti-forgery on every form, the
 * Content-Security-Policy, escaping and the sign-in rate limit (authenticator apps and roles:
 * console-authenticator.test.ts). The clock of sessions and invitations is the api's `now`, moved by the tests.
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
  // Some 170 refused tries pay a hash each (or the decoy's): a cheap one, the limits under test are the same.
  stack = await startStack('console-auth', { now: () => new Date(clock), passwordHashCost: CHEAP_PASSWORD_HASH_COST });
  t = await onboard(stack, { name: 'Desk Air', carrier: 'DA' });
});
afterAll(() => stack.close());

describe('the invitation link', () => {
  it('shows a form labelled Password / Repeat password / Set password with its csrf_token; sets the password once', async () => {
    const created = await inviteConsoleUser(stack, t, email());
    const path = invitePath(created.body.invite_url);
    const browser = new ConsoleClient(stack.apiUrl);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<label for="password">Password<\/label>/);
    expect(page.text).toMatch(/<label for="password_repeat">Repeat password<\/label>/);
    expect(page.text).toMatch(/<button type="submit">Set password<\/button>/);
    expect(page.text).toMatch(/<input type="hidden" name="csrf_token" value="[A-Za-z0-9_-]{43}"/);

    const mismatch = await browser.post(path, {
      csrf_token: csrfOf(page.text),
      password: PASSWORD,
      password_repeat: 'x',
    });
    expect(mismatch.status).toBe(200);
    expect(mismatch.text).toContain('The two passwords are not the same.');
    const short = await browser.post(path, {
      csrf_token: csrfOf(page.text),
      password: 'short',
      password_repeat: 'short',
    });
    expect(short.status).toBe(200);
    expect(short.text).toContain('The password needs at least 12 characters.');

    const ok = await browser.post(path, {
      csrf_token: csrfOf(page.text),
      password: PASSWORD,
      password_repeat: PASSWORD,
    });
    expect([ok.status, ok.location]).toEqual([303, '/console/sign-in?password_set=1']);
    // Single use: the page and the form are refused from now on.
    expect((await browser.get(path)).status).toBe(410);
    const again = await browser.post(path, {
      csrf_token: csrfOf(page.text),
      password: 'another password 123',
      password_repeat: 'another password 123',
    });
    expect(again.status).toBe(410);
    expect(outcome(await browser.signIn(created.body.email, 'another password 123'))).toBe('refused');
    expect((await browser.signIn(created.body.email, PASSWORD)).status).toBe(303);
  });

  it('expires after 72 hours', async () => {
    const created = await inviteConsoleUser(stack, t, email());
    const path = invitePath(created.body.invite_url);
    const browser = new ConsoleClient(stack.apiUrl);
    advance(72 * 60 * MINUTE - 1000);
    const page = await browser.get(path);
    expect(page.status).toBe(200);
    advance(2000);
    expect((await browser.get(path)).status).toBe(410);
    const post = await browser.post(path, {
      csrf_token: csrfOf(page.text),
      password: PASSWORD,
      password_repeat: PASSWORD,
    });
    expect(post.status).toBe(410);
  });

  it('an unknown token is 404; the token never reaches the request log', async () => {
    expect((await new ConsoleClient(stack.apiUrl).get(`/console/invite/${'A'.repeat(43)}`)).status).toBe(404);
    const created = await inviteConsoleUser(stack, t, email());
    const path = invitePath(created.body.invite_url);
    await new ConsoleClient(stack.apiUrl).get(path);
    const token = path.split('/').pop()!;
    expect(stack.logLines.some((l) => l.includes('/console/invite/[REDACTED]'))).toBe(true);
    expect(stack.logLines.filter((l) => l.includes(token))).toEqual([]);
  });

  it('the link in another case is still the console’s: its headers and checks, and the token stays out of the log', async () => {
    const created = await inviteConsoleUser(stack, t, email());
    const path = invitePath(created.body.invite_url);
    const token = path.split('/').pop()!;
    // Express routes paths in any case: the console's middleware must see them all.
    for (const other of [path.replace('/console/', '/Console/'), path.replace('/console/', '/CONSOLE/')]) {
      const page = await new ConsoleClient(stack.apiUrl).get(other);
      expect([other, page.status]).toEqual([other, 200]);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      const post = await new ConsoleClient(stack.apiUrl).post(other, { password: PASSWORD, password_repeat: PASSWORD });
      expect([other, post.status]).not.toEqual([other, 200]);
      expect(post.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect(stack.logLines.some((l) => l.includes('/Console/invite/[REDACTED]'))).toBe(true);
    expect(stack.logLines.filter((l) => l.includes(token))).toEqual([]);
    // Nothing was set without the form's csrf_token: the link still works.
    expect((await new ConsoleClient(stack.apiUrl).get(path)).status).toBe(200);
  });

  it('a password that cannot be stored leaves the link unused: the person sets it again with the same link', async () => {
    const who = email();
    const created = await inviteConsoleUser(stack, t, who);
    const path = invitePath(created.body.invite_url);
    const browser = new ConsoleClient(stack.apiUrl);
    const db = stack.database.db;
    // This test's own database: storing a password hash fails, as a lost connection or a full disk would.
    await sql`create function refuse_password_hash() returns trigger language plpgsql as $$
      begin raise exception 'password store unavailable'; end $$`.execute(db);
    await sql`create trigger refuse_password_hash before update of password_hash on console_users
      for each row execute function refuse_password_hash()`.execute(db);
    try {
      const failed = await browser.submit(path, { password: PASSWORD, password_repeat: PASSWORD });
      expect(failed.status).toBe(500);
    } finally {
      await sql`drop trigger refuse_password_hash on console_users`.execute(db);
      await sql`drop function refuse_password_hash()`.execute(db);
    }
    const invitation = await db
      .selectFrom('console_invitations')
      .select('used_at')
      .where('user_id', '=', created.body.user_id)
      .executeTakeFirstOrThrow();
    expect(invitation.used_at).toBeNull();
    const set = await browser.submit(path, { password: PASSWORD, password_repeat: PASSWORD });
    expect([set.status, set.location]).toEqual([303, '/console/sign-in?password_set=1']);
    expect(outcome(await browser.signIn(who, PASSWORD))).toBe('signed in');
  });
});

describe('sign-in and sessions', () => {
  it('the sign-in page has E-mail, Password, Authenticator code and Sign in, and a csrf_token', async () => {
    const page = await new ConsoleClient(stack.apiUrl).get('/console/sign-in');
    expect(page.status).toBe(200);
    for (const label of ['E-mail', 'Password', 'Authenticator code'])
      expect(page.text).toMatch(new RegExp(`<label for="[a-z_]+">${label}</label>`));
    expect(page.text).toContain('<button type="submit">Sign in</button>');
    expect(csrfOf(page.text)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a wrong password or an unknown e-mail is refused (the form again, no session); both logged without secrets', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    const wrong = await browser.signIn(who, 'not the password at all');
    expect(outcome(wrong)).toBe('refused');
    expect(wrong.text).toMatch(/<div class="error" role="alert">/);
    expect(browser.cookies.has('console_session')).toBe(false);
    expect(outcome(await browser.signIn('nobody@desk.test', PASSWORD))).toBe('refused');
    expect((await browser.get('/console')).status).toBe(303);
    const audit = stack.logLines.filter((l) => l.includes('"console_sign_in"'));
    expect(audit.some((l) => l.includes('"refused"'))).toBe(true);
    expect(audit.filter((l) => l.includes('not the password at all') || l.includes(who))).toEqual([]);
  });

  it('an e-mail that is no e-mail (a NUL byte, no @) is refused as an unknown one, counted by the limit, nothing logged as an error', async () => {
    const browser = new ConsoleClient(stack.apiUrl);
    const errorsBefore = stack.logLines.filter((l) => l.includes('console request failed')).length;
    for (const typed of ['a\u0000@x.test', 'person1@desk.test\u0000', 'not an e-mail', `${'a'.repeat(250)}@x.test`]) {
      const res = await browser.signIn(typed, PASSWORD);
      expect([JSON.stringify(typed), outcome(res)]).toEqual([JSON.stringify(typed), 'refused']);
      expect(res.text).not.toContain('\u0000');
    }
    expect(browser.cookies.has('console_session')).toBe(false);
    expect(stack.logLines.filter((l) => l.includes('console request failed')).length).toBe(errorsBefore);
    // Refusals, not successes: the eleventh try for the same text from this address is held up.
    for (let i = 0; i < 10; i++)
      expect(outcome(await browser.signIn('b\u0000@x.test', `${PASSWORD} ${i}`))).toBe('refused');
    expect((await browser.signIn('b\u0000@x.test', PASSWORD)).status).toBe(429);
  });

  it('signing in sets an httpOnly, SameSite=Strict cookie on /console (not Secure outside production), a new id each time', async () => {
    const who = email();
    const id = await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    const first = await browser.signIn(who, PASSWORD);
    expect([first.status, first.location]).toEqual([303, '/console']);
    const cookie = first.setCookies.find((c) => c.startsWith('console_session='))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Strict/i);
    expect(cookie).toMatch(/; Path=\/console(;|$)/);
    expect(cookie).not.toMatch(/; Secure/i);
    const firstId = browser.cookies.get('console_session')!;
    const home = await browser.get('/console');
    expect(home.status).toBe(200);
    expect(home.text).toContain('<h1>Review queue</h1>');
    expect(home.text).toContain('<button type="submit">Sign out</button>');
    expect(
      stack.logLines.some((l) => l.includes('"console_sign_in"') && l.includes('"success"') && l.includes(id)),
    ).toBe(true);

    // Signed in, the sign-in page sends the person on; a sign-in form still open in another tab signs in anew.
    expect((await browser.get('/console/sign-in')).location).toBe('/console');
    const again = await browser.post('/console/sign-in', {
      csrf_token: browser.cookies.get('console_form')!,
      email: who,
      password: PASSWORD,
    });
    expect(again.status).toBe(303);
    const secondId = browser.cookies.get('console_session')!;
    expect(secondId).not.toBe(firstId);
    // The database keeps only hashes of session ids.
    const rows = await stack.database.db.selectFrom('console_sessions').select('session_id_hash').execute();
    expect(JSON.stringify(rows)).not.toContain(secondId);
    // The session this browser held before signing in again has ended.
    const stale = new ConsoleClient(stack.apiUrl);
    stale.cookies.set('console_session', firstId);
    expect((await stale.get('/console')).status).toBe(303);
  });

  it('the cookie is Secure when NODE_ENV=production', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const app = createApiApp(
      apiDepsOf(stack, { config: { ...stack.config, nodeEnv: 'production' }, now: () => new Date(clock) }),
    );
    const server = createServer(app);
    const url = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
    try {
      const signedIn = await new ConsoleClient(url).signIn(who, PASSWORD);
      expect(signedIn.status).toBe(303);
      expect(signedIn.setCookies.find((c) => c.startsWith('console_session='))).toMatch(/; Secure/i);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('an idle session ends after CONSOLE_SESSION_IDLE_MINUTES (30) and lands on sign-in', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.signIn(who, PASSWORD);
    advance(29 * MINUTE);
    expect((await browser.get('/console')).status).toBe(200);
    advance(29 * MINUTE);
    expect((await browser.get('/console')).status).toBe(200);
    advance(31 * MINUTE);
    const ended = await browser.get('/console');
    expect([ended.status, ended.location]).toEqual([303, '/console/sign-in?ended=1&next=%2Fconsole']);
    const signIn = await browser.get(ended.location!);
    expect(signIn.text).toContain('Your session has ended.');
  });

  it('a busy session still ends CONSOLE_SESSION_MAX_HOURS (12) after sign-in', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.signIn(who, PASSWORD);
    for (let i = 0; i < 35; i++) {
      advance(20 * MINUTE);
      expect([i, (await browser.get('/console')).status]).toEqual([i, 200]);
    }
    advance(20 * MINUTE);
    expect((await browser.get('/console')).status).toBe(303);
  });

  it('"Sign out" ends the session: the old cookie no longer opens a page', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.signIn(who, PASSWORD);
    const id = browser.cookies.get('console_session')!;
    const out = await browser.submit('/console', {}, '/console/sign-out');
    expect(out.status).toBe(200);
    expect(out.text).toContain('You have signed out.');
    expect(out.text).not.toContain('Sign out</button>');
    expect(browser.cookies.has('console_session')).toBe(false);
    const replay = new ConsoleClient(stack.apiUrl);
    replay.cookies.set('console_session', id);
    expect((await replay.get('/console')).status).toBe(303);
  });
});

describe('forms, headers and escaping', () => {
  it('a form posted without its csrf_token (or with another one, or from another site) is refused with 403', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.get('/console/sign-in');
    expect((await browser.post('/console/sign-in', { email: who, password: PASSWORD })).status).toBe(403);
    expect(browser.cookies.has('console_session')).toBe(false);
    await browser.signIn(who, PASSWORD);
    const home = await browser.get('/console');
    expect((await browser.post('/console/sign-out', {})).status).toBe(403);
    expect((await browser.post('/console/sign-out', { csrf_token: 'x'.repeat(43) })).status).toBe(403);
    const foreign = await browser.post(
      '/console/sign-out',
      { csrf_token: csrfOf(home.text) },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('Form not accepted');
    // Still signed in: nothing was done.
    expect((await browser.get('/console')).status).toBe(200);
    const created = await inviteConsoleUser(stack, t, email());
    const invite = await new ConsoleClient(stack.apiUrl).post(invitePath(created.body.invite_url), {
      password: PASSWORD,
      password_repeat: PASSWORD,
    });
    expect(invite.status).toBe(403);
  });

  it('pages carry a strict Content-Security-Policy, no-store and no script; outside text is escaped', async () => {
    const browser = new ConsoleClient(stack.apiUrl);
    await browser.get('/console/sign-in');
    const hostile = '"><script>alert(1)</script>@x.test';
    const page = await browser.signIn(hostile, PASSWORD);
    expect(outcome(page)).toBe('refused');
    const csp = page.headers.get('content-security-policy')!;
    for (const directive of ["default-src 'self'", "script-src 'none'", "form-action 'self'", "frame-ancestors 'none'"])
      expect(csp).toContain(directive);
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test');
  });

  it('unknown console pages are an HTML 404, not the API’s JSON', async () => {
    const res = await new ConsoleClient(stack.apiUrl).get('/console/no-such-page');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('sign-in is rate-limited: after 10 refused tries for one e-mail from one address, 429', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    for (let i = 0; i < 10; i++) expect(outcome(await browser.signIn(who, `wrong password ${i}`))).toBe('refused');
    expect((await browser.signIn(who, PASSWORD)).status).toBe(429);
    // Another person at the same address is not held up.
    const other = email();
    await consoleUserWithPassword(stack, t, other, PASSWORD);
    expect((await browser.signIn(other, PASSWORD)).status).toBe(303);
  });

  it('one e-mail guessed from many addresses: after 30 refused tries across them, 429 from any address, the right password too', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    // Three /56 prefixes (IPv6 is grouped by /56), ten tries each: each address stays within its own limit.
    const prefixes = ['2001:db8:0:100::1', '2001:db8:0:200::1', '2001:db8:0:300::1'];
    for (const [p, address] of prefixes.entries())
      for (let i = 0; i < 10; i++)
        expect(outcome(await browser.signInFrom(address, who, `wrong password ${p}.${i}`))).toBe('refused');
    expect((await browser.signInFrom('2001:db8:0:400::1', who, PASSWORD)).status).toBe(429);
    expect((await browser.signInFrom('198.51.100.31', who, PASSWORD)).status).toBe(429);
    // Another person at one of those addresses is not held up.
    const other = email();
    await consoleUserWithPassword(stack, t, other, PASSWORD);
    expect(outcome(await browser.signInFrom(prefixes[0]!, other, PASSWORD))).toBe('signed in');
  });

  it('many e-mails tried from one address: after 100 refused tries, 429 there for anyone; other addresses go on', async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const address = '198.51.100.40';
    const tries = Array.from({ length: 100 }, (_, i) => `sprayed${i}@desk.test`);
    for (let i = 0; i < tries.length; i += 10)
      await Promise.all(
        tries.slice(i, i + 10).map(async (e) => {
          expect(outcome(await new ConsoleClient(stack.apiUrl).signInFrom(address, e, PASSWORD))).toBe('refused');
        }),
      );
    const held = await new ConsoleClient(stack.apiUrl).signInFrom(address, who, PASSWORD);
    expect(held.status).toBe(429);
    expect(held.text).toContain('Too many attempts to sign in.');
    expect(outcome(await new ConsoleClient(stack.apiUrl).signInFrom('198.51.100.41', who, PASSWORD))).toBe('signed in');
    // A shift signing in at one office is not counted: successes never are.
    const audit = stack.logLines.filter((l) => l.includes('"rate_limited"'));
    expect(audit.some((l) => l.includes('"limit":"address"'))).toBe(true);
  }, 60_000);

  it("behind the ingress each client's address has its own limit; a client's own X-Forwarded-For is not believed", async () => {
    const who = email();
    await consoleUserWithPassword(stack, t, who, PASSWORD);
    const browser = new ConsoleClient(stack.apiUrl);
    // This test connects over loopback, as the ingress does over the cluster's network: the header names the client.
    const from = async (client: string, password: string) => {
      const page = await browser.get('/console/sign-in');
      const form = { csrf_token: csrfOf(page.text), email: who, password };
      return browser.post('/console/sign-in', form, { 'x-forwarded-for': client });
    };
    for (let i = 0; i < 10; i++) expect(outcome(await from('198.51.100.1', `wrong password ${i}`))).toBe('refused');
    expect((await from('198.51.100.1', PASSWORD)).status).toBe(429);
    expect(outcome(await from('198.51.100.2', PASSWORD))).toBe('signed in');
    // Whose header is believed: proxies on a loopback or private network, never an address from the internet.
    const trusts = createApiApp(apiDepsOf(stack)).get('trust proxy fn') as (address: string, hop: number) => boolean;
    const proxies = ['10.4.0.17', '172.20.1.2', '192.168.1.9', 'fd12::5', '127.0.0.1', '::1'];
    expect(proxies.filter((a) => !trusts(a, 0))).toEqual([]);
    expect(['203.0.113.7', '198.51.100.20', '2001:db8::1', '8.8.8.8'].filter((a) => trusts(a, 0))).toEqual([]);
  });
});

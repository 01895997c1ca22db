/**
 * The console's sign-in as a person does it: headless Chromium (playwright-core, Debian's /usr/bin/chromium)
 * finds every control by its visible label or name, accepts an invitation, signs in and out, meets an expired
 * session, and axe-core checks each page for serious or critical accessibility faults.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import { inviteConsoleUser, invitePath } from './console-client';

jest.setTimeout(120_000);

const MINUTE = 60_000;
const PASSWORD = 'correct horse battery staple';
let clock = Date.parse('2027-03-01T08:00:00Z');

let stack: Stack;
let t: Tenant;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startStack('console-browser', { now: () => new Date(clock) });
  t = await onboard(stack, { name: 'Desk Air', carrier: 'DA' });
  profile = mkdtempSync(join(tmpdir(), 'crew-console-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = context.pages()[0] ?? (await context.newPage());
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await stack?.close();
});

/** axe-core on the page as it is now: no serious or critical violation. */
async function expectAccessible(what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ page: what, rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.html) }));
  expect(bad).toEqual([]);
}

const url = (path: string) => `${stack.apiUrl}${path}`;

async function signIn(email: string): Promise<void> {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the console in a browser', () => {
  const email = 'agent@desk.test';

  it('a person accepts the invitation (sets a password), signs in and signs out', async () => {
    const created = await inviteConsoleUser(stack, t, email, 'AGENT');
    expect(created.status).toBe(201);
    const invite = invitePath(created.body.invite_url);

    await page.goto(url(invite));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Set your password');
    await expectAccessible('invitation');
    // A mismatch is explained next to the field, and the page stays accessible.
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: 'Set password' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('The password was not set');
    await expectAccessible('invitation with an error');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();

    await page.waitForURL(/\/console\/sign-in\?password_set=1$/);
    expect(await page.getByRole('status').textContent()).toContain('Your password is set');
    await expectAccessible('sign-in');

    // The link was single use.
    const again = await page.goto(url(invite));
    expect(again!.status()).toBe(410);
    await expectAccessible('invitation no longer valid');

    // Signing in from the keyboard alone: type, Tab, type, Enter.
    await page.goto(url('/console/sign-in'));
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/console'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Review queue');
    await expectAccessible('review queue');

    const cookie = (await context.cookies(url('/console'))).find((c) => c.name === 'console_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console', secure: false });

    await page.getByRole('link', { name: 'Authenticator app' }).click();
    await page.waitForURL(url('/console/account/authenticator'));
    expect(await page.getByLabel('Authenticator code').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Enable' }).count()).toBe(1);
    await expectAccessible('authenticator app');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You have signed out.' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await expectAccessible('signed out');
    await page.goto(url('/console'));
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });

  it('an expired session lands on sign-in, and signing in there goes back to the page', async () => {
    await page.goto(url('/console/sign-in'));
    await signIn(email);
    await page.waitForURL(url('/console'));
    clock += 31 * MINUTE;
    await page.goto(url('/console/account/authenticator'));
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect(await page.getByRole('status').textContent()).toContain('Your session has ended.');
    await expectAccessible('sign-in after an expired session');
    await signIn(email);
    await page.waitForURL(url('/console/account/authenticator'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Authenticator app');
  });

  it('a wrong password is refused with an alert; the page stays accessible', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You have signed out.' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not the right password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('not right');
    await expectAccessible('sign-in refused');
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    expect((await context.cookies(url('/console'))).some((c) => c.name === 'console_session')).toBe(false);
  });
});

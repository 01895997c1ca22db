/**
 * The travel desk's review work as a person does it, in headless Chromium (playwright-core, Debian's
 * /usr/bin/chromium): an agent accepts the invitation, signs in, opens the queue, opens a deadhead waiting to
 * be booked by hand, presses "Book" on a live option (the booking ends CONFIRMED), dismisses a layover with a
 * reason, reads the coverage board, has a form without its csrf_token refused, and signs out. axe-core finds
 * no serious or critical fault on the queue, item, coverage, spend and refusal pages. With UPDATE_SCREENSHOTS=1 it
 * saves docs/console-{queue,item,coverage,spend}.png.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { http, type Stack, startStack, waitFor } from '@crew/test-support';
import { inviteConsoleUser, invitePath } from './console-client';
import { DAY1, reviewAirline, type ReviewAirline } from './console-review-stack';

jest.setTimeout(180_000);

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'agent@review.test';
const DOCS = resolve(__dirname, '..', '..', '..', 'docs');
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

let stack: Stack;
let air: ReviewAirline;
let profile: string;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  // The real clock: the queue's time left and the coverage board's windows count from now.
  stack = await startStack('console-review-browser', { worker: true });
  air = await reviewAirline(stack, { name: 'Desk Review Air', carrier: 'DR' });
  profile = mkdtempSync(join(tmpdir(), 'crew-console-review-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
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

const url = (path: string) => `${stack.apiUrl}${path}`;
const heading = () => page.getByRole('heading', { level: 1 }).textContent();

/** axe-core on the page as it is now: no serious or critical violation. */
async function expectAccessible(what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ page: what, rule: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.html) }));
  expect(bad).toEqual([]);
}

async function screenshot(name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: join(DOCS, name), fullPage: true });
}

const api = (path: string) => http(`${stack.apiUrl}/api/v1${path}`, { token: air.t.accessToken });

describe('the review queue in a browser', () => {
  it('an agent signs in and finds the open items on the queue, time left in words', async () => {
    const created = await inviteConsoleUser(stack, air.t, EMAIL, 'AGENT');
    expect(created.status).toBe(201);
    await page.goto(url(invitePath(created.body.invite_url)));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL(/\/console\/sign-in\?password_set=1$/);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/console'));

    expect(await heading()).toBe('Review queue');
    const table = page.getByRole('table', { name: 'Action items, soonest deadline first' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Time left',
      'Item',
      'Crew member',
      'Pairing',
      'Priority',
      'Why in review',
      'Assignee',
    ]);
    expect(await table.getByRole('link', { name: 'Deadhead LHR → JFK' }).count()).toBeGreaterThan(0);
    expect(await table.getByRole('link', { name: 'Layover at JFK' }).count()).toBeGreaterThan(0);
    // Every row says in words where it stands: colour is never alone.
    const firstRow = table.getByRole('row').nth(1);
    expect(await firstRow.getByRole('cell').first().textContent()).toMatch(/Overdue|Due soon|Later|No deadline/);
    await expectAccessible('review queue');
    await screenshot('console-queue.png');

    // The filter form, from the keyboard: the labelled controls and the Filter button.
    await page.getByLabel('Type').selectOption('FLIGHT');
    await page.getByLabel('Station').fill('LHR');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/type=FLIGHT/);
    expect(await table.getByRole('link', { name: 'Layover at JFK' }).count()).toBe(0);
    expect(await table.getByRole('link', { name: 'Deadhead LHR → JFK' }).count()).toBe(1);

    // A filter value the queue does not know (a link typed by hand) is a 400 page naming the filter by its label,
    // with the form to correct it and no list.
    const unknown = await page.goto(url('/console?priority=p1'));
    expect(unknown?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('Priority must be');
    expect(await page.getByLabel('Priority').count()).toBe(1);
    expect(await page.getByRole('table').count()).toBe(0);
    await expectAccessible('queue filter refused');
  });

  it('opens the BOOK_MANUALLY deadhead, presses Book on a live option, and the booking ends CONFIRMED', async () => {
    await page.goto(url('/console'));
    await page.getByRole('link', { name: 'Deadhead LHR → JFK' }).first().click();
    await page.waitForURL(url(`/console/items/${air.flight.action_id}`));
    expect(await heading()).toBe('Deadhead LHR → JFK');
    expect(await page.getByRole('heading', { name: 'Rostered flight' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Booked flight' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Booking history' }).count()).toBe(1);
    const options = page.getByRole('table', { name: /Live flight options/ });
    expect(await options.getByRole('button', { name: 'Book' }).count()).toBeGreaterThan(0);
    await expectAccessible('action item');
    await screenshot('console-item.png');

    await options.getByRole('button', { name: 'Book' }).first().click();
    await page.waitForURL(/\?done=BOOK_FLIGHT_OPTION$/);
    expect(await page.getByRole('status').first().textContent()).toContain('Book a flight option: done.');
    expect(await page.getByRole('table', { name: /Live flight options/ }).count()).toBe(0);
    const booking = await waitFor(
      async () => {
        const b = await api(`/crew/bookings/${air.flight.booking_id}`);
        return b.body.status === 'CONFIRMED' && b.body;
      },
      20_000,
      () => `booking ${air.flight.booking_id} to be CONFIRMED`,
      200,
    );
    expect(booking).toMatchObject({ status: 'CONFIRMED', manual_override: true });
    await page.reload();
    expect(await page.getByText('Resolved').count()).toBeGreaterThan(0);
    expect(await page.getByRole('cell', { name: 'CONFIRMED' }).count()).toBeGreaterThan(0);
  });

  it('dismisses the layover with a reason: the item reads DISMISSED with the person and the reason', async () => {
    await page.goto(url(`/console/items/${air.hotel.action_id}`));
    expect(await heading()).toBe('Layover at JFK');
    const dismiss = page.getByRole('region', { name: 'Dismiss' });
    await dismiss.getByLabel('Reason').fill('Crew stays at home: reserve duty');
    await dismiss.getByRole('button', { name: 'Dismiss' }).click();
    await page.waitForURL(/\?done=DISMISS$/);
    const status = page.getByRole('region', { name: 'Status' });
    expect(await status.textContent()).toContain('Dismissed');
    expect(await status.textContent()).toContain(`Dismiss by ${EMAIL}`);
    expect(await status.textContent()).toContain('Crew stays at home: reserve duty');
    expect(await page.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
    await expectAccessible('dismissed item');
    const item = await api(`/crew/action-items?review_status=DISMISSED`);
    expect(
      item.body.action_items.find((i: { action_id: string }) => i.action_id === air.hotel.action_id),
    ).toMatchObject({
      review_status: 'DISMISSED',
      action_taken_by: EMAIL,
      action_reason: 'Crew stays at home: reserve duty',
    });
  });

  it('reads the coverage board and the spend chart; a form without its csrf_token is refused; signs out', async () => {
    await page.getByRole('link', { name: 'Coverage' }).click();
    await page.waitForURL(url('/console/coverage'));
    expect(await heading()).toBe('Coverage');
    expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Next 24 hours', 'Next 72 hours']);
    const layovers72 = page.getByRole('table', { name: 'Layovers checking in within 72 hours, by station' });
    expect(await layovers72.getByRole('rowheader', { name: 'JFK' }).count()).toBe(1);
    await expectAccessible('coverage board');
    await screenshot('console-coverage.png');

    // The spend chart: the period chosen in the form, a row and a bar per station, the flight booked above in it.
    await page.getByRole('link', { name: 'Spend' }).click();
    await page.waitForURL(url('/console/spend'));
    expect(await heading()).toBe('Spend');
    const from = page.getByLabel('From');
    expect(await from.inputValue()).toMatch(/^\d{4}-\d{2}-01$/); // this month by default
    await from.fill(DAY1);
    await page.getByLabel('To').fill(DAY1);
    await page.getByLabel('Group by').selectOption('station');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/group_by=station/);
    const spend = page.getByRole('table', { name: `Spend from ${DAY1} to ${DAY1} by station, in USD` });
    expect(await spend.getByRole('columnheader').allTextContents()).toEqual([
      'Station',
      'Hotels booked',
      'Flights booked',
      'Penalties paid',
      'Penalties avoided',
      'Disputed',
      'Booked and paid',
    ]);
    const flights = await spend
      .getByRole('row')
      .evaluateAll((rows) => rows.slice(1).map((r) => Number((r.children[2]?.textContent ?? '0').replace(/,/g, ''))));
    expect(flights.some((amount) => amount > 0)).toBe(true);
    await expectAccessible('spend chart');
    await screenshot('console-spend.png');
    // A bad currency is a 400 page saying why, not an error page.
    const bad = await page.goto(url(`/console/spend?from=${DAY1}&to=${DAY1}&currency=US`));
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole('alert').textContent()).toContain('three-letter code');
    await page.goto(url('/console/coverage'));

    // A form posted without its csrf_token (taken out of the page) is refused with 403; the session stays.
    await page
      .locator('input[name="csrf_token"]')
      .evaluateAll((inputs) => inputs.forEach((i) => (i as unknown as { remove(): void }).remove()));
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    expect(refused.status()).toBe(403);
    expect(await heading()).toBe('Form not accepted');
    await expectAccessible('refused form');
    await page.goto(url('/console/coverage'));
    expect(await heading()).toBe('Coverage');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('status').filter({ hasText: 'You have signed out.' }).waitFor();
    await page.goto(url('/console'));
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  });
});

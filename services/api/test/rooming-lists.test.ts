/**
 * DIRECT hotels are booked through their rooming list. A real SMTP server (smtp-server) in this
 * process receives the e-mails; the hotel answers on the confirmation page in headless Chromium
 * (playwright-core, Debian's /usr/bin/chromium); the worker runs in this process against the stack.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createLogger } from '@crew/platform';
import { roomingLinkKey, signRoomingLink } from '@crew/rooming';
import { createSandboxSuppliers } from '@crew/suppliers';
import { RoomingChannel, startWorkerRuntime, type WorkerRuntime } from '@crew/worker';
import {
  bookingAccount,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  STANDARD_TERMS,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

jest.setTimeout(120_000);

// ---- a real SMTP server, and a small MIME reader for what it receives ----

interface Mail {
  to: string;
  subject: string;
  text: string;
  csv: string;
  link: string;
}

function decodePart(headers: string, body: string): string {
  const enc = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable')
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8');
  return body;
}

function parseMail(raw: string): Mail {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head!.replace(/\r?\n[ \t]+/g, ' ');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)![1]!;
  const parts = rest.join('\r\n\r\n').split(`--${boundary}`).slice(1, -1);
  let text = '';
  let csv = '';
  for (const p of parts) {
    const [ph, ...pb] = p.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    const body = decodePart(ph!, pb.join('\r\n\r\n'));
    if (/content-type:\s*text\/plain/i.test(ph!)) text = body;
    if (/content-type:\s*text\/csv/i.test(ph!)) csv = body;
  }
  return {
    to: /^to:\s*(.*)$/im.exec(unfolded)![1]!.trim(),
    subject: /^subject:\s*(.*)$/im.exec(unfolded)![1]!.trim(),
    text,
    csv,
    link: /(http:\/\/\S+\/hotel\/rooming-lists\/\S+)/.exec(text)![1]!,
  };
}

class Inbox {
  mails: Mail[] = [];
  server: SMTPServer | null = null;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.mails.push(parseMail(Buffer.concat(chunks).toString('utf8')));
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server as unknown as { server: { address(): { port: number } } }).server.address().port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  async waitFor(n: number, ms = 20_000): Promise<Mail> {
    await waitFor(
      () => this.mails.length >= n,
      ms,
      () => `${n} e-mails (got ${this.mails.length})`,
    );
    return this.mails[n - 1]!;
  }
}

const csvRows = (csv: string) =>
  csv
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));

// ---- the stack ----

let stack: Stack;
let worker: WorkerRuntime;
let inbox: Inbox;
let t: Tenant;
let hotelId: number;
let context: BrowserContext;
let profile: string;

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

async function booking(id: string) {
  return (await api(`/crew/bookings/${id}`)).body;
}

async function waitForBooking(id: string, pred: (b: any) => boolean, ms = 20_000) {
  let last: unknown;
  return waitFor(
    async () => {
      const b = (last = await booking(id));
      return pred(b) && b;
    },
    ms,
    () => `booking ${id} (still ${JSON.stringify(last)})`,
  );
}

/**
 * A whole rooming-list pass of the worker, run now: every due list is sent before it resolves. After it, an
 * e-mail that has not arrived is one the worker does not send (not one that is merely late).
 */
async function roomingPass(): Promise<void> {
  await worker.rooming.tick();
}

async function submit(roster: ReturnType<typeof onePairingRoster>) {
  const res = await api('/crew/schedules', { method: 'POST', body: roster });
  expect(res.status).toBe(202);
  const status = await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const bookings = (await api(`/crew/bookings?schedule_id=${res.body.schedule_id}&type=HOTEL`)).body.bookings;
  return { scheduleId: res.body.schedule_id as string, status, bookings };
}

async function openPage(link: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  return page;
}

/** Sends the form and waits for the answered page (Post/Redirect/Get). */
async function answer(page: Page): Promise<void> {
  await page.click('button[type="submit"]');
  await page.waitForSelector('text=This list was answered');
}

beforeAll(async () => {
  inbox = new Inbox();
  await inbox.start();
  stack = await startStack('rooming_lists', {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${inbox.port}`,
      SMTP_FROM: 'crew-travel@air.test',
      ROOMING_LEAD_HOURS: '0',
      ROOMING_POLL_MS: '200',
    },
  });
  // The worker builds links to this stack's api (its port is known only now).
  worker = startWorkerRuntime({
    config: { ...stack.config, publicApiUrl: stack.apiUrl },
    db: stack.database.db,
    logger: createLogger('worker', process.env.TEST_LOG ? 'info' : 'silent'),
    suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
  });
  t = await onboard(stack, {
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, booking_modification: true, cancellation_execution: true },
  });
  await bookingAccount(stack, t, 'ada@crew.test');
  // A DIRECT hotel: not in the GDS inventory, registered with a chain and its reservations e-mail.
  const cfg = await api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: [
        {
          base_station: 'JFK',
          hotels: [
            {
              property_id: 'CREWINN-JFK',
              chain: 'Crew Inns',
              name: 'Crew Inn JFK',
              reservations_email: 'reservations@crewinn.test',
              ...STANDARD_TERMS,
            },
          ],
        },
      ],
    },
  });
  expect(cfg.status).toBe(200);
  const hotel = cfg.body.bases[0].hotels[0];
  expect(hotel).toMatchObject({ handler_type: 'DIRECT', reservations_email: 'reservations@crewinn.test' });
  hotelId = hotel.hotel_config_id;
  const contract = await api(`/crew/config/hotels/${hotelId}/contracts`, {
    method: 'POST',
    body: { contract_number: 'CI-2027', contract_from: '2027-01-01', contract_to: '2027-12-31' },
  });
  await api(`/crew/config/hotels/${hotelId}/contracts/${contract.body.contract_id}/rates`, {
    method: 'PUT',
    body: {
      rate_periods: [
        { effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 150, currency: 'USD' } },
      ],
    },
  });
  const req = await api('/crew/config/hotels/change-requests', {
    method: 'POST',
    body: { contract_id: contract.body.contract_id, intent: 'ENABLE' },
  });
  await http(`${stack.apiUrl}/ops/v1/change-requests/${req.body.request_id}/decide`, {
    method: 'POST',
    token: stack.opsToken,
    body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
  });

  profile = mkdtempSync(join(tmpdir(), 'crew-rooming-chromium-'));
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
});

afterAll(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await worker?.close();
  await stack?.close();
  if (inbox?.server) await inbox.stop();
});

describe('a DIRECT hotel is booked through its rooming list', () => {
  let bookingId: string;
  let rowRef: string;

  test('a layover at a DIRECT hotel → one e-mail with the CSV row; the booking waits for the hotel (PENDING), the schedule does not', async () => {
    const { status, bookings } = await submit(onePairingRoster());
    // Polling stops without waiting for the hotel (COMPLETED, or BOOKING for the instant before the completion check).
    expect(status.poll_recommended).toBe(false);
    expect(status.summary.action_items_auto_booked).toBe(1);
    expect(bookings).toHaveLength(1);
    bookingId = bookings[0].booking_id;
    const mail = await inbox.waitFor(1);
    expect(inbox.mails).toHaveLength(1);
    expect(mail.to).toBe('reservations@crewinn.test');
    expect(mail.subject).toContain('Rooming list 2027-03-10 v1');
    const rows = csvRows(mail.csv);
    expect(rows[0]).toEqual([
      'row_ref',
      'change',
      'crew_name',
      'rank',
      'check_in_local',
      'check_out_local',
      'pairing_number',
      'booking_reference',
    ]);
    expect(rows).toHaveLength(2);
    rowRef = rows[1]![0]!;
    expect(rows[1]).toEqual([
      rowRef,
      'NEW',
      'Ada Lovelace',
      'CA',
      '2027-03-10T15:00:00-05:00',
      '2027-03-11T09:00:00-05:00',
      'P100',
      bookingId,
    ]);
    expect(mail.text).toContain(`[NEW] ${rowRef}`);
    const b = await waitForBooking(bookingId, (x) => x.hotel.rooming_status === 'SENT');
    expect(b).toMatchObject({
      status: 'PENDING',
      hotel: { handler_type: 'DIRECT', rooming_ref: rowRef, rooming_marking: 'NEW', rooming_list_version: 1 },
    });
    expect(b.hotel.supplier_ref).toBeUndefined();
    // Nothing went to the GDS supplier.
    expect((await http(`${stack.sandboxUrl}/_control/reservations`)).body.reservations).toEqual([]);
  });

  test('the hotel confirms in the browser → CONFIRMED with the hotel’s number; the list is kept as opened and answered', async () => {
    const page = await openPage(inbox.mails[0]!.link);
    expect(await page.locator(`tr[data-row-ref="${rowRef}"] td.mark`).textContent()).toBe('NEW');
    if (process.env.ROOMING_SCREENSHOT) await page.screenshot({ path: process.env.ROOMING_SCREENSHOT, fullPage: true });
    await page.fill('input[name="list_number"]', 'CI-4711');
    await answer(page);
    expect(await page.textContent('body')).toContain('This list was answered');
    await page.close();
    const b = await booking(bookingId);
    expect(b).toMatchObject({
      status: 'CONFIRMED',
      hotel: { confirmation_number: 'CI-4711', rooming_status: 'CONFIRMED' },
    });
    const lists = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists;
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({
      night: '2027-03-10',
      version: 1,
      status: 'ANSWERED',
      recipient: 'reservations@crewinn.test',
      sends: 1,
    });
    expect(lists[0].opened_at).not.toBeNull();
    expect(lists[0].rows[0]).toMatchObject({
      row_ref: rowRef,
      marking: 'NEW',
      state: 'CONFIRMED',
      hotel_confirmation_number: 'CI-4711',
    });
  });

  test('a later roster moving the stay sends an AMENDED row with the same reference; the hotel’s confirmation makes it MODIFIED', async () => {
    const roster = onePairingRoster();
    roster.pairings[0]!.duty_periods[0]!.layover!.checkout_time_local = '2027-03-11T10:30:00-05:00';
    await submit(roster);
    const mail = await inbox.waitFor(2);
    const rows = csvRows(mail.csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(0, 2)).toEqual([rowRef, 'AMENDED']);
    expect(rows[1]![5]).toBe('2027-03-11T10:30:00-05:00');
    expect(mail.subject).toContain('v2');
    const page = await openPage(mail.link);
    await page.fill(`tr[data-row-ref="${rowRef}"] input[type="text"] >> nth=0`, 'CI-4711-A');
    await answer(page);
    await page.close();
    expect(await booking(bookingId)).toMatchObject({
      status: 'MODIFIED',
      hotel: { confirmation_number: 'CI-4711-A', rooming_marking: 'AMENDED', rooming_list_version: 2 },
    });
  });

  test('a DELETE sends a CANCELLED row, confirmed the same way → CANCELLED', async () => {
    const del = await api(`/crew/bookings/${bookingId}?reason=crew%20change`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    const mail = await inbox.waitFor(3);
    expect(csvRows(mail.csv)[1]!.slice(0, 2)).toEqual([rowRef, 'CANCELLED']);
    expect(await booking(bookingId)).toMatchObject({ status: 'PENDING', hotel: { rooming_marking: 'CANCELLED' } });
    const page = await openPage(mail.link);
    await page.fill('input[name="list_number"]', 'CX-99');
    await answer(page);
    await page.close();
    expect(await booking(bookingId)).toMatchObject({
      status: 'CANCELLED',
      hotel: { confirmation_number: 'CX-99', rooming_status: 'CONFIRMED' },
    });
    // Three versions of that night's list, all kept.
    const lists = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists;
    expect(lists.map((l: any) => [l.version, l.status, l.rows[0].marking])).toEqual([
      [3, 'ANSWERED', 'CANCELLED'],
      [2, 'ANSWERED', 'AMENDED'],
      [1, 'ANSWERED', 'NEW'],
    ]);
  });

  test('a rejected row lands NEEDS_REVIEW with the hotel’s reason', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P200', employee: 'E2', email: 'grace@crew.test', day1: '2027-04-02' }),
    );
    const mail = await inbox.waitFor(before + 1);
    const page = await openPage(mail.link);
    await page.check('input[type="checkbox"]');
    await page.fill('input[placeholder="reason"]', 'Sold out that night');
    await answer(page);
    await page.close();
    const b = await booking(bookings[0].booking_id);
    expect(b.status).toBe('NEEDS_REVIEW');
    expect(b.review_reason).toBe('the hotel rejected the rooming list row: Sold out that night');
    const items = (await api(`/crew/schedules/${b.schedule_id}/action-items?type=HOTEL`)).body.action_items;
    expect(items[0]).toMatchObject({ disposition: 'PENDING_REVIEW' });
  });

  test('a tampered or expired link is refused, and so is a form not posted from the page', async () => {
    const link = inbox.mails[0]!.link;
    const token = link.split('/').pop()!;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await http(`${stack.apiUrl}/hotel/rooming-lists/${tampered}`)).status).toBe(404);
    const [body] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const key = roomingLinkKey(stack.opsToken);
    const expired = signRoomingLink(key, {
      list_id: claims.l,
      hotel_config_id: claims.h,
      version: claims.v,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    const page = await context.newPage();
    expect((await page.goto(`${stack.apiUrl}/hotel/rooming-lists/${expired}`))?.status()).toBe(410);
    expect(await page.textContent('h1')).toBe('This link has expired');
    await page.close();
    // A genuine signature on another version of the list is not this list's link.
    const otherVersion = signRoomingLink(key, {
      list_id: claims.l,
      hotel_config_id: claims.h,
      version: claims.v + 1,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await http(`${stack.apiUrl}/hotel/rooming-lists/${otherVersion}`)).status).toBe(404);
    // The form without the page's anti-forgery field.
    const forged = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'list_number=X',
    });
    expect(forged.status).toBe(403);
    // The link is a credential: the api's request log keeps its claims part, never its signature.
    const signature = token.split('.')[1]!;
    expect(stack.logLines.some((l) => l.includes(`/hotel/rooming-lists/${body}.[REDACTED]`))).toBe(true);
    expect(stack.logLines.filter((l) => l.includes(signature))).toEqual([]);
  });

  test('the SMTP server down: the list waits and is sent when it is back, nothing lost; the operator can resend', async () => {
    const port = inbox.port;
    await inbox.stop();
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P300', employee: 'E3', email: 'alan@crew.test', day1: '2027-05-05' }),
    );
    const id = bookings[0].booking_id;
    // The task is done (the schedule completed), the list waits with the mail server's error.
    const waiting = await waitFor(
      async () => {
        const list = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
          (l: any) => l.night === '2027-05-05',
        );
        return list?.send_attempts >= 2 && list;
      },
      10_000,
      'two attempts to send the list',
    );
    expect(waiting).toMatchObject({ status: 'QUEUED', sends: 0 });
    expect(waiting.last_error).toBeTruthy();
    expect(await booking(id)).toMatchObject({ status: 'PENDING', hotel: { rooming_status: 'QUEUED' } });
    await inbox.start(port);
    const mail = await inbox.waitFor(before + 1);
    expect(mail.subject).toContain('2027-05-05 v1');
    const rowRef = csvRows(mail.csv)[1]![0];
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');
    const sent = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
      (l: any) => l.night === '2027-05-05',
    );
    expect(sent).toMatchObject({ status: 'SENT', sends: 1, last_error: null });

    // Resend, with the operator CLI: the same version, the same row reference (no second room at the hotel).
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/ops.ts', 'resend-rooming-list', sent.list_id],
      {
        cwd: join(__dirname, '..', '..', '..'),
        env: { ...process.env, API_URL: stack.apiUrl, OPS_TOKEN: stack.opsToken },
      },
    );
    expect(JSON.parse(cli.stdout)).toMatchObject({ list_id: sent.list_id, version: 1 });
    const again = await inbox.waitFor(before + 2);
    expect(again.subject).toContain('2027-05-05 v1 (resent)');
    expect(
      csvRows(again.csv)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([rowRef]);
    // The worker records a send once the mail server has taken it; then a pass sends nothing more.
    const listOf0505 = async () =>
      (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
        (l: any) => l.night === '2027-05-05',
      );
    await waitFor(async () => (await listOf0505()).sends >= 2, 10_000, 'the resend to be recorded');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before + 2);
    const after = await listOf0505();
    expect(after).toMatchObject({ status: 'SENT', sends: 2, version: 1 });
    expect(after.rows).toHaveLength(1);
  });

  test('no answer by the deadline: the list EXPIRES and its stays land NEEDS_REVIEW; the page takes no late answer', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P400', employee: 'E4', email: 'kat@crew.test', day1: '2027-06-06' }),
    );
    const id = bookings[0].booking_id;
    const mail = await inbox.waitFor(before + 1);
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');
    // The worker's periodic pass two days later (the deadline is ROOMING_ANSWER_HOURS = 24 h after sending).
    const later = new RoomingChannel({
      db: stack.database.db,
      logger: createLogger('worker', 'silent'),
      mailer: { send: async () => Promise.reject(new Error('no list is due')), close: () => undefined },
      config: { ...stack.config, publicApiUrl: stack.apiUrl },
      now: () => new Date(Date.now() + 48 * 3_600_000),
    });
    await later.tick();
    const b = await booking(id);
    expect(b.status).toBe('NEEDS_REVIEW');
    expect(b.review_reason).toMatch(/the hotel did not answer the rooming list by \d{4}-/);
    expect(b.hotel.rooming_status).toBe('EXPIRED');
    const list = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
      (l: any) => l.night === '2027-06-06',
    );
    expect(list).toMatchObject({ status: 'EXPIRED', rows: [{ state: 'EXPIRED' }] });
    const page = await openPage(mail.link);
    expect(await page.textContent('body')).toContain('not answered in time');
    expect(await page.locator('form').count()).toBe(0);
    await page.close();
  });

  test('a DIRECT hotel without reservations_email is not booked automatically: NEEDS_REVIEW saying so, no e-mail', async () => {
    const hotel = { property_id: 'CREWINN-JFK', chain: 'Crew Inns', name: 'Crew Inn JFK', ...STANDARD_TERMS };
    expect(
      (await api('/crew/config/hotels', { method: 'PUT', body: { bases: [{ base_station: 'JFK', hotels: [hotel] }] } }))
        .status,
    ).toBe(200);
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P500', employee: 'E5', email: 'lin@crew.test', day1: '2027-07-07' }),
    );
    expect(bookings[0]).toMatchObject({ status: 'NEEDS_REVIEW' });
    expect(bookings[0].review_reason).toContain('reservations_email');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before);
    // An e-mail that is not one is refused.
    expect(
      (
        await api('/crew/config/hotels', {
          method: 'PUT',
          body: { bases: [{ base_station: 'JFK', hotels: [{ ...hotel, reservations_email: 'not-an-email' }] }] },
        })
      ).status,
    ).toBe(422);
  });

  test('batching: a P4 stay waits for the list sent ROOMING_LEAD_HOURS before the night; a P2 request for that night sends it at once, both rows in one e-mail', async () => {
    const hotel = {
      property_id: 'CREWINN-JFK',
      chain: 'Crew Inns',
      name: 'Crew Inn JFK',
      reservations_email: 'reservations@crewinn.test',
      ...STANDARD_TERMS,
    };
    expect(
      (await api('/crew/config/hotels', { method: 'PUT', body: { bases: [{ base_station: 'JFK', hotels: [hotel] }] } }))
        .status,
    ).toBe(200);
    await worker.close();
    worker = startWorkerRuntime({
      config: { ...stack.config, publicApiUrl: stack.apiUrl, roomingLeadHours: 72 },
      db: stack.database.db,
      logger: createLogger('worker', process.env.TEST_LOG ? 'info' : 'silent'),
      suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
    });
    const before = inbox.mails.length;
    const { status, bookings } = await submit(
      onePairingRoster({ pairing: 'P600', employee: 'E6', email: 'max@crew.test', day1: '2027-08-08' }),
    );
    expect(status.poll_recommended).toBe(false);
    const night = async () =>
      (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
        (l: any) => l.night === '2027-08-08',
      );
    // Check-in 2027-08-08T15:00-05:00 = 20:00Z; the list is due 72 h before.
    expect(await night()).toMatchObject({
      status: 'QUEUED',
      version: 1,
      due_at: '2027-08-05T20:00:00.000Z',
      sends: 0,
      send_attempts: 0,
    });
    expect(await booking(bookings[0].booking_id)).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_status: 'QUEUED' },
    });
    await roomingPass();
    expect(inbox.mails).toHaveLength(before);

    const req = await api('/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        anchors: { traveller_email: 'ada@crew.test', employee_id: 'E1', pairing_number: 'IROP8' },
        hotel: { city: 'JFK', check_in_date: '2027-08-08', num_nights: 1 },
      },
    });
    expect(req.status).toBe(202);
    const mail = await inbox.waitFor(before + 1);
    const rows = csvRows(mail.csv).slice(1);
    expect(rows.map((r) => [r[1], r[7]]).sort()).toEqual(
      [
        ['NEW', bookings[0].booking_id],
        ['NEW', req.body.booking_id],
      ].sort(),
    );
    await waitForBooking(req.body.booking_id, (b) => b.hotel?.rooming_status === 'SENT');
    expect(await night()).toMatchObject({ status: 'SENT', version: 1, sends: 1 });
    expect(await booking(bookings[0].booking_id)).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_status: 'SENT', rooming_list_version: 1 },
    });
  });
});

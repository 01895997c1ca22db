/**
 * The stack of the rooming-list tests (rooming-lists*.test.ts): a real SMTP server (smtp-server) in this process
 * receives the e-mails; the hotel answers on the confirmation page in headless Chromium (playwright-core,
 * Debian's /usr/bin/chromium); the worker runs in this process against the stack. Each file calls
 * useRoomingStack with its own label, so it gets its own stack, database, inbox and browser, and a DIRECT hotel
 * at JFK with an enabled contract.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime, type WorkerRuntime } from '@crew/worker';
import {
  bookingAccount,
  http,
  onboard,
  type onePairingRoster,
  type Stack,
  STANDARD_TERMS,
  startStack,
  type Tenant,
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

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

export class Inbox {
  mails: Mail[] = [];
  server: SMTPServer | null = null;
  port = 0;
  /** While set, the server takes each message only once it resolves (a slow mail server); `held` counts them. */
  gate: Promise<void> | null = null;
  held = 0;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const take = () => {
            this.mails.push(parseMail(Buffer.concat(chunks).toString('utf8')));
            cb();
          };
          if (!this.gate) return take();
          this.held += 1;
          void this.gate.then(take);
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

export const csvRows = (csv: string) =>
  csv
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));

// ---- the stack ----

export let stack: Stack;
export let worker: WorkerRuntime;
export let inbox: Inbox;
export let t: Tenant;
export let hotelId: number;
export let context: BrowserContext;
let profile: string;

export const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

export async function booking(id: string) {
  return (await api(`/crew/bookings/${id}`)).body;
}

export async function waitForBooking(id: string, pred: (b: any) => boolean, ms = 20_000) {
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
export async function roomingPass(): Promise<void> {
  await worker.rooming.tick();
}

export async function submit(roster: ReturnType<typeof onePairingRoster>) {
  const res = await api('/crew/schedules', { method: 'POST', body: roster });
  expect(res.status).toBe(202);
  const status = await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const bookings = (await api(`/crew/bookings?schedule_id=${res.body.schedule_id}&type=HOTEL`)).body.bookings;
  return { scheduleId: res.body.schedule_id as string, status, bookings };
}

export async function openPage(link: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  return page;
}

/** Sends the form and waits for the answered page (Post/Redirect/Get). */
export async function answer(page: Page): Promise<void> {
  await page.click('button[type="submit"]');
  await page.waitForSelector('text=This list was answered');
}

/** A test that restarts the worker with other settings hands the new one over here (its afterAll closes it). */
export function setWorker(next: WorkerRuntime): void {
  worker = next;
}

/** Starts the file's stack, inbox, worker and browser before its tests and closes them after them. */
export function useRoomingStack(label: string): void {
  beforeAll(async () => {
    inbox = new Inbox();
    await inbox.start();
    stack = await startStack(label, {
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
}

/**
 * The stack of the webhook tests (webhook*.test.ts): a real HTTP receiver in this process and the real worker
 * (in-process). Each file calls useWebhooksStack with its own label, so it gets its own stack and receiver.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  bookingAccount,
  contractStations,
  http,
  onboard,
  type Stack,
  startStack,
  type Tenant,
} from '@crew/test-support';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; created_at: string; data: any; links: any };
}

/** A webhook receiver on 127.0.0.1: records every request; `answer` decides each reply (default 204). */
export class Receiver {
  readonly received: Received[] = [];
  answer: (r: Received, n: number) => { status: number; headers?: Record<string, string>; delayMs?: number } = () => ({
    status: 204,
  });
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let event: Received['event'];
        try {
          event = JSON.parse(body);
        } catch {
          event = { id: '', type: '', created_at: '', data: null, links: null };
        }
        const r = { path: req.url ?? '', headers: req.headers, body, event };
        this.received.push(r);
        const a = this.answer(r, this.received.filter((x) => x.path === r.path).length);
        setTimeout(() => {
          res.writeHead(a.status, a.headers);
          res.end('ok');
        }, a.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  on(path: string) {
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const SCOPES = 'events:read events:write schedules:read schedules:write';
export let stack: Stack;
export let receiver: Receiver;

/**
 * Starts the file's stack (with a worker, at a fixed clock, quick webhook retries; `env` adds to or overrides
 * that) and receiver; closes both after.
 */
export function useWebhooksStack(label: string, env: Record<string, string> = {}): void {
  beforeAll(async () => {
    stack = await startStack(label, {
      worker: true,
      now: () => new Date('2027-03-01T00:00:00Z'),
      env: {
        WEBHOOK_BACKOFF_BASE_MS: '100',
        WEBHOOK_BACKOFF_MAX_MS: '400',
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_TIMEOUT_MS: '2000',
        ...env,
      },
    });
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.close();
    await stack.close();
  });
}

export const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

let seq = 0;
export async function airline(opts: { contract?: boolean } = {}) {
  seq++;
  const code = `W${String.fromCharCode(65 + (seq % 26))}`;
  const t = await onboard(stack, {
    name: `Hook Air ${seq}`,
    carrier: code,
    scopes: SCOPES,
    settings: { schedules_access: true },
  });
  const email = `hook${seq}@air.test`;
  await bookingAccount(stack, t, email);
  if (opts.contract !== false) await contractStations(stack, t, ['JFK']);
  return { t, email };
}

export async function endpoint(t: Tenant, path: string, eventTypes: string[] = ['booking.confirmed']) {
  const res = await api(t, '/crew/webhooks', {
    method: 'POST',
    body: { url: `${receiver.url}${path}`, event_types: eventTypes },
  });
  expect(res.status).toBe(201);
  return res.body as { endpoint_id: string; secret: string };
}

export const deliveries = async (t: Tenant, endpointId: string) =>
  (await api(t, `/crew/webhooks/${endpointId}/deliveries`)).body.deliveries as any[];

export const hotelRequest = (email: string, extra: Record<string, unknown> = {}) => ({
  type: 'HOTEL',
  classification: 'NEW_LAYOVER',
  anchors: { traveller_email: email, employee_id: 'E1', pairing_number: `IR${seq}` },
  hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
  ...extra,
});

export function verify(secret: string, r: Received) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

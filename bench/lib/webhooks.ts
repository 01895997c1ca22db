import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { WEBHOOK_EVENT_TYPES } from '@crew/contracts';
import { expectStatus, type Tenant } from './client';
import { percentile } from './stats';

/**
 * Webhook delivery in the roster benchmark: a receiver in the bench process (answers 204 at once) and one
 * endpoint per airline subscribed to every event type. Event lag = received here − the event's created_at
 * (written with clock_timestamp() in the transaction of the change, so it is just before the commit).
 */
export class WebhookSink {
  private server!: Server;
  url = '';
  /** event id → first receipt (ms since epoch); duplicates are counted. */
  readonly firstSeen = new Map<string, number>();
  duplicates = 0;
  readonly byType = new Map<string, number>();

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const at = Date.now();
      const id = String(req.headers['webhook-id'] ?? '');
      let type = '';
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          type = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type;
        } catch {
          type = '?';
        }
        if (this.firstSeen.has(id)) this.duplicates++;
        else {
          this.firstSeen.set(id, at);
          this.byType.set(type, (this.byType.get(type) ?? 0) + 1);
        }
        res.writeHead(204).end();
      });
    });
    // Many short requests: keep-alive is off on the sender side (agent: false), so accept them fast.
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', 1024, resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** One endpoint for the tenant, subscribed to every event type. */
  async subscribe(tenant: Tenant): Promise<void> {
    const res = await tenant.api('/crew/webhooks', {
      method: 'POST',
      body: { url: this.url, event_types: [...WEBHOOK_EVENT_TYPES] },
    });
    expectStatus(res, 201, 'POST /crew/webhooks');
  }

  /** Waits until no delivery is PENDING (or the deadline), then the lag figures from the events' created_at. */
  async report(reader: pg.Client, deadlineMs: number) {
    const end = Date.now() + deadlineMs;
    let pending: number;
    for (;;) {
      pending = Number(
        (await reader.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status = 'PENDING'`))
          .rows[0]?.n ?? 0,
      );
      if (pending === 0 || Date.now() > end) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const events = await reader.query<{ event_id: string; type: string; created_ms: string }>(
      `select event_id, type, (extract(epoch from created_at) * 1000)::text as created_ms from webhook_events`,
    );
    const lags: number[] = [];
    const bookingLags: number[] = [];
    let missing = 0;
    for (const e of events.rows) {
      const seen = this.firstSeen.get(e.event_id);
      if (seen === undefined) {
        missing++;
        continue;
      }
      const lag = seen - Number(e.created_ms);
      lags.push(lag);
      if (e.type.startsWith('booking.')) bookingLags.push(lag);
    }
    const failed = Number(
      (await reader.query<{ n: string }>(`select count(*) as n from webhook_deliveries where status = 'FAILED'`))
        .rows[0]?.n ?? 0,
    );
    return {
      events: events.rows.length,
      delivered: lags.length,
      missing,
      pending,
      failed,
      duplicates: this.duplicates,
      byType: Object.fromEntries(this.byType),
      p50: percentile(lags, 50),
      p99: percentile(lags, 99),
      max: lags.length ? Math.max(...lags) : NaN,
      bookingP99: percentile(bookingLags, 99),
    };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

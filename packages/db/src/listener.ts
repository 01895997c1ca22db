import pg from 'pg';

/** Notified (payload: the booking_id) when a booking leaves PENDING, at the commit of the settling transaction. */
export const BOOKING_SETTLED_CHANNEL = 'booking_settled';

export interface ListenerOptions {
  applicationName?: string;
  /** Reconnect back-off: first and longest pause (ms). */
  retryMs?: { first: number; max: number };
  /** A lost connection or a failed reconnect (the listener keeps retrying). */
  onError?: (err: Error) => void;
}

/**
 * One dedicated connection LISTENing on a channel, outside the pool (a pooled connection would stop
 * listening when released). A dropped connection or a Postgres restart never ends the process: the
 * listener reconnects with back-off and then wakes every subscriber, since what was notified while it
 * was away is lost; a subscriber re-reads the state it waits for whenever it is woken.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private listening_ = false;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private readonly subscribers = new Map<string, Set<() => void>>();

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly options: ListenerOptions = {},
  ) {}

  start(): this {
    void this.connect();
    return this;
  }

  /** True while LISTEN is in effect: a notification sent now will arrive. */
  get listening(): boolean {
    return this.listening_;
  }

  /** Calls `wake` on every notification carrying `payload`, and after each (re)connect. Returns the unsubscribe. */
  subscribe(payload: string, wake: () => void): () => void {
    let set = this.subscribers.get(payload);
    if (!set) this.subscribers.set(payload, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0 && this.subscribers.get(payload) === set) this.subscribers.delete(payload);
    };
  }

  private wake(payload: string | null): void {
    const targets =
      payload === null
        ? [...this.subscribers.values()].flatMap((s) => [...s])
        : [...(this.subscribers.get(payload) ?? [])];
    for (const wake of targets) wake();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.url,
      application_name: this.options.applicationName ?? 'crew-listener',
      connectionTimeoutMillis: 5000,
      // A connection dropped without a FIN (a failed-over host) is noticed within about a minute.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    this.client = client;
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('listener connection ended')));
    client.on('notification', (n) => {
      if (n.channel === this.channel && n.payload) this.wake(n.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${client.escapeIdentifier(this.channel)}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.client !== client) return;
    this.failures = 0;
    this.listening_ = true;
    this.wake(null);
  }

  /** Idempotent per connection: 'error' and 'end' may both arrive. */
  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.listening_ = false;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.onError?.(err);
    const { first, max } = this.options.retryMs ?? { first: 200, max: 5000 };
    this.retry = setTimeout(
      () => {
        this.retry = null;
        void this.connect();
      },
      Math.min(max, first * 2 ** this.failures++),
    );
    // Never what keeps a stopping process alive.
    this.retry.unref();
  }

  /** Idempotent. Subscribers are not woken: they keep their own deadlines. */
  async close(): Promise<void> {
    this.closed = true;
    this.listening_ = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    if (client) await client.end().catch(() => undefined);
  }
}

import { outboxRepo, type Db } from '@crew/db';
import type { Logger } from 'pino';
import { isBookingQueue, type QueueName } from './catalog';
import { assignPriorities, type FairTask } from './fairness';
import type { Queues } from './queues';

/**
 * Jobs per addBulk call. BullMQ builds a call's whole Redis pipeline synchronously: 1,000 booking jobs held the
 * event loop of the process relaying them for 130-320 ms (an M roster's 40k booking tasks, in the api or the
 * worker), so its health checks and requests waited. A hundred take a tenth of that, and the process answers
 * others while Redis runs them.
 */
export const ADD_CHUNK = 100;

/**
 * Moves outbox rows into BullMQ. Rows are deleted in the same Postgres transaction that adds them to
 * Redis: if Redis is down the transaction rolls back and the rows wait for the next attempt. A crash
 * between the add and the commit re-sends rows; deterministic job ids make that a no-op.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private failures = 0;

  constructor(
    private readonly db: Db,
    private readonly queues: Queues,
    private readonly logger: Logger,
    private readonly intervalMs = 500,
    private readonly batch = 1000,
  ) {}

  start(): this {
    this.schedule(0);
    return this;
  }

  /** Relay now (after a commit that wrote to the outbox). */
  kick(): void {
    if (this.closed) return;
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.running = this.drain();
    await this.running;
    this.running = null;
    if (this.closed) return;
    // Back off while Redis or Postgres is failing: 0.5 s, 1 s, 2 s … up to 10 s.
    const backoff = this.failures ? Math.min(10_000, this.intervalMs * 2 ** (this.failures - 1)) : this.intervalMs;
    this.schedule(this.again && !this.failures ? 0 : backoff);
    this.again = false;
  }

  /**
   * Relays until the outbox is empty (or fails), or until close(): a closing process ends after the batch under way
   * (each batch commits on its own), and what it left stays in the outbox for the next process. Returns when done;
   * used by tests too.
   */
  async drain(): Promise<void> {
    try {
      for (;;) {
        if (this.closed) return;
        const moved = await this.db.transaction().execute(async (trx) => {
          const rows = await outboxRepo.takeOutbox(trx, this.batch);
          const byQueue = new Map<QueueName, typeof rows>();
          for (const r of rows) {
            const q = r.queue as QueueName;
            if (!this.queues[q]) throw new Error(`outbox row ${r.id} names unknown queue ${r.queue}`);
            const list = byQueue.get(q);
            if (list) list.push(r);
            else byQueue.set(q, [r]);
          }
          for (const [q, list] of byQueue) {
            // Booking tasks get their lane and fair-share place now, when they join the queue (see fairness.ts).
            const priorities = isBookingQueue(q)
              ? await assignPriorities(
                  this.queues[q],
                  list.map((r) => r.data as unknown as FairTask),
                )
              : [];
            for (let at = 0; at < list.length; at += ADD_CHUNK)
              await this.queues[q].addBulk(
                list.slice(at, at + ADD_CHUNK).map((r, i) => ({
                  name: r.name,
                  data: r.data,
                  opts: { jobId: r.job_id, delay: r.delay_ms || undefined, priority: priorities[at + i] },
                })),
              );
          }
          return rows.length;
        });
        if (this.failures) this.logger.info({ after_failures: this.failures }, 'outbox relay recovered');
        this.failures = 0;
        if (moved < this.batch) return;
      }
    } catch (err) {
      this.failures++;
      if (this.failures === 1 || this.failures % 20 === 0)
        this.logger.warn(
          { err, failures: this.failures },
          'outbox relay failed; jobs stay in the outbox and will be retried',
        );
    }
  }

  /** Waits for the batch under way only (see drain). Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/*
 * The worker's side of the webhook drain thread: the messages both ways, and the handle that starts the thread
 * and runs drains on it. The thread itself is `drain.thread.ts` (a `<name>.thread.ts` is the thread `<name>.ts`
 * starts, bundled on its own).
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startThread, type Config, type Logger } from '@crew/platform';
import { withDeadline } from '@crew/queue';
import type { WorkerMetrics } from '../operability/hooks';

/** What the thread is started with (a structured clone of the process's config). */
export interface DrainThreadData {
  config: Config;
}

/** To the thread: drain an endpoint (answered by id), or finish the running drains and stop. */
export type DrainRequest = { op: 'drain'; id: number; endpoint_id: string } | { op: 'close' };

/**
 * From the thread: ready; a drain ended (`more`: its slice ran out with deliveries left) or failed; look for due
 * deliveries now; an attempt (metrics); a log line; closed.
 */
export type DrainReply =
  | { ready: true }
  | { id: number; more?: boolean; error?: string }
  | { kick: true }
  | { attempt: [ok: boolean, urgent: boolean, lagSeconds: number | null] }
  /** A line of the thread's logger (pino JSON), for the process's logger. */
  | { log: string }
  | { closed: true };

export interface DrainThreadDeps {
  config: Config;
  logger: Logger;
  metrics?: Pick<WorkerMetrics, 'webhookAttempt'>;
  kick(): void;
  /** How long close() waits for the drains in flight to end before the thread is terminated. */
  closeDeadlineMs: number;
}

/**
 * The main thread's handle on the webhook drain thread (`drain.thread.ts`): `drain` runs one endpoint's drain
 * there and resolves when it ends. A thread that dies fails its drains in flight (their jobs fail and the poll
 * queues them again; the endpoint's lease runs out) and is started again by the next drain.
 */
export class DrainThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private closed: (() => void) | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (more: boolean) => void; reject: (e: Error) => void }>();
  private closing: Promise<void> | null = null;

  constructor(private readonly deps: DrainThreadDeps) {}

  /** Starts the thread; resolves once it is ready (its modules loaded, its pool made). */
  start(): Promise<void> {
    this.ensure();
    return this.ready!;
  }

  /** Runs one slice of the endpoint's drain on the thread; true when deliveries are left for another. */
  drain(endpointId: string): Promise<boolean> {
    if (this.closing) return Promise.resolve(false);
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise<boolean>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ op: 'drain', id, endpoint_id: endpointId } satisfies DrainRequest);
    });
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const data: DrainThreadData = { config: this.deps.config };
    // Built (`npm run build`), this module is part of dist/main.js and the thread is dist/drain.thread.js.
    const { worker, ready } = startThread<Exclude<DrainReply, { ready: true }>>(
      __dirname,
      'drain.thread',
      path.extname(__filename) === '.js',
      {
        data,
        onMessage: (m) => {
          if ('kick' in m) this.deps.kick();
          else if ('attempt' in m) this.deps.metrics?.webhookAttempt(...m.attempt);
          else if ('closed' in m) this.closed?.();
          else if ('log' in m) this.relog(m.log);
          else {
            const p = this.pending.get(m.id);
            this.pending.delete(m.id);
            if (m.error === undefined) p?.resolve(m.more === true);
            else p?.reject(new Error(`webhook drain failed: ${m.error}`));
          }
        },
        onEnd: (err) => {
          for (const p of this.pending.values()) p.reject(err);
          this.pending.clear();
          this.closed?.();
          if (this.worker === worker) this.worker = null;
        },
      },
    );
    this.ready = ready;
    this.worker = worker;
    return worker;
  }

  private relog(line: string): void {
    const {
      level,
      time: _time,
      service: _service,
      msg,
      ...fields
    } = JSON.parse(line) as {
      level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
      time: string;
      service: string;
      msg: string;
    };
    this.deps.logger[level](fields, msg);
  }

  /** Lets the drains in flight end after their current delivery (bounded), then stops the thread. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const worker = this.worker;
      if (!worker) return;
      const closed = new Promise<void>((resolve) => (this.closed = resolve));
      worker.postMessage({ op: 'close' } satisfies DrainRequest);
      await withDeadline(closed, this.deps.closeDeadlineMs).catch(() => undefined);
      this.worker = null;
      await worker.terminate();
    })();
    return this.closing;
  }
}

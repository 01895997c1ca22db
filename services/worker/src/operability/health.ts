import type { Queue, Worker } from 'bullmq';
import { redisReachable } from '@crew/queue';
import { withDeadline } from '@crew/queue';

export interface WorkerHealthOptions {
  /**
   * How long this process may start and finish nothing, run nothing, while runnable jobs wait (for at least
   * half of that time) before it counts as stuck: liveness fails and Kubernetes restarts it.
   */
  stallAfterMs?: number;
  /** Deadline for the PING on each worker's Redis connection. */
  pingTimeoutMs?: number;
  now?: () => number;
}

export interface QueueHealth {
  /** The worker's fetch loop is running (false once closed or if it crashed). */
  running: boolean;
  /** Its connection answered PING in time: readiness only (BullMQ and ioredis reconnect by themselves). */
  redis: boolean;
  /** Jobs this process is running right now; null when BullMQ does not tell. */
  running_jobs: number | null;
  /** Seconds since this worker last started or finished a job (or started). */
  idle_seconds: number;
  stalled: boolean;
}

export interface HealthReport {
  /** Liveness: every consumer runs and none is stuck. Redis answering is not part of it. */
  ok: boolean;
  queues: Record<string, QueueHealth>;
}

/**
 * BullMQ keeps the jobs a worker is processing in its lock manager (protected). Reading it tells "busy with
 * long jobs" from "stuck"; if a BullMQ release drops it we answer null and skip the stall check rather than
 * restart a busy worker.
 */
function runningJobs(w: Worker): number | null {
  const lm = (w as unknown as { lockManager?: { getActiveJobCount?: () => number } }).lockManager;
  return typeof lm?.getActiveJobCount === 'function' ? lm.getActiveJobCount() : null;
}

type Redis = Parameters<typeof redisReachable>[0];

/**
 * PING with a deadline on the connection the worker was given (the runtime passes one ioredis instance to
 * all its workers; BullMQ's blocking connection is a duplicate that cannot answer while it waits for jobs —
 * the stall check covers it). Other connection shapes: a cheap command on BullMQ's own client.
 */
async function pingWithin(w: Worker, ms: number): Promise<boolean> {
  const given = w.opts.connection as unknown;
  if (given && typeof (given as Redis).ping === 'function') return redisReachable(given as Redis, ms);
  return withDeadline(
    w.getBackend().client.then((c) => c.get('crew:health')),
    ms,
  ).then(
    () => true,
    () => false,
  );
}

/**
 * Liveness of the consumers: each worker runs and is not stuck. Stuck = runnable jobs (waiting + prioritized)
 * have been there for `stallAfterMs` while this worker ran nothing and started or finished nothing — the state
 * a silently dead blocking connection leaves behind. Cheap: the counts are read only once a worker has been
 * idle for half that long. Each worker's PING is reported too (`redis`) but only readiness counts it: BullMQ
 * and ioredis reconnect by themselves, and failing liveness on a Redis failover would restart every worker
 * at once, interrupting their bookings, for nothing a restart fixes.
 */
export class WorkerHealth {
  private readonly stallAfterMs: number;
  private readonly pingTimeoutMs: number;
  private readonly now: () => number;
  private readonly lastProgress = new Map<Worker, number>();
  /** When an idle worker was first seen with a backlog (reset by progress or an empty queue). */
  private readonly backlogSince = new Map<Worker, number>();

  constructor(
    private readonly workers: readonly Worker[],
    private readonly queues: ReadonlyMap<string, Queue>,
    options: WorkerHealthOptions = {},
  ) {
    this.stallAfterMs = options.stallAfterMs ?? 5 * 60_000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
    this.now = options.now ?? Date.now;
    for (const w of workers) {
      this.lastProgress.set(w, this.now());
      const progressed = () => {
        this.lastProgress.set(w, this.now());
        this.backlogSince.delete(w);
      };
      w.on('active', progressed);
      w.on('completed', progressed);
      w.on('failed', progressed);
    }
  }

  async liveness(): Promise<HealthReport> {
    const entries = await Promise.all(this.workers.map(async (w) => [w.name, await this.check(w)] as const));
    const queues = Object.fromEntries(entries);
    return { ok: entries.every(([, h]) => h.running && !h.stalled), queues };
  }

  private async check(w: Worker): Promise<QueueHealth> {
    const now = this.now();
    const idleMs = now - (this.lastProgress.get(w) ?? now);
    const running = w.isRunning();
    const redis = await pingWithin(w, this.pingTimeoutMs);
    const jobs = runningJobs(w);
    let stalled = false;
    // Counts are read from half the window on, so a backlog can be confirmed by the time the window ends.
    if (running && redis && jobs === 0 && !w.isPaused() && idleMs >= this.stallAfterMs / 2) {
      if ((await this.backlog(w.name)) > 0) {
        const since = this.backlogSince.get(w) ?? now;
        this.backlogSince.set(w, since);
        // The backlog must have been seen for half the window too: a job that arrived after a long quiet
        // spell and is about to be fetched is not a stall.
        stalled = idleMs >= this.stallAfterMs && now - since >= this.stallAfterMs / 2;
      } else {
        this.backlogSince.delete(w);
      }
    }
    return { running, redis, running_jobs: jobs, idle_seconds: Math.round(idleMs / 1000), stalled };
  }

  private async backlog(queueName: string): Promise<number> {
    const queue = this.queues.get(queueName);
    if (!queue) return 0;
    try {
      const c = await queue.getJobCounts('waiting', 'prioritized');
      return (c.waiting ?? 0) + (c.prioritized ?? 0);
    } catch {
      // Redis trouble shows in the PING check (readiness); do not call it a stall.
      return 0;
    }
  }
}

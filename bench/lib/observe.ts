/** Observers that run while a roster is ingested: /healthz latency, where the worker's Postgres time goes, CPU use. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { cpuSeconds, trackChild } from './processes';
import { percentile } from './stats';

export interface HealthStats {
  samples: number;
  errors: number;
  maxMs: number;
  p99Ms: number;
  p50Ms: number;
  over100: number;
  /** The sampler process's own event-loop delay (max): large values would blame the sampler, not the api. */
  samplerLoopMaxMs: number;
  /** Every sample ≥ 100 ms: when it started (epoch ms) and how long it took. */
  slow: { at: number; ms: number }[];
}

/**
 * GET {api}/healthz every 50 ms, one request at a time (a slow answer delays the next sample and is recorded
 * in full), from a small child process of its own (bench/lib/health-child.ts).
 */
export class HealthSampler {
  private child: ChildProcess | null = null;
  private stats: HealthStats | null = null;

  constructor(
    private readonly url: string,
    private readonly everyMs = 50,
  ) {}

  async start(): Promise<this> {
    const child = fork(path.join(__dirname, 'health-child.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { PATH: process.env.PATH ?? '', BENCH_HEALTH_URL: this.url, BENCH_EVERY_MS: String(this.everyMs) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    trackChild(child);
    await new Promise<void>((resolve, reject) => {
      child.once('message', (m) =>
        m === 'ready' ? resolve() : reject(new Error(`health sampler said ${JSON.stringify(m)}`)),
      );
      child.once('exit', () => reject(new Error('the health sampler exited before it was ready')));
    });
    return this;
  }

  async stop(): Promise<HealthStats> {
    if (this.stats) return this.stats;
    const child = this.child;
    if (!child) throw new Error('health sampler not started');
    type Reply = { latencies: number[]; startedAt: number[]; errors: number; loopMaxMs: number };
    const reply = await new Promise<Reply>((resolve, reject) => {
      child.once('message', (m) => resolve(m as Reply));
      child.once('exit', () => reject(new Error('the health sampler exited without its figures')));
      child.send('stop');
    });
    const l = reply.latencies;
    this.stats = {
      samples: l.length,
      errors: reply.errors,
      maxMs: l.length ? Math.max(...l) : NaN,
      p99Ms: percentile(l, 99),
      p50Ms: percentile(l, 50),
      over100: l.filter((x) => x >= 100).length,
      samplerLoopMaxMs: reply.loopMaxMs,
      slow: l.flatMap((ms, i) => (ms >= 100 ? [{ at: reply.startedAt[i] ?? NaN, ms }] : [])),
    };
    return this.stats;
  }

  /** Stops the child without waiting for figures (failure path). */
  kill(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

export interface ActivityProfile {
  samples: number;
  /** Samples in which no worker connection was running a statement (the worker was in JavaScript, or waiting on Redis). */
  idle: number;
  /** Samples per statement (first words, whitespace collapsed), busiest first. */
  top: { what: string; samples: number }[];
}

/**
 * Samples pg_stat_activity every `everyMs` for the worker's connections (application_name crew-worker, and crew-worker-webhooks of its drain thread) of
 * the bench database: which statement is running, or 'idle in transaction' (the worker holds a transaction
 * open while it computes). A sampling profile of where the worker's wall time goes on the database side.
 */
export class PgActivityProfiler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private idle = 0;
  private running = false;
  private loop: Promise<void> | null = null;
  private client: pg.Client | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly dbName: string,
    private readonly everyMs = 250,
  ) {}

  async start(): Promise<this> {
    this.client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'crew-bench-profiler' });
    await this.client.connect();
    this.running = true;
    const client = this.client;
    this.loop = (async () => {
      while (this.running) {
        const t = performance.now();
        try {
          const res = await client.query<{ state: string; query: string; wait: string | null }>(
            `select state, left(regexp_replace(query, '\\s+', ' ', 'g'), 200) as query, wait_event_type || ':' || wait_event as wait
               from pg_stat_activity where datname = $1 and application_name in ('crew-worker', 'crew-worker-webhooks') and state <> 'idle'`,
            [this.dbName],
          );
          this.samples++;
          if (res.rows.length === 0) this.idle++;
          for (const r of res.rows) {
            const what =
              r.state === 'active'
                ? `${shorten(r.query)}${r.wait && !r.wait.startsWith('Client') ? ` [${r.wait}]` : ''}`
                : `(${r.state})`;
            this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
          }
        } catch {
          // a failed sample is skipped
        }
        const ms = performance.now() - t;
        if (ms < this.everyMs) await new Promise((r) => setTimeout(r, this.everyMs - ms));
      }
    })();
    return this;
  }

  async stop(): Promise<ActivityProfile> {
    this.running = false;
    await this.loop;
    await this.client?.end().catch(() => undefined);
    const top = [...this.counts.entries()]
      .map(([what, samples]) => ({ what, samples }))
      .sort((a, b) => b.samples - a.samples);
    return { samples: this.samples, idle: this.idle, top };
  }
}

/** The first words of a statement, enough to recognise it: `insert into "action_items" (...)`, `update "bookings" set`. */
function shorten(query: string): string {
  // Leading comments (the PREPARED mark) are not the statement.
  const q = query.replace(/^(\s*\/\*.*?\*\/)+/, '').trim();
  const m =
    /^(with\s+\S+\s+as\s*\(\s*)?(select|insert into|update|delete from|copy|begin|commit)\s*("?[\w.]+"?)?/i.exec(q);
  if (!m) return q.slice(0, 60);
  const verb = m[2]!.toLowerCase();
  const table = m[3] ?? '';
  if (verb === 'select') {
    const from = /\bfrom\s+("?[\w.]+"?)/i.exec(q);
    return `select … from ${from ? from[1] : '?'}`;
  }
  return `${verb} ${table}`.trim();
}

export interface CpuSnapshot {
  at: number;
  perPid: Map<number, number>;
}

export function cpuSnapshot(pids: number[]): CpuSnapshot {
  return { at: performance.now(), perPid: new Map(pids.map((p) => [p, cpuSeconds(p) ?? 0])) };
}

/** CPU seconds used by `pid` between two snapshots. */
export function cpuDelta(a: CpuSnapshot, b: CpuSnapshot, pid: number): number {
  return (b.perPid.get(pid) ?? 0) - (a.perPid.get(pid) ?? 0);
}

/** Pids of the Postgres backends serving the bench database (their CPU is the database side of the work). */
export async function backendPids(client: pg.Client, dbName: string): Promise<number[]> {
  const res = await client.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
    [dbName],
  );
  return res.rows.map((r) => Number(r.pid));
}

/** Machine-wide CPU from /proc/stat, in CPU-seconds since boot: busy (user, nice, system, irq, softirq, steal) and total. */
export function machineCpu(): { busy: number; total: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy: busy / 100, total: (busy + idle! + iowait!) / 100, steal: steal! / 100 };
}

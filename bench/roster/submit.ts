/**
 * One timed schedule submission of the roster benchmark: POST the body, poll processing-status until it says
 * stop polling, and what happened meanwhile — the schedule row's phases, /healthz latency, the worker's
 * statements, CPU seconds per process.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { expectStatus, http, type StackUrls, type Tenant } from '../lib/client';
import { sleep } from '../lib/console';
import { checkpoint } from '../lib/floor';
import {
  backendPids,
  cpuDelta,
  cpuSnapshot,
  HealthSampler,
  machineCpu,
  PgActivityProfiler,
  type ActivityProfile,
  type HealthStats,
} from '../lib/observe';
import { procStatusKb, type Service } from '../lib/processes';
import type { WebhookSink } from '../lib/webhooks';
import { TIMEOUT_MS } from './options';

export interface Submission {
  label: string;
  scheduleId: string;
  bytes: number;
  postMs: number;
  doneMs: number;
  status: string;
  items: number;
  /** Wall-clock phases from the schedule row (Postgres clock on this machine): ms. */
  untilReceivedMs: number;
  queuedMs: number;
  processingMs: number;
  afterCompletedMs: number;
  health: HealthStats;
  /** The /healthz samples of 100 ms or more, relative to the start of the POST, and whether they overlapped the POST. */
  slow: { offsetMs: number; ms: number; duringPost: boolean }[];
  /** The worker's VmHWM (kB) after this run. */
  workerHwmKb: number | null;
  profile: ActivityProfile;
  /** CPU seconds during the run: worker, api, Postgres backends of the bench db, the bench process, and the whole machine (busy). */
  cpu: { api: number; worker: number; postgres: number; bench: number; machineBusy: number; wallS: number };
  polls: number;
}

export interface Ctx {
  urls: StackUrls;
  api: Service;
  worker: Service;
  dbName: string;
  databaseUrl: string;
  reader: pg.Client;
  /** The webhook receiver every airline's endpoint points at (BENCH_WEBHOOKS). */
  webhooks: WebhookSink | null;
}

export async function scheduleRow(ctx: Ctx, id: string) {
  const r = await ctx.reader.query<{
    status: string;
    received_at: Date;
    started_at: Date | null;
    completed_at: Date | null;
    error: string | null;
  }>('select status, received_at, started_at, completed_at, error from schedules where schedule_id = $1', [id]);
  return r.rows[0]!;
}

/** POST the body, then poll processing-status every 200 ms until poll_recommended is false. */
export async function submitAndWait(ctx: Ctx, tenant: Tenant, label: string, body: Buffer): Promise<Submission> {
  // Every timed run, the floor's too, starts right after a checkpoint (bench/lib/floor.ts).
  await checkpoint(ctx.reader);
  const pidsBefore = await backendPids(ctx.reader, ctx.dbName);
  const health = await new HealthSampler(`${ctx.urls.apiUrl}/healthz`).start();
  const profiler = await new PgActivityProfiler(ctx.databaseUrl, ctx.dbName).start();
  const token = await tenant.token();
  const cpuBefore = cpuSnapshot([ctx.api.pid, ctx.worker.pid, ...pidsBefore]);
  const machineBefore = machineCpu();
  const benchBefore = process.cpuUsage();
  const wallStart = Date.now();
  const t0 = performance.now();
  let stopped = false;
  const stopObservers = async () => {
    if (stopped) return null;
    stopped = true;
    return { h: await health.stop(), p: await profiler.stop() };
  };
  try {
    const res = await http(`${ctx.urls.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      raw: body,
      token,
      timeoutMs: 600_000,
    });
    const postMs = performance.now() - t0;
    expectStatus(res, 202, `${label}: POST /crew/schedules`);
    const id = res.body.schedule_id as string;
    let polls = 0;
    let last: any;
    let doneMs = NaN;
    for (;;) {
      const ps = await tenant.api(`/crew/schedules/${id}/processing-status`);
      polls++;
      expectStatus(ps, 200, `${label}: processing-status`);
      if (!ps.body.poll_recommended) {
        doneMs = performance.now() - t0;
        last = ps.body;
        break;
      }
      if (performance.now() - t0 > TIMEOUT_MS)
        throw new Error(`${label}: schedule ${id} still ${ps.body.status} after ${TIMEOUT_MS / 1000} s`);
      await sleep(200);
    }
    const doneWall = wallStart + doneMs;
    const benchCpu = process.cpuUsage(benchBefore);
    const machineAfter = machineCpu();
    const pidsAfter = await backendPids(ctx.reader, ctx.dbName);
    const cpuAfter = cpuSnapshot([ctx.api.pid, ctx.worker.pid, ...pidsAfter]);
    const obs = (await stopObservers())!;
    const pgCpu = [...new Set([...pidsBefore, ...pidsAfter])].reduce(
      (s, p) => s + Math.max(0, cpuDelta(cpuBefore, cpuAfter, p)),
      0,
    );
    const row = await scheduleRow(ctx, id);
    const received = row.received_at.getTime();
    const started = row.started_at?.getTime() ?? NaN;
    const completed = row.completed_at?.getTime() ?? NaN;
    if (row.status === 'FAILED') throw new Error(`${label}: schedule ${id} FAILED: ${row.error}`);
    return {
      label,
      scheduleId: id,
      bytes: body.length,
      postMs,
      doneMs,
      status: last.status,
      items: last.summary?.action_items_total ?? NaN,
      untilReceivedMs: received - wallStart,
      queuedMs: started - received,
      processingMs: completed - started,
      afterCompletedMs: doneWall - completed,
      health: obs.h,
      slow: obs.h.slow.map((x) => ({
        offsetMs: x.at - wallStart,
        ms: x.ms,
        duringPost: x.at < wallStart + postMs && x.at + x.ms > wallStart,
      })),
      workerHwmKb: procStatusKb(ctx.worker.pid, 'VmHWM'),
      profile: obs.p,
      cpu: {
        api: cpuDelta(cpuBefore, cpuAfter, ctx.api.pid),
        worker: cpuDelta(cpuBefore, cpuAfter, ctx.worker.pid),
        postgres: pgCpu,
        bench: (benchCpu.user + benchCpu.system) / 1e6,
        machineBusy: machineAfter.busy - machineBefore.busy,
        wallS: doneMs / 1000,
      },
      polls,
    };
  } finally {
    await stopObservers();
  }
}

export function profileText(p: ActivityProfile): string {
  const share = (n: number) => `${((100 * n) / Math.max(1, p.samples)).toFixed(0)} %`;
  const busy = p.top.slice(0, 6).map((x) => `${x.what} ${share(x.samples)}`);
  return `${p.samples} samples; no worker statement running ${share(p.idle)}${busy.length ? `; ${busy.join('; ')}` : ''}`;
}

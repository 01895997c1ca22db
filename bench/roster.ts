/**
 * `npm run bench:roster`: the roster benchmark of the roster/diff issue and the booking-throughput extension.
 *
 * Options (environment):
 *   BENCH_SIZE=S|M|L            roster size of the schedule figures (default L)
 *   BENCH_BOOKING_SIZE=S|M|L    roster size of the booking-throughput part (default M; L means ~120k supplier calls)
 *   BENCH_SKIP_BOOKING=1        skip the booking-throughput part
 *   BENCH_TIMEOUT_S             per-submission deadline in seconds (default 1200)
 *   BENCH_DOCS=0                do not write docs/benchmarks.md
 *   BENCH_RECORD_REFUSALS=1     diagnostics: the worker reaches the sandbox through a relay that prints every 4xx
 *   BENCH_OLD_FLOOR=1           also measure the floor as defined before issue 12 (parse + COPY + BullMQ), for reference
 *   BENCH_WORKER_LOG_LEVEL      the worker's LOG_LEVEL (default info: its "schedule processed" phases reach the report)
 *   BENCH_WORKER_EXEC_ARGV      node flags for the worker that NODE_OPTIONS refuses, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
 *   BENCH_API_EXEC_ARGV         the same for the api
 *   BENCH_KEEP_DB=1             diagnostics: keep the benchmark's database (its name is printed first)
 *   BENCH_WEBHOOKS=0            no webhook endpoint (default: one per airline, subscribed to every event type, issue 13)
 *   BENCH_SERVICE_LOG_DIR       diagnostics: each service's whole output appended to <dir>/<service>.log (e.g. with --trace-gc)
 *
 * It starts auth, supplier-sandbox (latency 0), api and worker as real processes against a fresh database
 * (crew_bench_<random>, dropped at the end) and a unique BullMQ prefix on 127.0.0.1, measures the floor and
 * the service, prints a report, writes it into docs/benchmarks.md, and stops every process it started. Each
 * timed run, floor or service, starts right after a CHECKPOINT (bench/lib/floor.ts checkpoint).
 */
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import type pg from 'pg';
import { checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import { addDays, diffRoster, flattenRoster } from '@crew/engine';
import { generateRoster, mutateRoster, ROSTER_SIZES, type RosterSize } from '@crew/roster-generator';
import { expectStatus, http, onboard, type StackUrls, type Tenant } from './lib/client';
import {
  checkpoint,
  measureCopy,
  measureParse,
  measureQueue,
  measureRosterFloor,
  type CopyFloor,
  type ParseFloor,
  type QueueFloor,
} from './lib/floor';
import {
  backendPids,
  cpuDelta,
  cpuSnapshot,
  HealthSampler,
  machineCpu,
  PgActivityProfiler,
  type ActivityProfile,
  type HealthStats,
} from './lib/observe';
import {
  freePort,
  procStatusKb,
  recentOutput,
  ROOT,
  startService,
  stopAll,
  waitHttpOk,
  type Service,
} from './lib/processes';
import { benchCleanups } from './lib/cleanup';
import { prepareBenchStorage } from './lib/storage';
import { int, mib, ms, ratio, sec, table, textTable, writeDocsBlock } from './lib/report';
import { startRefusalProxy, type RefusalProxy } from './lib/refusal-proxy';
import { WebhookSink } from './lib/webhooks';

// ---------------------------------------------------------------------------------------------- options

function sizeOf(name: string, fallback: RosterSize): RosterSize {
  const v = (process.env[name] || fallback).toUpperCase();
  if (!(v in ROSTER_SIZES))
    throw new Error(`${name} must be one of ${Object.keys(ROSTER_SIZES).join(', ')}, got "${v}"`);
  return v as RosterSize;
}

const SIZE = sizeOf('BENCH_SIZE', 'L');
const BOOKING_SIZE = sizeOf('BENCH_BOOKING_SIZE', 'M');
const SKIP_BOOKING = process.env.BENCH_SKIP_BOOKING === '1';
/** Diagnostics: route the worker's supplier calls through a proxy that records 4xx answers (slows booking down). */
const RECORD_REFUSALS = process.env.BENCH_RECORD_REFUSALS === '1';
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_S || 1200) * 1000;
const WRITE_DOCS = process.env.BENCH_DOCS !== '0';
const WEBHOOKS = process.env.BENCH_WEBHOOKS !== '0';
/** Also measure the floor as defined before issue 12 (parse + COPY + BullMQ addBulk/drain), for reference. */
const OLD_FLOOR = process.env.BENCH_OLD_FLOOR === '1';
const START_DATE = '2027-03-01';
const SEED = 1;
const PG_BASE = 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = 'redis://127.0.0.1:6379';
const GIB_KB = 1024 * 1024;

const say = (s = '') => process.stdout.write(`${s}\n`);
const step = (s: string) => say(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

// ---------------------------------------------------------------------------------------------- cleanup

const { cleanups, cleanup } = benchCleanups();

// ---------------------------------------------------------------------------------------------- machine

function machine() {
  let nproc = os.cpus().length;
  try {
    nproc = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    // os.cpus() then
  }
  return {
    nproc,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
  };
}

const MACHINE = machine();

/** The code measured: HEAD's commit, and how many tracked files differ from it (read-only git calls). */
function codeVersion(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean).length;
    return dirty ? `commit ${head} with ${dirty} modified tracked file(s)` : `commit ${head}`;
  } catch {
    return 'unknown (no git)';
  }
}

// ---------------------------------------------------------------------------------------------- submissions

interface Submission {
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

interface Ctx {
  urls: StackUrls;
  api: Service;
  worker: Service;
  dbName: string;
  databaseUrl: string;
  reader: pg.Client;
  /** The webhook receiver every airline's endpoint points at (BENCH_WEBHOOKS). */
  webhooks: WebhookSink | null;
}

async function scheduleRow(ctx: Ctx, id: string) {
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
async function submitAndWait(ctx: Ctx, tenant: Tenant, label: string, body: Buffer): Promise<Submission> {
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

// ---------------------------------------------------------------------------------------------- booking part

interface BookingRun {
  size: RosterSize;
  stations: number;
  stationsSkipped: string[];
  bookings: number;
  byStatus: Record<string, number>;
  diffDoneMs: number;
  terminalMs: number;
  pollFalseMs: number;
  confirmed: number;
  perSecond: number;
  perSecondBookingPhase: number;
  scheduleStatus: string;
  /** Bookings not CONFIRMED, by type, status and reason (largest groups). */
  notConfirmed: string[];
  timedOut: boolean;
  health: HealthStats;
  /** The /healthz samples of 100 ms or more, by start offset from the POST. */
  slowHealth: { offsetMs: number; ms: number }[];
  profile: ActivityProfile;
  /** Confirmed bookings per second in each quarter of the booking phase. */
  quarters: number[];
  cpu: { api: number; worker: number; sandbox: number; postgres: number; machineBusy: number };
}

async function bookingThroughput(ctx: Ctx, sandbox: Service): Promise<BookingRun> {
  step(`booking part: onboarding a second airline, roster ${BOOKING_SIZE}`);
  const tenant = await onboard(ctx.urls, 'Bench Booking Air', 'BK');
  if (ctx.webhooks) await ctx.webhooks.subscribe(tenant);
  expectStatus(
    await tenant.api('/crew/config/company', { method: 'PUT', body: { crew_booker_email: 'booker@bk.bench' } }),
    200,
    'company config',
  );
  const roster = generateRoster({
    ...ROSTER_SIZES[BOOKING_SIZE],
    seed: SEED + 1,
    startDate: START_DATE,
    carrier: 'BK',
  });
  const allStations = [...new Set(flattenRoster(roster).layovers.map((l) => l.station))].sort();
  const stations: string[] = [];
  const skipped: string[] = [];
  for (const s of allStations) {
    const res = await http(`${sandbox.url}/hotels/GDS-${s}-001`);
    if (res.status === 200) stations.push(s);
    else if (res.status === 404) skipped.push(s);
    else throw new Error(`sandbox GET /hotels/GDS-${s}-001: ${res.status} ${res.text}`);
  }
  const cfg = await tenant.api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: stations.map((s) => ({
        base_station: s,
        hotels: [{ property_id: `GDS-${s}-001`, policy: 'FLEXIBLE', flex_window_minutes: 1440 }],
      })),
    },
  });
  expectStatus(cfg, 200, 'PUT /crew/config/hotels');
  for (const base of cfg.body.bases as { base_station: string; hotels: { hotel_config_id: number }[] }[]) {
    const hotelId = base.hotels[0]!.hotel_config_id;
    const c = await tenant.api(`/crew/config/hotels/${hotelId}/contracts`, {
      method: 'POST',
      body: { contract_number: `BENCH-${base.base_station}`, contract_from: '2027-01-01', contract_to: '2027-12-31' },
    });
    expectStatus(c, 201, `contract ${base.base_station}`);
    const rates = await tenant.api(`/crew/config/hotels/${hotelId}/contracts/${c.body.contract_id}/rates`, {
      method: 'PUT',
      body: {
        rate_periods: [
          { effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 150, currency: 'USD' } },
        ],
      },
    });
    expectStatus(rates, 200, `rates ${base.base_station}`);
    const cr = await tenant.api('/crew/config/hotels/change-requests', {
      method: 'POST',
      body: { contract_id: c.body.contract_id, intent: 'ENABLE' },
    });
    expectStatus(cr, 201, `change request ${base.base_station}`);
    const decided = await http(`${ctx.urls.apiUrl}/ops/v1/change-requests/${cr.body.request_id}/decide`, {
      method: 'POST',
      token: ctx.urls.opsToken,
      body: { decision: 'APPROVED', decided_by: 'bench@crew.travel' },
    });
    expectStatus(decided, 200, `decide ${base.base_station}`);
  }
  step(
    `booking part: ${stations.length} stations contracted${skipped.length ? ` (skipped, unknown to the sandbox: ${skipped.join(', ')})` : ''}; submitting`,
  );

  const body = Buffer.from(JSON.stringify(roster));
  const health = await new HealthSampler(`${ctx.urls.apiUrl}/healthz`).start();
  const profiler = await new PgActivityProfiler(ctx.databaseUrl, ctx.dbName).start();
  const pidsBefore = await backendPids(ctx.reader, ctx.dbName);
  const cpuBefore = cpuSnapshot([ctx.api.pid, ctx.worker.pid, sandbox.pid, ...pidsBefore]);
  const machineBefore = machineCpu();
  const t0 = performance.now();
  const t0Epoch = Date.now();
  let healthStats: HealthStats | null = null;
  let profile: ActivityProfile | null = null;
  /** (seconds since submit, CONFIRMED so far): the booking rate over time. */
  const progress: [number, number][] = [];
  try {
    const res = await http(`${ctx.urls.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      raw: body,
      token: await tenant.token(),
      timeoutMs: 600_000,
    });
    expectStatus(res, 202, 'booking roster POST');
    const id = res.body.schedule_id as string;
    let diffDoneMs = NaN;
    let pollFalseMs = NaN;
    let terminalMs = NaN;
    let timedOut = false;
    let status = '';
    let byStatus: Record<string, number> = {};
    let lastReport = performance.now();
    for (;;) {
      status = (await scheduleRow(ctx, id)).status;
      const counts = await ctx.reader.query<{ status: string; n: string }>(
        'select status, count(*) as n from bookings where schedule_id = $1 group by status',
        [id],
      );
      byStatus = Object.fromEntries(counts.rows.map((r) => [r.status, Number(r.n)]));
      const now = performance.now() - t0;
      progress.push([now / 1000, byStatus.CONFIRMED ?? 0]);
      if (Number.isNaN(diffDoneMs) && status !== 'QUEUED' && status !== 'PROCESSING') diffDoneMs = now;
      if (Number.isNaN(pollFalseMs)) {
        const ps = await tenant.api(`/crew/schedules/${id}/processing-status`);
        if (ps.status === 200 && !ps.body.poll_recommended) pollFalseMs = performance.now() - t0;
      }
      if (status === 'FAILED') throw new Error(`booking roster ${id} FAILED`);
      if ((byStatus.PENDING ?? 0) === 0 && ['COMPLETED', 'PARTIAL'].includes(status)) {
        terminalMs = now;
        break;
      }
      if (now > TIMEOUT_MS) {
        timedOut = true;
        terminalMs = now;
        break;
      }
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        step(`  booking: ${sec(now)} schedule ${status}, bookings ${JSON.stringify(byStatus)}`);
      }
      await sleep(500);
    }
    const machineAfter = machineCpu();
    const pidsAfter = await backendPids(ctx.reader, ctx.dbName);
    const cpuAfter = cpuSnapshot([ctx.api.pid, ctx.worker.pid, sandbox.pid, ...pidsAfter]);
    const pgCpu = [...new Set([...pidsBefore, ...pidsAfter])].reduce(
      (sum, p) => sum + Math.max(0, cpuDelta(cpuBefore, cpuAfter, p)),
      0,
    );
    healthStats = await health.stop();
    profile = await profiler.stop();
    // Booking rate in each quarter of the booking phase (diff written → terminal): a falling rate means per-booking cost grows with progress.
    const startS = diffDoneMs / 1000;
    const spanS = terminalMs / 1000 - startS;
    const confirmedAt = (t: number) => {
      let c = 0;
      for (const [s2, n] of progress) if (s2 <= t) c = n;
      return c;
    };
    const quarters = [0, 1, 2, 3].map((q) => {
      const a = startS + (q * spanS) / 4;
      const b = startS + ((q + 1) * spanS) / 4;
      return (confirmedAt(b) - confirmedAt(a)) / (b - a);
    });
    const bookings = Object.values(byStatus).reduce((a, b) => a + b, 0);
    const why = await ctx.reader.query<{ type: string; status: string; reason: string; n: string }>(
      `select type, status, coalesce(left(review_reason, 120), '-') as reason, count(*) as n from bookings
        where schedule_id = $1 and status <> 'CONFIRMED' group by 1, 2, 3 order by 4 desc limit 6`,
      [id],
    );
    const notConfirmed = why.rows.map((r) => `${r.type} ${r.status} ${int(Number(r.n))}: ${r.reason}`);
    const confirmed = byStatus.CONFIRMED ?? 0;
    return {
      size: BOOKING_SIZE,
      stations: stations.length,
      stationsSkipped: skipped,
      bookings,
      byStatus,
      diffDoneMs,
      terminalMs,
      pollFalseMs,
      confirmed,
      perSecond: confirmed / (terminalMs / 1000),
      perSecondBookingPhase: confirmed / ((terminalMs - diffDoneMs) / 1000),
      scheduleStatus: status,
      notConfirmed,
      timedOut,
      health: healthStats,
      slowHealth: healthStats.slow.map((x) => ({ offsetMs: x.at - t0Epoch, ms: x.ms })),
      profile,
      quarters,
      cpu: {
        api: cpuDelta(cpuBefore, cpuAfter, ctx.api.pid),
        worker: cpuDelta(cpuBefore, cpuAfter, ctx.worker.pid),
        sandbox: cpuDelta(cpuBefore, cpuAfter, sandbox.pid),
        postgres: pgCpu,
        machineBusy: machineAfter.busy - machineBefore.busy,
      },
    };
  } finally {
    if (!healthStats) health.kill();
    if (!profile) await profiler.stop().catch(() => undefined);
  }
}

function profileText(p: ActivityProfile): string {
  const share = (n: number) => `${((100 * n) / Math.max(1, p.samples)).toFixed(0)} %`;
  const busy = p.top.slice(0, 6).map((x) => `${x.what} ${share(x.samples)}`);
  return `${p.samples} samples; no worker statement running ${share(p.idle)}${busy.length ? `; ${busy.join('; ')}` : ''}`;
}

// ---------------------------------------------------------------------------------------------- rosters

interface Prepared {
  bodies: { first: Buffer; onePct: Buffer; tenPct: Buffer; rolled: Buffer };
  counts: {
    pairings: number;
    rowCount: number;
    crewLegs: number;
    deadheads: number;
    layovers: number;
    actionItems: number;
  };
  parse: ParseFloor;
  flattenMs: number;
  diffMs: number;
  /** The api's synchronous work on the body, timed in this process for reference. */
  api: { checkBodyMs: number; issuesMs: number; gzipMs: number };
}

/**
 * Generates the roster and its 1 % / 10 % changed successors, counts what the first diff implies and times
 * the floor's JSON.parse. Returns only Buffers and numbers: the rosters' object graphs become garbage, so the
 * bench process keeps a small heap while the services are measured.
 */
function prepare(): Prepared {
  step(`generating the ${SIZE} roster`);
  const roster = generateRoster({ ...ROSTER_SIZES[SIZE], seed: SEED, startDate: START_DATE });
  const bodyText = JSON.stringify(roster);
  let t = performance.now();
  const flat = flattenRoster(roster);
  const flattenMs = performance.now() - t;
  t = performance.now();
  const firstDiff = diffRoster({
    current: flat,
    previous: null,
    hotelBookings: [],
    flightBookings: [],
    window: { start: roster.schedule_start_date, end: roster.schedule_end_date },
    settings: { emit_unchanged: false, cancellation_lookback_days: 0 },
    processedAt: `${START_DATE}T00:00:00Z`,
  });
  const diffMs = performance.now() - t;
  let crewLegs = 0;
  for (const p of roster.pairings) for (const d of p.duty_periods) crewLegs += p.crew.length * d.legs.length;
  const counts = {
    pairings: roster.pairings.length,
    rowCount: flat.rowCount,
    crewLegs,
    deadheads: flat.deadheads.length,
    layovers: flat.layovers.length,
    actionItems: firstDiff.actionItems.length,
  };
  step('floor: JSON.parse');
  const parse = measureParse(bodyText);
  const parsed = JSON.parse(bodyText) as unknown;
  t = performance.now();
  const checked = checkBody(ScheduleSubmission, parsed);
  const checkBodyMs = performance.now() - t;
  if (!checked.ok)
    throw new Error(
      `the generated roster does not pass the api's schema: ${JSON.stringify(checked.issues.slice(0, 3))}`,
    );
  t = performance.now();
  scheduleSubmissionIssues(checked.value);
  const issuesMs = performance.now() - t;
  const first = Buffer.from(bodyText);
  t = performance.now();
  gzipSync(first, { level: 1 });
  const gzipMs = performance.now() - t;
  step('generating the 1 % and 10 % changed rosters, and the 10 % one a day later');
  const onePct = mutateRoster(roster, { fraction: 0.01, seed: SEED + 100 });
  const tenPct = mutateRoster(onePct, { fraction: 0.1, seed: SEED + 200 });
  // The 10 % roster again with its window a day later (a rolling window): only the pairings at its edges change.
  const rolled = {
    ...tenPct,
    schedule_start_date: addDays(tenPct.schedule_start_date, 1),
    schedule_end_date: addDays(tenPct.schedule_end_date, 1),
  };
  return {
    bodies: {
      first,
      onePct: Buffer.from(JSON.stringify(onePct)),
      tenPct: Buffer.from(JSON.stringify(tenPct)),
      rolled: Buffer.from(JSON.stringify(rolled)),
    },
    counts,
    parse,
    flattenMs,
    diffMs,
    api: { checkBodyMs, issuesMs, gzipMs },
  };
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = Date.now();
  const m = MACHINE;
  const suffix = randomBytes(4).toString('hex');
  const dbName = `crew_bench_${suffix}`;
  const databaseUrl = `${PG_BASE}/${dbName}`;
  const prefix = `bench${suffix}`;
  const opsToken = `bench-ops-${randomBytes(16).toString('hex')}`;
  say(
    `Roster benchmark: size ${SIZE}${SKIP_BOOKING ? '' : `, booking part ${BOOKING_SIZE}`}; database ${dbName}, queue prefix ${prefix}`,
  );
  const code = codeVersion();
  say(`Machine: ${m.nproc} cores (${m.cpu}), ${m.memGiB} GiB, node ${m.node}, ${m.kernel}; code: ${code}`);

  // Database and Redis; their cleanup is registered first, so it runs last.
  const { reader, redis } = await prepareBenchStorage(databaseUrl, REDIS_URL, prefix, cleanups);
  const versions = {
    postgres: (await reader.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '?',
    redis: /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? '?',
  };

  // ---- the roster and what it implies; only Buffers (outside the V8 heap) and counts are kept afterwards
  const prep = prepare();
  const { counts, parse, bodies } = prep;
  const body = bodies.first;
  say(
    `  ${int(body.length)} bytes, ${int(counts.pairings)} pairings, ${int(counts.rowCount)} flattened leg+layover rows (rowCount), ` +
      `${int(counts.deadheads)} deadheads + ${int(counts.layovers)} layovers kept, ${int(counts.actionItems)} action items in the first diff`,
  );
  say(`  in this process: flattenRoster ${ms(prep.flattenMs)}, diffRoster (first) ${ms(prep.diffMs)}`);
  say(
    `  the api's synchronous work on this body, timed here: JSON.parse ${ms(parse.ms)}, schema validation (checkBody) ${ms(prep.api.checkBodyMs)}, ` +
      `scheduleSubmissionIssues ${ms(prep.api.issuesMs)}; gzip level 1 ${ms(prep.api.gzipMs)} (libuv thread pool)`,
  );

  // The floor of issue 12: JSON.parse of the body + COPY (text) of N = crew-legs + 2 × crew-layovers + crew-deadheads
  // rows into a fresh table; measured three times, the least counts. No BullMQ.
  step('floor: JSON.parse + COPY, three times');
  const floorRows = counts.crewLegs + 2 * counts.layovers + counts.deadheads;
  const floor = await measureRosterFloor(databaseUrl, body.toString('utf8'), floorRows, 3);
  const floorMs = floor.best.ms;
  say(
    `  N = ${int(counts.crewLegs)} crew-legs + 2 × ${int(counts.layovers)} crew-layovers + ${int(counts.deadheads)} crew-deadheads = ${int(floorRows)} rows (${(floor.best.bytes / 1e6).toFixed(1)} MB of COPY text)`,
  );
  say(
    `  floor runs: ${floor.all.map((f) => `${ms(f.parseMs)} + ${ms(f.copyMs)} = ${ms(f.ms)}`).join('; ')} → floor ${ms(floorMs)} (least)`,
  );
  // The previous definition (parse + COPY of rowCount + items + BullMQ addBulk/drain of as many jobs), for reference only.
  let oldFloor: { copy: CopyFloor; queue: QueueFloor; ms: number } | null = null;
  if (OLD_FLOOR) {
    step('reference: the previous floor (COPY of rowCount + items, BullMQ addBulk + drain)');
    const copy = await measureCopy(databaseUrl, counts.rowCount + counts.actionItems, 'main');
    const queue = await measureQueue(REDIS_URL, prefix, counts.actionItems, 'child-process');
    oldFloor = { copy, queue, ms: parse.ms + copy.ms + queue.ms };
    say(
      `  previous floor a + b + c = ${ms(oldFloor.ms)} (COPY ${int(copy.rows)} rows ${ms(copy.ms)}, BullMQ ${int(queue.jobs)} jobs ${ms(queue.ms)})`,
    );
  }

  // ---- the stack
  step('starting auth, supplier-sandbox, api, worker');
  const [apiPort, workerPort, authPort, sandboxPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const authUrl = `http://127.0.0.1:${authPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    AUTH_URL: authUrl,
    SUPPLIER_URL: sandboxUrl,
    OPS_TOKEN: opsToken,
    LOG_LEVEL: 'warn',
    API_PORT: String(apiPort),
    WORKER_PORT: String(workerPort),
    AUTH_PORT: String(authPort),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_LATENCY_MS: '0',
    SANDBOX_LATENCY_JITTER_MS: '0',
    SHUTDOWN_DEADLINE_MS: '8000',
    // The api encrypts webhook secrets, the worker decrypts them: one key for both.
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  cleanups.push({ name: 'stop processes', run: () => stopAll(12_000) });
  const auth = startService('auth', authPort, env);
  const sandbox = startService('supplier-sandbox', sandboxPort, env);
  const api = startService('api', apiPort, env, (process.env.BENCH_API_EXEC_ARGV ?? '').split(' ').filter(Boolean));
  let proxy: RefusalProxy | null = null;
  if (RECORD_REFUSALS) {
    proxy = await startRefusalProxy(await freePort(), sandboxUrl);
    const p = proxy;
    cleanups.push({ name: 'refusal proxy', run: () => p.close() });
  }
  // The worker runs with its Node options as deployed (k8s/base/worker.yaml); BENCH_WORKER_NODE_OPTIONS overrides them.
  // The worker logs at info so that its "schedule processed" lines (phase timings) reach the report.
  const workerEnv = {
    ...env,
    LOG_LEVEL: process.env.BENCH_WORKER_LOG_LEVEL ?? 'info',
    NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS ?? '--max-old-space-size=850 --max-semi-space-size=32',
  };
  // Diagnostics: node flags NODE_OPTIONS refuses (e.g. --cpu-prof --cpu-prof-dir=…), space-separated.
  const workerArgv = (process.env.BENCH_WORKER_EXEC_ARGV ?? '').split(' ').filter(Boolean);
  const worker = startService(
    'worker',
    workerPort,
    proxy ? { ...workerEnv, SUPPLIER_URL: proxy.url } : workerEnv,
    workerArgv,
  );
  await Promise.all([
    waitHttpOk(`${authUrl}/healthz`, auth),
    waitHttpOk(`${sandboxUrl}/healthz`, sandbox),
    waitHttpOk(`http://127.0.0.1:${workerPort}/healthz`, worker),
    waitHttpOk(`http://127.0.0.1:${apiPort}/readyz`, api),
  ]);
  say(`  pids: auth ${auth.pid}, sandbox ${sandbox.pid}, api ${api.pid}, worker ${worker.pid}`);
  const urls: StackUrls = { apiUrl: `http://127.0.0.1:${apiPort}`, authUrl, opsToken };
  const webhooks = WEBHOOKS ? await new WebhookSink().start() : null;
  if (webhooks) cleanups.push({ name: 'webhook receiver', run: () => webhooks.close() });
  const ctx: Ctx = { urls, api, worker, dbName, databaseUrl, reader, webhooks };

  // ---- service figures
  step('onboarding the airline (schedules_access on)');
  const tenant = await onboard(urls, 'Bench Air', 'XY');
  if (webhooks) await webhooks.subscribe(tenant);
  const runs: Submission[] = [];
  const phasesOf = new Map<string, string>();
  const report = async (s: Submission) => {
    // The worker's own account of the run: its "schedule processed" log line with milliseconds per phase. It comes
    // after the commit the run ends with, once the worker has analyzed the tables a big diff wrote (its `analyze`
    // phase): the next run starts after it, so that run's time and CPU are its own.
    const processed = () =>
      [...worker.output].reverse().find((l) => l.includes('"schedule processed"') && l.includes(s.scheduleId));
    for (let waited = 0; !processed() && waited < 60_000; waited += 50) await sleep(50);
    const line = processed();
    if (line) {
      const logged = JSON.parse(line) as { phases_ms?: Record<string, number>; diffed_pairings?: number | string };
      const p = logged.phases_ms ?? {};
      phasesOf.set(
        s.label,
        [
          `diffed pairings ${logged.diffed_pairings ?? 'none'}`,
          ...Object.entries(p).map(([k, v]) => `${k} ${int(v)}`),
        ].join(', '),
      );
    }
    say(
      `  ${s.label}: POST→202 ${ms(s.postMs)}, submit→poll false ${ms(s.doneMs)} (${ratio(s.doneMs / floorMs)} floor), ` +
        `status ${s.status}, ${int(s.items)} items; healthz max ${ms(s.health.maxMs)} p99 ${ms(s.health.p99Ms)}`,
    );
    say(`    worker phases (ms): ${phasesOf.get(s.label) ?? 'n/a'}`);
  };
  step(`submitting ${SIZE} (first)`);
  runs.push(await submitAndWait(ctx, tenant, `${SIZE} first submission`, body));
  await report(runs[0]!);
  step(`resubmitting ${SIZE} unchanged`);
  runs.push(await submitAndWait(ctx, tenant, `${SIZE} identical resubmission`, body));
  await report(runs[1]!);
  step(`resubmitting ${SIZE} with 1 % of pairings changed`);
  runs.push(await submitAndWait(ctx, tenant, `${SIZE} 1 % changed`, bodies.onePct));
  await report(runs[2]!);
  step(`resubmitting ${SIZE} with 10 % of pairings changed (against the 1 % one)`);
  runs.push(await submitAndWait(ctx, tenant, `${SIZE} 10 % changed`, bodies.tenPct));
  await report(runs[3]!);
  step(`resubmitting the 10 % roster with its window a day later (a rolling window; no target, for reference)`);
  runs.push(await submitAndWait(ctx, tenant, `${SIZE} window a day later`, bodies.rolled));
  await report(runs[4]!);
  const afterSchedules = { workerHwm: procStatusKb(worker.pid, 'VmHWM'), apiHwm: procStatusKb(api.pid, 'VmHWM') };
  say(`  peak RSS so far: worker ${mib(afterSchedules.workerHwm)}, api ${mib(afterSchedules.apiHwm)}`);

  // ---- booking throughput
  let booking: BookingRun | null = null;
  if (!SKIP_BOOKING) {
    booking = await bookingThroughput(ctx, sandbox);
    say(
      `  booking ${booking.size}: ${int(booking.bookings)} bookings (${JSON.stringify(booking.byStatus)}), terminal after ${sec(booking.terminalMs)}` +
        `${booking.timedOut ? ' (TIMED OUT)' : ''}; ${booking.perSecond.toFixed(1)} confirmed bookings/s`,
    );
  }
  // ---- webhooks: every event delivered? event lag (change committed → received here)
  if (webhooks) {
    step('webhooks: waiting for the deliveries to drain');
    const h = await webhooks.report(reader, 300_000);
    say(
      `  webhooks: ${int(h.events)} events, ${int(h.delivered)} received (${int(h.missing)} not yet, ${int(h.pending)} deliveries PENDING, ${int(h.failed)} FAILED, ${int(h.duplicates)} duplicates); ` +
        `lag p50 ${ms(h.p50)}, p99 ${ms(h.p99)}, max ${ms(h.max)}; booking events p99 ${ms(h.bookingP99)}; by type ${JSON.stringify(h.byType)}`,
    );
  }
  const end = {
    workerHwm: procStatusKb(worker.pid, 'VmHWM'),
    apiHwm: procStatusKb(api.pid, 'VmHWM'),
    sandboxHwm: procStatusKb(sandbox.pid, 'VmHWM'),
  };
  const warnings = [api, worker, auth, sandbox].flatMap((s) =>
    s.output
      // The change requests the booking set-up raises are expected warnings.
      .filter(
        (l) =>
          (/"level":("?(warn|error|fatal)"?|40|50|60)\b/.test(l) || !l.startsWith('{')) &&
          !l.includes('hotel_change_request_raised'),
      )
      .slice(-5)
      .map((l) => `${s.name}: ${l.slice(0, 300)}`),
  );

  // ---- report
  const [first, identical, one, ten] = runs as [Submission, Submission, Submission, Submission];
  const targets = [
    {
      what: `${SIZE} submit → done ≤ 3× floor`,
      value: `${ms(first.doneMs)} = ${ratio(first.doneMs / floorMs)}`,
      met: first.doneMs <= 3 * floorMs,
    },
    {
      what: `identical ${SIZE} resubmission ≤ 1.5× floor`,
      value: `${ms(identical.doneMs)} = ${ratio(identical.doneMs / floorMs)}`,
      met: identical.doneMs <= 1.5 * floorMs,
    },
    {
      what: `${SIZE} 1 % changed ≤ 1.5× floor`,
      value: `${ms(one.doneMs)} = ${ratio(one.doneMs / floorMs)}`,
      met: one.doneMs <= 1.5 * floorMs,
    },
    {
      what: `${SIZE} 10 % changed ≤ 2× floor`,
      value: `${ms(ten.doneMs)} = ${ratio(ten.doneMs / floorMs)}`,
      met: ten.doneMs <= 2 * floorMs,
    },
    // Every one of the four posts and every health sample of the four runs counts, not only the first.
    {
      what: `POST answers 202 for ${SIZE} in < 2 s (each of the ${runs.length} posts)`,
      value: `${runs.map((r) => ms(r.postMs)).join(' / ')}`,
      met: runs.every((r) => r.postMs < 2000),
    },
    {
      what: 'worker peak RSS ≤ 1 GiB',
      value: mib(end.workerHwm),
      met: end.workerHwm !== null && end.workerHwm <= GIB_KB,
    },
    {
      what: `GET /healthz < 100 ms while ${SIZE} is ingested (all ${runs.length} runs)`,
      value: `max ${ms(Math.max(...runs.map((r) => r.health.maxMs)))}, p99 ${ms(Math.max(...runs.map((r) => r.health.p99Ms)))} (worst run)`,
      met: runs.every((r) => r.health.maxMs < 100),
    },
  ];
  const floorTable = [
    ...floor.all.map((f, i) => [
      `run ${i + 1}: JSON.parse of the body (${(body.length / 1e6).toFixed(1)} MB) + COPY (text) of ${int(f.rows)} rows`,
      `${ms(f.parseMs)} + ${ms(f.copyMs)}`,
      ms(f.ms),
    ]),
    [
      'floor (least of the runs)',
      `N = ${int(counts.crewLegs)} crew-legs + 2 × ${int(counts.layovers)} crew-layovers + ${int(counts.deadheads)} crew-deadheads`,
      ms(floorMs),
    ],
    ...(oldFloor
      ? [
          [
            '(reference: the previous floor, parse + COPY of rowCount + items + BullMQ addBulk/drain of every item)',
            `${int(oldFloor.copy.rows)} rows, ${int(oldFloor.queue.jobs)} jobs`,
            ms(oldFloor.ms),
          ],
        ]
      : []),
  ];
  const serviceRows = runs.map((s) => [
    s.label,
    ms(s.doneMs),
    ratio(s.doneMs / floorMs),
    ms(s.postMs),
    int(s.items),
    s.status,
    mib(s.workerHwmKb),
  ]);
  const phaseRows = runs.map((s) => [
    s.label,
    ms(s.untilReceivedMs),
    ms(s.postMs - s.untilReceivedMs),
    ms(s.queuedMs),
    ms(s.processingMs),
    ms(s.afterCompletedMs),
    `${s.cpu.worker.toFixed(1)} / ${s.cpu.api.toFixed(1)} / ${s.cpu.postgres.toFixed(1)} / ${s.cpu.bench.toFixed(1)}`,
    `${s.cpu.machineBusy.toFixed(1)} s = ${((100 * s.cpu.machineBusy) / (MACHINE.nproc * s.cpu.wallS)).toFixed(0)} %`,
  ]);
  const slowText = (s: Submission) =>
    s.slow.length
      ? s.slow.map((x) => `${ms(x.ms)} at +${ms(x.offsetMs)}${x.duringPost ? ' (during the POST)' : ''}`).join('; ')
      : '-';
  const healthRows = runs.map((s) => [
    s.label,
    int(s.health.samples),
    ms(s.health.p50Ms),
    ms(s.health.p99Ms),
    ms(s.health.maxMs),
    int(s.health.over100),
    int(s.health.errors),
    ms(s.health.samplerLoopMaxMs),
    slowText(s),
  ]);
  const profileLines = runs.map((s) => `${s.label}: ${profileText(s.profile)}`);
  const rssRows = [
    ['worker', mib(afterSchedules.workerHwm), mib(end.workerHwm)],
    ['api', mib(afterSchedules.apiHwm), mib(end.apiHwm)],
    ['supplier-sandbox', '', mib(end.sandboxHwm)],
  ];
  const targetRows = targets.map((x) => [x.what, x.value, x.met ? 'met' : 'NOT met']);
  const bookingRows = booking
    ? [
        [
          'roster',
          `${booking.size}, ${booking.stations} layover stations contracted${booking.stationsSkipped.length ? ` (${booking.stationsSkipped.length} skipped)` : ''}`,
        ],
        [
          'bookings of the schedule',
          `${int(booking.bookings)}: ${Object.entries(booking.byStatus)
            .map(([k, v]) => `${k} ${int(v)}`)
            .join(', ')}`,
        ],
        ...booking.notConfirmed.map((x, i) => [i === 0 ? 'not confirmed, by type, status and reason' : '', x]),
        ['submit → diff written (schedule left PROCESSING)', ms(booking.diffDoneMs)],
        ['submit → processing-status poll_recommended false', ms(booking.pollFalseMs)],
        [
          'submit → every booking terminal (none PENDING, schedule COMPLETED)',
          `${ms(booking.terminalMs)}${booking.timedOut ? ' (timed out)' : ''}`,
        ],
        ['confirmed bookings per second (CONFIRMED / submit→terminal)', booking.perSecond.toFixed(1)],
        ['confirmed bookings per second of the booking phase only', booking.perSecondBookingPhase.toFixed(1)],
        [
          'confirmed per second in each quarter of the booking phase',
          booking.quarters.map((q) => q.toFixed(0)).join(' / '),
        ],
        [
          'CPU seconds worker / api / sandbox / Postgres backends; machine busy',
          `${booking.cpu.worker.toFixed(1)} / ${booking.cpu.api.toFixed(1)} / ${booking.cpu.sandbox.toFixed(1)} / ${booking.cpu.postgres.toFixed(1)}; ` +
            `${booking.cpu.machineBusy.toFixed(0)} s = ${((100 * booking.cpu.machineBusy) / (MACHINE.nproc * (booking.terminalMs / 1000))).toFixed(0)} % of the cores`,
        ],
        ['worker statements (pg_stat_activity samples)', profileText(booking.profile)],
        [
          'api /healthz from the POST to the last booking: p99 / max; samples ≥ 100 ms; sampler event-loop max',
          `${ms(booking.health.p99Ms)} / ${ms(booking.health.maxMs)}; ${int(booking.health.over100)} of ${int(booking.health.samples)}` +
            `${booking.slowHealth.length ? ` (${booking.slowHealth.map((x) => `${ms(x.ms)} at +${ms(x.offsetMs)}`).join(', ')}; diff written at +${ms(booking.diffDoneMs)})` : ''}` +
            `; ${ms(booking.health.samplerLoopMaxMs)}`,
        ],
      ]
    : [];

  say();
  say('================================================================ REPORT');
  say(
    `size ${SIZE}; ${m.nproc} cores, ${m.memGiB} GiB, node ${m.node}, Postgres ${versions.postgres}, Redis ${versions.redis}`,
  );
  say();
  say('Floor');
  say(textTable(['part', 'volume', 'time'], floorTable));
  say();
  say('Service (submit → processing-status poll_recommended false; polled every 200 ms)');
  say(textTable(['run', 'submit→done', '× floor', 'POST→202', 'items', 'status', 'worker VmHWM after'], serviceRows));
  say();
  say('Where the time goes (schedule row timestamps; CPU from /proc)');
  say(
    textTable(
      [
        'run',
        'until received_at',
        'received→202',
        'queued',
        'worker processing',
        'completed→seen',
        'CPU s worker/api/pg/bench',
        'machine busy',
      ],
      phaseRows,
    ),
  );
  say();
  say('Worker statements sampled from pg_stat_activity every 250 ms');
  for (const l of profileLines) say(`  ${l}`);
  say();
  say('GET /healthz on the api, every 50 ms');
  say(
    textTable(
      [
        'run',
        'samples',
        'p50',
        'p99',
        'max',
        '≥100 ms',
        'errors',
        'sampler loop max',
        'samples ≥ 100 ms (start after the POST began)',
      ],
      healthRows,
    ),
  );
  say();
  say('Peak RSS (VmHWM)');
  say(textTable(['process', 'after the schedule runs', 'at the end'], rssRows));
  if (booking) {
    say();
    say('Booking throughput (sandbox latency 0)');
    say(textTable(['figure', 'value'], bookingRows));
  }
  say();
  say(`Targets${SIZE === 'L' ? '' : ' (defined for L; shown for reference)'}`);
  say(textTable(['target', 'measured', ''], targetRows));
  if (warnings.length) {
    say();
    say('Warnings/errors the services logged (last 5 per process):');
    for (const w of warnings) say(`  ${w}`);
  }
  if (proxy) {
    say();
    say(`Supplier answers seen by the refusal relay, by status: ${JSON.stringify(Object.fromEntries(proxy.counts))}`);
    for (const r of proxy.refusals.slice(0, 5))
      say(
        `  ${r.status}\n    worker sent (tail) ${r.requestTail.slice(-1500)}\n    sandbox answered ${r.response.slice(0, 1000)}`,
      );
  }
  const totalS = (Date.now() - started) / 1000;
  say();
  say(`benchmark took ${totalS.toFixed(0)} s`);

  if (WRITE_DOCS) {
    const cmd = [
      SIZE !== 'L' ? `BENCH_SIZE=${SIZE}` : '',
      !SKIP_BOOKING && BOOKING_SIZE !== 'M' ? `BENCH_BOOKING_SIZE=${BOOKING_SIZE}` : '',
      SKIP_BOOKING ? 'BENCH_SKIP_BOOKING=1' : '',
      'npm run bench:roster',
    ]
      .filter(Boolean)
      .join(' ');
    const md = [
      `## Roster benchmark, size ${SIZE}${SKIP_BOOKING ? '' : ` (booking part ${BOOKING_SIZE})`} — ${new Date().toISOString().slice(0, 10)}`,
      '',
      `Command: \`${cmd}\` (${totalS.toFixed(0)} s). Machine: ${m.nproc} cores (${m.cpu}), ${m.memGiB} GiB RAM, node ${m.node}, ${m.kernel}, ` +
        `Postgres ${versions.postgres} and Redis ${versions.redis} on 127.0.0.1. Code: ${code}. All four services ran as separate processes ` +
        '(`node --import tsx services/<name>/src/main.ts`, LOG_LEVEL=warn, sandbox latency 0) against a fresh database.',
      '',
      `Roster: ${int(body.length)} bytes of JSON, ${int(counts.pairings)} pairings, ${int(counts.rowCount)} flattened leg+layover rows ` +
        `(flattenRoster().rowCount), of which ${int(counts.deadheads)} deadheads and ${int(counts.layovers)} layovers are kept; ` +
        `the first diff yields ${int(counts.actionItems)} action items.`,
      '',
      '### Floor (issue 12; same run, same machine, before the services started)',
      '',
      'Each floor run, like each service run below, starts right after a `CHECKPOINT`.',
      '',
      table(['part', 'volume', 'time'], floorTable),
      '',
      '### Service',
      '',
      'submit→done: from the start of the POST to the first processing-status answer with `poll_recommended` false ' +
        '(polled every 200 ms). "× floor" is the ratio to the floor above (issue 12: JSON.parse + COPY of N rows, least of three; no BullMQ).',
      '',
      table(
        ['run', 'submit→done', '× floor', 'POST→202', 'action items', 'status', 'worker VmHWM after the run'],
        serviceRows,
      ),
      '',
      'Where the time goes: "until received_at" is upload, body parsing, validation and gzip in the api before its insert ' +
        'transaction starts; "queued" is received_at→started_at (outbox relay and BullMQ pickup); "worker processing" is ' +
        'started_at→completed_at (read + gunzip + parse, flatten, diff, plan, and the write transaction); "completed→seen" ' +
        'is the commit plus the poll interval. CPU seconds are read from /proc for the worker, the api, the Postgres backends of the ' +
        'bench database and the bench process; "machine CPU busy" is /proc/stat over the run, all processes of the machine (as a share of all cores).',
      '',
      table(
        [
          'run',
          'until received_at',
          'received→202',
          'queued',
          'worker processing',
          'completed→seen',
          'CPU s worker / api / pg / bench',
          'machine CPU busy (all processes)',
        ],
        phaseRows,
      ),
      '',
      'Worker phases (ms, from its "schedule processed" log line; tx_* are inside the write transaction):',
      '',
      ...runs.map((s) => `- ${s.label}: ${phasesOf.get(s.label) ?? 'n/a'}`),
      '',
      'Worker statements sampled from pg_stat_activity every 250 ms (share of samples; several connections can be busy in one sample):',
      '',
      ...profileLines.map((l) => `- ${l}`),
      '',
      '`GET /healthz` on the api, sampled every 50 ms (one request at a time, from a separate small process) during each run:',
      '',
      table(
        [
          'run',
          'samples',
          'p50',
          'p99',
          'max',
          '≥ 100 ms',
          'errors',
          'sampler event-loop max',
          'samples ≥ 100 ms: duration at start offset from the POST',
        ],
        healthRows,
      ),
      '',
      'Peak resident set (VmHWM from /proc/<pid>/status):',
      '',
      table(['process', 'after the schedule runs', `at the end${booking ? ' (after the booking part)' : ''}`], rssRows),
      '',
      ...(booking
        ? [
            `### Booking throughput (sandbox latency 0, every layover station contracted, roster ${booking.size})`,
            '',
            'A second airline with crew_booker_email set; per layover station a GDS hotel GDS-<STATION>-001 (FLEXIBLE, ' +
              'flex_window_minutes 1440), a contract 2027-01-01..2027-12-31 with one rate period, enabled through an approved ' +
              'change request; deadhead_auto_booking left at its default (off), so deadhead flights go to review.',
            '',
            table(['figure', 'value'], bookingRows),
            '',
          ]
        : []),
      `### Targets${SIZE === 'L' ? '' : ' (defined for L; shown for reference)'}`,
      '',
      table(['target', 'measured', ''], targetRows),
    ].join('\n');
    writeDocsBlock(path.join(ROOT, 'docs/benchmarks.md'), `size=${SIZE}`, md);
    step('docs/benchmarks.md updated');
  }
}

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (err: unknown) => {
    console.error('[bench] failed:', err instanceof Error ? (err.stack ?? err.message) : err);
    const out = recentOutput();
    if (out.length) console.error(`[bench] the services' last output:\n${out.join('\n')}`);
    await cleanup();
    process.exit(1);
  });

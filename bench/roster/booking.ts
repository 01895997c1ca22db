/**
 * The booking-throughput part of the roster benchmark: a second airline with a hotel contracted at every
 * layover station the sandbox knows (latency 0) submits a roster; how fast its bookings become CONFIRMED.
 */
import { performance } from 'node:perf_hooks';
import { flattenRoster } from '@crew/engine';
import { generateRoster, ROSTER_SIZES, type RosterSize } from '@crew/roster-generator';
import { expectStatus, http, onboard } from '../lib/client';
import { sleep, step } from '../lib/console';
import { contractHotels, gdsStations, setBookerEmail } from '../lib/hotels';
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
import type { Service } from '../lib/processes';
import { int, sec } from '../lib/report';
import { BOOKING_SIZE, SEED, START_DATE, TIMEOUT_MS } from './options';
import { scheduleRow, type Ctx } from './submit';

export interface BookingRun {
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

export async function bookingThroughput(ctx: Ctx, sandbox: Service): Promise<BookingRun> {
  step(`booking part: onboarding a second airline, roster ${BOOKING_SIZE}`);
  const tenant = await onboard(ctx.urls, 'Bench Booking Air', 'BK');
  if (ctx.webhooks) await ctx.webhooks.subscribe(tenant);
  await setBookerEmail(tenant, 'booker@bk.bench');
  const roster = generateRoster({
    ...ROSTER_SIZES[BOOKING_SIZE],
    seed: SEED + 1,
    startDate: START_DATE,
    carrier: 'BK',
  });
  const { stations, skipped } = await gdsStations(
    sandbox.url,
    flattenRoster(roster).layovers.map((l) => l.station),
  );
  await contractHotels(ctx.urls, tenant, stations, 'BENCH-');
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

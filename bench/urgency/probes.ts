/**
 * What the urgency benchmark watches while it runs: the runnable booking tasks in Redis, an airline's confirmed
 * bookings, an injected P1 until its booking leaves PENDING, a roster until it is processed, the drain rate.
 * Every wait is bounded by the scenario's deadline (BENCH_DEADLINE_S).
 */
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { expectStatus, type Tenant } from '../lib/client';
import { say, sleep } from '../lib/console';
import { backendPids, cpuDelta, cpuSnapshot, machineCpu } from '../lib/observe';
import type { Service } from '../lib/processes';
import { int } from '../lib/report';
import { DEADLINE_MS, DRAIN_WINDOW_MS, s1 } from './options';
import { injected } from './work';

export class Probes {
  /** `t0`: when the scenario started (performance.now()), the start of its deadline. */
  constructor(
    private readonly t0: number,
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly reader: pg.Client,
    private readonly dbName: string,
  ) {}

  /** Throws once the scenario has run longer than its deadline. */
  guard(what: string): void {
    if (performance.now() - this.t0 > DEADLINE_MS)
      throw new Error(`deadline of ${DEADLINE_MS / 1000} s passed while waiting for ${what}`);
  }

  /** Runnable booking tasks in Redis (hotel and flight queues, every lane). */
  async backlog(): Promise<number> {
    let n = 0;
    for (const q of ['bookings', 'flight-bookings'])
      n +=
        (await this.redis.zcard(`${this.prefix}:${q}:prioritized`)) +
        (await this.redis.llen(`${this.prefix}:${q}:wait`));
    return n;
  }

  async confirmedOf(airlineId: string): Promise<number> {
    return Number(
      (
        await this.reader.query<{ n: string }>(
          `select count(*) as n from bookings where airline_id = $1 and status = 'CONFIRMED'`,
          [airlineId],
        )
      ).rows[0]!.n,
    );
  }

  /**
   * POST a P1 IROP injection of the bench's work at `station` (a hotel there, or a deadhead from there), then poll
   * the booking until it leaves PENDING: ms from the POST, and the backlog then.
   */
  async inject(tenant: Tenant, email: string, station: string, label: string) {
    const t = performance.now();
    const res = await tenant.api('/crew/action-items', {
      method: 'POST',
      body: {
        ...injected(station),
        source: 'IROP',
        irop_ref: `IROP-${label}`,
        priority: 'P1',
        anchors: { traveller_email: email, pairing_number: `IROP-${label}` },
      },
    });
    expectStatus(res, 202, `${label}: POST /crew/action-items`);
    for (;;) {
      this.guard(`${label} to be CONFIRMED`);
      const b = await tenant.api(`/crew/bookings/${res.body.booking_id}`);
      if (b.body.status !== 'PENDING')
        return { ms: performance.now() - t, status: b.body.status as string, backlog: await this.backlog() };
      await sleep(25);
    }
  }

  /** The bookings of a schedule or an airline by status, most first: `9 CONFIRMED, 1 NEEDS_REVIEW`. */
  async statusesOf(column: 'schedule_id' | 'airline_id', id: string): Promise<string> {
    const { rows } = await this.reader.query<{ status: string; n: string }>(
      `select status, count(*) as n from bookings where ${column} = $1 group by status order by count(*) desc, status`,
      [id],
    );
    return rows.map((r) => `${int(Number(r.n))} ${r.status}`).join(', ') || 'no booking';
  }

  /** The reasons the airline's bookings were held for review, most frequent first. */
  async reviewReasons(airlineId: string, limit = 3): Promise<string[]> {
    const { rows } = await this.reader.query<{ reason: string | null; n: string }>(
      `select review_reason as reason, count(*) as n from bookings where airline_id = $1 and status = 'NEEDS_REVIEW'
       group by review_reason order by count(*) desc limit $2`,
      [airlineId, limit],
    );
    return rows.map((r) => `${int(Number(r.n))}× ${r.reason ?? '(no reason)'}`);
  }

  /** POST a roster, then poll its processing status until it is COMPLETED (or otherwise done), and its bookings then. */
  async submit(tenant: Tenant, roster: unknown, label: string) {
    const t = performance.now();
    const res = await tenant.api('/crew/schedules', { method: 'POST', body: roster, timeoutMs: 600_000 });
    expectStatus(res, 202, `${label}: POST /crew/schedules`);
    for (;;) {
      this.guard(`${label} to complete`);
      const ps = await tenant.api(`/crew/schedules/${res.body.schedule_id}/processing-status`);
      if (!ps.body.poll_recommended)
        return {
          ms: performance.now() - t,
          status: ps.body.status as string,
          backlog: await this.backlog(),
          scheduleId: res.body.schedule_id as string,
          bookings: await this.statusesOf('schedule_id', res.body.schedule_id as string),
        };
      await sleep(50);
    }
  }

  /** Confirmed/s of the airline over a window, with the CPU share each process and Postgres used (1.0 = one core busy). */
  async drain(label: string, airlineId: string, api: Service, sandbox: Service, workers: Service[]) {
    const pgPids = await backendPids(this.reader, this.dbName);
    const pids = [api.pid, sandbox.pid, ...workers.map((w) => w.pid), ...pgPids];
    const cpu0 = cpuSnapshot(pids);
    const m0 = machineCpu();
    const before = await this.confirmedOf(airlineId);
    const t = performance.now();
    await sleep(DRAIN_WINDOW_MS);
    const after = await this.confirmedOf(airlineId);
    const wallS = (performance.now() - t) / 1000;
    const cpu1 = cpuSnapshot(pids);
    const m1 = machineCpu();
    const rate = (after - before) / wallS;
    const share = (pid: number) => cpuDelta(cpu0, cpu1, pid) / wallS;
    const postgres = pgPids.reduce((sum, p) => sum + Math.max(0, share(p)), 0);
    const machineBusy = (m1.busy - m0.busy) / Math.max(1e-9, m1.total - m0.total);
    const cpu = `workers ${workers.map((w) => share(w.pid).toFixed(2)).join(' + ')}, api ${share(api.pid).toFixed(2)}, sandbox ${share(sandbox.pid).toFixed(2)}, postgres ${postgres.toFixed(2)} cores; machine ${(100 * machineBusy).toFixed(0)} % busy`;
    say(
      `  ${label}: ${int(after - before)} confirmed in ${s1(wallS * 1000)} = ${rate.toFixed(1)}/s; backlog ${int(await this.backlog())}; CPU: ${cpu}`,
    );
    return { rate, cpu };
  }
}

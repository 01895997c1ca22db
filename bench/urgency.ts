/**
 * `npm run bench:urgency` (issue 17): urgent work first, whatever else is queued.
 *
 * Starts auth, supplier-sandbox (latency BENCH_LATENCY_MS, default 250 ms), api and one worker as real
 * processes against a fresh database and a unique BullMQ prefix, then:
 *   0. baseline: airline C submits a 10-layover roster with nothing queued → seconds to COMPLETED;
 *   1. airline A submits a roster of ≥ 20,000 contracted hotel layovers; waits until they are queued;
 *   2. (a) airline B injects a P1 IROP hotel, (b) airline A injects a P1 IROP hotel for one of its own crew,
 *      (c) airline B submits the same-shaped 10-layover roster: seconds from each POST to CONFIRMED (a, b) and
 *      to COMPLETED (c), and the backlog at that moment;
 *   3. the drain rate with one worker process, then with a second one started, against concurrency / latency.
 * Then it stops every process, drops the database and deletes its Redis keys (also on failure or Ctrl-C).
 * It does not wait for the backlog to drain. BENCH_DOCS=0 leaves docs/benchmarks.md alone.
 *
 * BENCH_SUPPLIER=sandbox (default) books the hotels at the sandbox's GDS dialect; =duffel through its Duffel
 * dialect (every airline's order `hotels: ["DUFFEL"]`, contracts at the Stays accommodation of each station,
 * profiles with title, gender and phone); =compare runs the whole scenario for both, BENCH_RUNS times each
 * (default 1, alternating, each on a fresh stack), counts the supplier calls per booking from the sandbox's
 * counters, measures a floor of that many round trips at the same latency after each scenario, and writes the
 * comparison into docs/benchmarks.md (block "urgency-duffel"; the sandbox-only block is left alone).
 */
import { randomBytes } from 'node:crypto';
import nodePath from 'node:path';
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import { flattenRoster } from '@crew/engine';
import { generateRoster } from '@crew/roster-generator';
import { expectStatus, http, onboard, type StackUrls, type Tenant } from './lib/client';
import { backendPids, cpuDelta, cpuSnapshot, machineCpu } from './lib/observe';
import { freePort, ROOT, startService, stopAll, stopService, waitHttpOk, type Service } from './lib/processes';
import { benchCleanups } from './lib/cleanup';
import { prepareBenchStorage, type Cleanup } from './lib/storage';
import { int, table, textTable, writeDocsBlock } from './lib/report';
import { Keyring } from '@crew/platform';
import {
  callDelta,
  putProfiles,
  stayRatePeriods,
  supplierCalls,
  supplierFloor,
  useDuffelHotels,
  type SupplierPath,
} from './lib/duffel-path';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS || 250);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const PAIRINGS = Number(process.env.BENCH_PAIRINGS || 3600);
const DRAIN_WINDOW_MS = Number(process.env.BENCH_DRAIN_WINDOW_S || 20) * 1000;
const WRITE_DOCS = process.env.BENCH_DOCS !== '0';
const SUPPLIER = process.env.BENCH_SUPPLIER || 'sandbox';
if (!['sandbox', 'duffel', 'compare'].includes(SUPPLIER))
  throw new Error(`BENCH_SUPPLIER must be sandbox, duffel or compare, got "${SUPPLIER}"`);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
/** The Duffel contracts' rate periods cover the bench's stays (the rosters start 2027-03-01, 30 days). */
const STAY_FROM = '2027-02-15';
const STAY_TO = '2027-05-15';
/** Guard of each scenario (compare runs several): the benchmark stops by itself. */
const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S || 900) * 1000;
const START_DATE = '2027-03-01';
const PG_BASE = 'postgres://postgres@127.0.0.1:5432';
const REDIS_URL = 'redis://127.0.0.1:6379';

const say = (s = '') => process.stdout.write(`${s}\n`);
const step = (s: string) => say(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}`);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));
const s1 = (msv: number) => (Number.isFinite(msv) ? `${(msv / 1000).toFixed(1)} s` : 'n/a');

const { cleanups: runCleanups, cleanup } = benchCleanups();

let t0Run = performance.now();
function guard(what: string): void {
  if (performance.now() - t0Run > DEADLINE_MS)
    throw new Error(`deadline of ${DEADLINE_MS / 1000} s passed while waiting for ${what}`);
}

/**
 * Contract the airline's hotel at each station (enabled) and set a booking account: the sandbox's first GDS
 * hotel at one rate period, or (duffel) the station's Stays accommodation at its own base amounts night by night.
 */
async function contract(
  urls: StackUrls,
  tenant: Tenant,
  sandboxUrl: string,
  wanted: string[],
  path: SupplierPath = 'sandbox',
): Promise<string[]> {
  expectStatus(
    await tenant.api('/crew/config/company', { method: 'PUT', body: { crew_booker_email: 'booker@bench.test' } }),
    200,
    'company config',
  );
  const stations: string[] = [];
  for (const s of [...new Set(wanted)].sort())
    if ((await http(`${sandboxUrl}/hotels/GDS-${s}-001`)).status === 200) stations.push(s);
  const stay = (s: string) => (path === 'duffel' ? stayRatePeriods(s, STAY_FROM, STAY_TO) : null);
  const cfg = await tenant.api('/crew/config/hotels', {
    method: 'PUT',
    body: {
      bases: stations.map((s) => ({
        base_station: s,
        hotels: [{ property_id: stay(s)?.propertyId ?? `GDS-${s}-001`, policy: 'FLEXIBLE', flex_window_minutes: 1440 }],
      })),
    },
  });
  expectStatus(cfg, 200, 'PUT /crew/config/hotels');
  for (const base of cfg.body.bases as { base_station: string; hotels: { hotel_config_id: number }[] }[]) {
    const hotelId = base.hotels[0]!.hotel_config_id;
    const c = await tenant.api(`/crew/config/hotels/${hotelId}/contracts`, {
      method: 'POST',
      body: {
        contract_number: `U-${base.base_station}`,
        contract_from: path === 'duffel' ? STAY_FROM : '2027-01-01',
        contract_to: path === 'duffel' ? STAY_TO : '2027-12-31',
      },
    });
    expectStatus(c, 201, 'contract');
    const rates = await tenant.api(`/crew/config/hotels/${hotelId}/contracts/${c.body.contract_id}/rates`, {
      method: 'PUT',
      body: {
        rate_periods: stay(base.base_station)?.periods ?? [
          { effective_from: '2027-01-01', effective_to: '2027-12-31', rate: { amount: 150, currency: 'USD' } },
        ],
      },
    });
    expectStatus(rates, 200, 'rates');
    const cr = await tenant.api('/crew/config/hotels/change-requests', {
      method: 'POST',
      body: { contract_id: c.body.contract_id, intent: 'ENABLE' },
    });
    expectStatus(cr, 201, 'change request');
    expectStatus(
      await http(`${urls.apiUrl}/ops/v1/change-requests/${cr.body.request_id}/decide`, {
        method: 'POST',
        token: urls.opsToken,
        body: { decision: 'APPROVED', decided_by: 'bench@crew.travel' },
      }),
      200,
      'decide',
    );
  }
  return stations;
}

/** The smallest generated roster with exactly `n` layovers (deterministic: the first seed that gives n). */
function smallRoster(n: number, carrier: string) {
  for (let seed = 1; seed < 500; seed++) {
    const r = generateRoster({
      pairings: 2,
      days: 10,
      crewPool: 4,
      seed,
      startDate: START_DATE,
      carrier,
      deadheadFraction: 0,
    });
    if (flattenRoster(r).layovers.length === n) return r;
  }
  throw new Error(`no small roster with ${n} layovers`);
}

/** One scenario's figures (times in ms). */
interface ScenarioResult {
  path: SupplierPath;
  a: number;
  b: number;
  c: number;
  d: number;
  baseline: number;
  outcomes: string;
  rate1: number;
  rate2: number;
  /** Supplier calls per confirmed booking in the one-worker window, and the calls by operation. */
  callsPerBooking: number;
  calls: Record<string, number>;
  /** Round trips the floor chains make (callsPerBooking rounded). */
  k: number;
  floor: { chainMs: number; rate1: number; rate2: number; chains: number[] };
  layovers: number;
  queuedAt: number;
}

async function scenario(path: SupplierPath, cleanups: Cleanup[]): Promise<ScenarioResult> {
  t0Run = performance.now();
  const suffix = randomBytes(4).toString('hex');
  const dbName = `crew_bench_${suffix}`;
  const databaseUrl = `${PG_BASE}/${dbName}`;
  const prefix = `bench${suffix}`;
  const opsToken = `bench-ops-${randomBytes(16).toString('hex')}`;
  say(
    `Urgency benchmark (${path} path): sandbox latency ${LATENCY_MS} ms, BOOKING_CONCURRENCY ${CONCURRENCY}; database ${dbName}, queue prefix ${prefix}`,
  );

  const { reader, redis } = await prepareBenchStorage(databaseUrl, REDIS_URL, prefix, cleanups);

  step('starting auth, supplier-sandbox, api, worker');
  const [apiPort, authPort, sandboxPort] = [await freePort(), await freePort(), await freePort()];
  const authUrl = `http://127.0.0.1:${authPort}`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    QUEUE_PREFIX: prefix,
    AUTH_URL: authUrl,
    SUPPLIER_URL: sandboxUrl,
    // The sandbox's Duffel dialect (a path prefix keeps its trailing slash); one key for the api (seals) and the worker (opens).
    DUFFEL_API_URL: `${sandboxUrl}/duffel/`,
    SUPPLIER_CREDENTIALS_KEY: Keyring.mint(),
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    OPS_TOKEN: opsToken,
    LOG_LEVEL: 'warn',
    API_PORT: String(apiPort),
    AUTH_PORT: String(authPort),
    SANDBOX_PORT: String(sandboxPort),
    SANDBOX_LATENCY_MS: String(LATENCY_MS),
    SANDBOX_LATENCY_JITTER_MS: '0',
    SHUTDOWN_DEADLINE_MS: '8000',
    BOOKING_CONCURRENCY: String(CONCURRENCY),
    // Big enough that a bench injection is never refused by the airline API's own limit.
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  cleanups.push({ name: 'stop processes', run: () => stopAll(12_000) });
  const auth = startService('auth', authPort, env);
  const sandbox = startService('supplier-sandbox', sandboxPort, env);
  const api = startService('api', apiPort, env);
  const startWorker = async (): Promise<Service> => {
    const port = await freePort();
    const w = startService('worker', port, {
      ...env,
      WORKER_PORT: String(port),
      NODE_OPTIONS: '--max-old-space-size=850',
    });
    await waitHttpOk(`http://127.0.0.1:${port}/healthz`, w);
    return w;
  };
  await Promise.all([
    waitHttpOk(`${authUrl}/healthz`, auth),
    waitHttpOk(`${sandboxUrl}/healthz`, sandbox),
    waitHttpOk(`http://127.0.0.1:${apiPort}/readyz`, api),
  ]);
  const worker1 = await startWorker();
  const urls: StackUrls = { apiUrl: `http://127.0.0.1:${apiPort}`, authUrl, opsToken };

  /** Runnable booking tasks in Redis (hotel and flight queues, every lane). */
  const backlog = async () => {
    let n = 0;
    for (const q of ['bookings', 'flight-bookings'])
      n += (await redis.zcard(`${prefix}:${q}:prioritized`)) + (await redis.llen(`${prefix}:${q}:wait`));
    return n;
  };
  const confirmedOf = async (airlineId: string) =>
    Number(
      (
        await reader.query<{ n: string }>(
          `select count(*) as n from bookings where airline_id = $1 and status = 'CONFIRMED'`,
          [airlineId],
        )
      ).rows[0]!.n,
    );

  /** POST an injection, then poll the booking until it leaves PENDING: ms from the POST, and the backlog then. */
  const inject = async (tenant: Tenant, email: string, station: string, label: string) => {
    const t = performance.now();
    const res = await tenant.api('/crew/action-items', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        source: 'IROP',
        irop_ref: `IROP-${label}`,
        priority: 'P1',
        anchors: { traveller_email: email, pairing_number: `IROP-${label}` },
        hotel: { city: station, check_in_date: '2027-03-20', num_nights: 1 },
      },
    });
    expectStatus(res, 202, `${label}: POST /crew/action-items`);
    for (;;) {
      guard(`${label} to be CONFIRMED`);
      const b = await tenant.api(`/crew/bookings/${res.body.booking_id}`);
      if (b.body.status !== 'PENDING')
        return { ms: performance.now() - t, status: b.body.status as string, backlog: await backlog() };
      await sleep(25);
    }
  };

  /** POST a roster, then poll its processing status until it is COMPLETED (or otherwise done). */
  const submit = async (tenant: Tenant, roster: unknown, label: string) => {
    const t = performance.now();
    const res = await tenant.api('/crew/schedules', { method: 'POST', body: roster, timeoutMs: 600_000 });
    expectStatus(res, 202, `${label}: POST /crew/schedules`);
    for (;;) {
      guard(`${label} to complete`);
      const ps = await tenant.api(`/crew/schedules/${res.body.schedule_id}/processing-status`);
      if (!ps.body.poll_recommended)
        return {
          ms: performance.now() - t,
          status: ps.body.status as string,
          backlog: await backlog(),
          scheduleId: res.body.schedule_id as string,
        };
      await sleep(50);
    }
  };

  step('onboarding airlines A (the big roster), B (the urgent work) and C (the no-backlog baseline)');
  const [A, B, C] = [
    await onboard(urls, 'Urgency A', 'UA'),
    await onboard(urls, 'Urgency B', 'UB'),
    await onboard(urls, 'Urgency C', 'UC'),
  ];
  const bigRoster = generateRoster({
    pairings: PAIRINGS,
    days: 30,
    crewPool: Math.round(PAIRINGS * 0.75),
    seed: 1,
    startDate: START_DATE,
    carrier: 'UA',
    deadheadFraction: 0,
  });
  const bigFlat = flattenRoster(bigRoster);
  const smallB = smallRoster(10, 'UB');
  const smallC = smallRoster(10, 'UC');
  if (path === 'duffel') {
    for (const [t, code] of [
      [A, 'ua'],
      [B, 'ub'],
      [C, 'uc'],
    ] as const)
      await useDuffelHotels(urls, t, `duffel_test_bench_${code}_${suffix}`);
  }
  const aStations = await contract(
    urls,
    A,
    sandboxUrl,
    bigFlat.layovers.map((l) => l.station),
    path,
  );
  const contractedLayovers = bigFlat.layovers.filter((l) => aStations.includes(l.station)).length;
  const smallStations = flattenRoster(smallB).layovers.map((l) => l.station);
  await contract(urls, B, sandboxUrl, [...smallStations, 'JFK'], path);
  await contract(
    urls,
    C,
    sandboxUrl,
    flattenRoster(smallC).layovers.map((l) => l.station),
    path,
  );
  // Profiles with title, gender and phone (Duffel Stays needs the phone), on both paths alike; B's IROP crew
  // member needs one before B's roster exists.
  const bEmail = 'irop.crew@ub.bench';
  const crewOf = (r: typeof bigRoster) => r.pairings.flatMap((p) => p.crew);
  const profiles =
    (await putProfiles(A, crewOf(bigRoster))) +
    (await putProfiles(B, [
      ...crewOf(smallB),
      { employee_id: 'UB-IROP', name: 'Irop Crew', traveller_email: bEmail },
    ])) +
    (await putProfiles(C, crewOf(smallC)));
  step(`${int(profiles)} traveller profiles written (title, gender, E.164 phone)`);

  step('baseline: airline C submits a 10-layover roster with nothing queued');
  const baseline = await submit(C, smallC, 'baseline (C)');
  say(`  baseline: ${s1(baseline.ms)} to ${baseline.status}`);

  step(
    `airline A submits ${int(PAIRINGS)} pairings: ${int(bigFlat.layovers.length)} layovers, ${int(contractedLayovers)} at contracted stations`,
  );
  const aPost = await A.api('/crew/schedules', { method: 'POST', body: bigRoster, timeoutMs: 600_000 });
  expectStatus(aPost, 202, 'A: POST /crew/schedules');
  let peak = 0;
  // (d): as soon as A's diff is committed, while its booking tasks are still being relayed from the outbox to BullMQ.
  let during: ReturnType<typeof inject> | null = null;
  let outboxAtInjection = 0;
  for (;;) {
    guard("A's booking tasks to be queued");
    const status = (
      await reader.query<{ status: string }>('select status from schedules where schedule_id = $1', [
        aPost.body.schedule_id,
      ])
    ).rows[0]!.status;
    const n = await backlog();
    peak = Math.max(peak, n);
    const written = status !== 'QUEUED' && status !== 'PROCESSING';
    const outboxRows = Number((await reader.query<{ n: string }>('select count(*) as n from outbox')).rows[0]!.n);
    if (written && outboxRows > 0 && !during) {
      outboxAtInjection = outboxRows;
      step(
        `(d) airline B injects a P1 IROP hotel while ${int(outboxRows)} of A's booking tasks are still in the outbox`,
      );
      during = inject(B, bEmail, 'JFK', 'd');
      during.catch(() => undefined);
    }
    if (written && outboxRows === 0) break;
    await sleep(during ? 250 : 50);
  }
  const d = during ? await during : null;
  if (d) say(`  (d) ${s1(d.ms)} to ${d.status}; backlog then ${int(d.backlog)}`);
  else say("  (d) not measured: A's booking tasks had left the outbox before the bench saw the diff written");
  const queuedAt = await backlog();
  step(`A's diff written: ${int(queuedAt)} booking tasks waiting`);
  if (queuedAt < 20_000)
    say(`  (fewer than 20,000 waiting: the worker had already started on them while the diff was relayed)`);

  const aEmail = (
    await reader.query<{ e: string }>('select traveller_email as e from travellers where airline_id = $1 limit 1', [
      A.airlineId,
    ])
  ).rows[0]?.e;
  if (!aEmail) throw new Error("A's roster left no traveller profile");
  step('(a) airline B injects a P1 IROP hotel');
  const a = await inject(B, bEmail, 'JFK', 'a');
  say(`  (a) ${s1(a.ms)} to ${a.status}; backlog then ${int(a.backlog)}`);
  step('(b) airline A injects a P1 IROP hotel for one of its own crew');
  const b = await inject(A, aEmail, aStations[0]!, 'b');
  say(`  (b) ${s1(b.ms)} to ${b.status}; backlog then ${int(b.backlog)}`);
  step('(c) airline B submits a 10-layover roster');
  const c = await submit(B, smallB, '(c)');
  say(
    `  (c) ${s1(c.ms)} to ${c.status}; backlog then ${int(c.backlog)} (baseline ${s1(baseline.ms)}: ${(c.ms / baseline.ms).toFixed(2)}×)`,
  );

  /** Confirmed/s over a window, with the CPU share each process and Postgres used (1.0 = one core busy). */
  const drain = async (label: string, workers: Service[]) => {
    const pgPids = await backendPids(reader, dbName);
    const pids = [api.pid, sandbox.pid, ...workers.map((w) => w.pid), ...pgPids];
    const cpu0 = cpuSnapshot(pids);
    const m0 = machineCpu();
    const before = await confirmedOf(A.airlineId);
    const t = performance.now();
    await sleep(DRAIN_WINDOW_MS);
    const after = await confirmedOf(A.airlineId);
    const wallS = (performance.now() - t) / 1000;
    const cpu1 = cpuSnapshot(pids);
    const m1 = machineCpu();
    const rate = (after - before) / wallS;
    const share = (pid: number) => cpuDelta(cpu0, cpu1, pid) / wallS;
    const postgres = pgPids.reduce((sum, p) => sum + Math.max(0, share(p)), 0);
    const machineBusy = (m1.busy - m0.busy) / Math.max(1e-9, m1.total - m0.total);
    const cpu = `workers ${workers.map((w) => share(w.pid).toFixed(2)).join(' + ')}, api ${share(api.pid).toFixed(2)}, sandbox ${share(sandbox.pid).toFixed(2)}, postgres ${postgres.toFixed(2)} cores; machine ${(100 * machineBusy).toFixed(0)} % busy`;
    say(
      `  ${label}: ${int(after - before)} confirmed in ${s1(wallS * 1000)} = ${rate.toFixed(1)}/s; backlog ${int(await backlog())}; CPU: ${cpu}`,
    );
    return { rate, cpu };
  };
  const target = CONCURRENCY / (LATENCY_MS / 1000);
  step(`drain rate, one worker process (target concurrency / latency = ${target.toFixed(0)}/s)`);
  const calls0 = await supplierCalls(sandboxUrl);
  const confirmed0 = await confirmedOf(A.airlineId);
  const d1 = await drain('1 worker', [worker1]);
  const calls = callDelta(calls0, await supplierCalls(sandboxUrl));
  const callsPerBooking =
    Object.values(calls).reduce((x, y) => x + y, 0) / Math.max(1, (await confirmedOf(A.airlineId)) - confirmed0);
  say(
    `  supplier calls per confirmed booking in that window: ${callsPerBooking.toFixed(2)} (${JSON.stringify(calls)})`,
  );
  const rate1 = d1.rate;
  step('starting a second worker process');
  const worker2 = await startWorker();
  await sleep(3000);
  const d2 = await drain('2 workers', [worker1, worker2]);
  const rate2 = d2.rate;
  await stopService(worker2, 12_000);
  await stopService(worker1, 12_000);
  // The floor: as many round trips as a booking made, at the same latency, against the now idle sandbox.
  const k = Math.max(1, Math.round(callsPerBooking));
  step(
    `floor: ${k} supplier round trip(s) in a row, and ${CONCURRENCY} / ${2 * CONCURRENCY} such chains side by side (three measurements each)`,
  );
  const f1 = await supplierFloor(sandboxUrl, path, k, CONCURRENCY);
  const f2 = await supplierFloor(sandboxUrl, path, k, 2 * CONCURRENCY);
  say(
    `  floor: ${k} round trips ${f1.chains.map((x) => x.toFixed(0)).join(' / ')} ms (least ${f1.chainMs.toFixed(0)}); ` +
      `bookings/s of ${CONCURRENCY} chains ${f1.rates.map((x) => x.toFixed(1)).join(' / ')}, of ${2 * CONCURRENCY} chains ${f2.rates.map((x) => x.toFixed(1)).join(' / ')}`,
  );

  const rows = [
    ['(a) B injects P1 IROP hotel → CONFIRMED', s1(a.ms), a.status, int(a.backlog), '≤ 2 s'],
    ['(b) A injects P1 IROP hotel → CONFIRMED', s1(b.ms), b.status, int(b.backlog), '≤ 2 s'],
    [
      '(c) B submits 10-layover roster → COMPLETED',
      s1(c.ms),
      c.status,
      int(c.backlog),
      `≤ 2 × baseline = ${s1(2 * baseline.ms)}`,
    ],
    [
      `(d) B injects P1 IROP hotel while A's tasks are relayed (${int(outboxAtInjection)} in the outbox) → CONFIRMED`,
      d ? s1(d.ms) : 'not measured',
      d?.status ?? '-',
      d ? int(d.backlog) : '-',
      '≤ 2 s',
    ],
    ['(c) baseline: same-shaped roster (airline C), nothing queued', s1(baseline.ms), baseline.status, '0', ''],
  ];
  const drainRows = [
    [
      '1 worker process',
      `${rate1.toFixed(1)}/s`,
      `${target.toFixed(0)}/s`,
      `${((100 * rate1) / target).toFixed(0)} %`,
      d1.cpu,
    ],
    [
      '2 worker processes',
      `${rate2.toFixed(1)}/s`,
      `${(2 * target).toFixed(0)}/s`,
      `${((100 * rate2) / (2 * target)).toFixed(0)} % (${(rate2 / rate1).toFixed(2)}× one process)`,
      d2.cpu,
    ],
  ];
  say('');
  say(textTable(['measure', 'seconds', 'outcome', 'backlog then', 'target'], rows));
  say('');
  say(
    textTable(
      ['drain (A hotel bookings confirmed)', 'measured', 'concurrency × processes / latency', 'share', 'CPU (cores)'],
      drainRows,
    ),
  );

  if (WRITE_DOCS && SUPPLIER === 'sandbox') {
    const cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
    const content = [
      `## Urgent work first (bench:urgency)`,
      '',
      `One run of \`npm run bench:urgency\` on ${os.cpus().length} cores (${cpu}), node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z. ` +
        `Sandbox latency ${LATENCY_MS} ms, BOOKING_CONCURRENCY ${CONCURRENCY}. Airline A's roster: ${int(PAIRINGS)} pairings, ${int(bigFlat.layovers.length)} hotel layovers ` +
        `(${int(contractedLayovers)} at contracted stations), no deadheads; ${int(queuedAt)} booking tasks were waiting when its diff had been written and relayed ` +
        `(peak seen ${int(peak)}). In (d) B's task was written while that many of A's tasks were still in the outbox.`,
      '',
      table(['measure', 'seconds', 'outcome', 'backlog then', 'target'], rows),
      '',
      `Drain rate of A's hotel bookings over ${DRAIN_WINDOW_MS / 1000} s windows with the backlog above (a second worker process started for the second window):`,
      '',
      table(
        [
          'worker processes',
          'confirmed / s',
          'concurrency × processes / latency',
          'share',
          'CPU in the window (cores)',
        ],
        drainRows,
      ),
    ].join('\n');
    writeDocsBlock(nodePath.join(ROOT, 'docs/benchmarks.md'), 'urgency', content);
    step('docs/benchmarks.md updated (section "Urgent work first")');
  }
  return {
    path,
    a: a.ms,
    b: b.ms,
    c: c.ms,
    d: d ? d.ms : NaN,
    baseline: baseline.ms,
    outcomes: [a.status, b.status, c.status, d?.status ?? '-', baseline.status].join(' / '),
    rate1,
    rate2,
    callsPerBooking,
    calls,
    k,
    floor: { chainMs: f1.chainMs, rate1: f1.ratePerS, rate2: f2.ratePerS, chains: f1.chains },
    layovers: bigFlat.layovers.length,
    queuedAt,
  };
}

/** Runs one scenario on its own stack; its processes, database and Redis keys are gone when it returns. */
async function scoped<T>(run: (cleanups: Cleanup[]) => Promise<T>): Promise<T> {
  const mine: Cleanup[] = [];
  const drainMine = async () => {
    for (let c = mine.pop(); c; c = mine.pop()) {
      try {
        await c.run();
      } catch (err) {
        console.error(`[bench] cleanup ${c.name} failed:`, err instanceof Error ? err.message : err);
      }
    }
  };
  const entry: Cleanup = { name: 'scenario', run: drainMine };
  runCleanups.push(entry);
  try {
    return await run(mine);
  } finally {
    await drainMine();
    runCleanups.splice(runCleanups.indexOf(entry), 1);
  }
}

const median = (xs: number[]) => {
  const v = xs.filter(Number.isFinite).sort((x, y) => x - y);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
};

async function main(): Promise<void> {
  if (SUPPLIER !== 'compare') {
    await scoped((c) => scenario(SUPPLIER as SupplierPath, c));
    return;
  }
  const results: ScenarioResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    for (const path of ['sandbox', 'duffel'] as const) {
      step(`compare: run ${run} of ${RUNS}, ${path} path`);
      results.push(await scoped((c) => scenario(path, c)));
    }
  }
  compareReport(results);
}

/** The two paths side by side: medians of the runs, the raw ratio, and each against its own floor. */
function compareReport(results: ScenarioResult[]): void {
  const of = (path: SupplierPath) => results.filter((r) => r.path === path);
  const S = of('sandbox');
  const D = of('duffel');
  const med = (rs: ScenarioResult[], f: (r: ScenarioResult) => number) => median(rs.map(f));
  const floorMs = (rs: ScenarioResult[]) => Math.min(...rs.map((r) => r.floor.chainMs));
  const floorRate = (rs: ScenarioResult[], w: 1 | 2) =>
    Math.max(...rs.map((r) => (w === 1 ? r.floor.rate1 : r.floor.rate2)));
  const kS = S[0]!.k;
  const kD = D[0]!.k;
  const pct = (x: number) => `${x >= 1 ? '+' : ''}${(100 * (x - 1)).toFixed(0)} %`;
  const within = (x: number) => (Number.isFinite(x) ? (Math.abs(x - 1) <= 0.1 ? 'yes' : 'no') : 'n/a');
  const timeRow = (label: string, f: (r: ScenarioResult) => number) => {
    const s = med(S, f);
    const d = med(D, f);
    const sN = s / floorMs(S);
    const dN = d / floorMs(D);
    return [
      label,
      s1(s),
      s1(d),
      `${(d / s).toFixed(2)}× (${pct(d / s)})`,
      `${sN.toFixed(2)}× floor`,
      `${dN.toFixed(2)}× floor`,
      `${(dN / sN).toFixed(2)}× (${pct(dN / sN)})`,
      within(dN / sN),
    ];
  };
  const rateRow = (label: string, w: 1 | 2, f: (r: ScenarioResult) => number) => {
    const s = med(S, f);
    const d = med(D, f);
    const sN = s / floorRate(S, w);
    const dN = d / floorRate(D, w);
    return [
      label,
      `${s.toFixed(1)}/s`,
      `${d.toFixed(1)}/s`,
      `${(d / s).toFixed(2)}× (${pct(d / s)})`,
      `${(100 * sN).toFixed(0)} % of floor`,
      `${(100 * dN).toFixed(0)} % of floor`,
      `${(dN / sN).toFixed(2)}× (${pct(dN / sN)})`,
      within(dN / sN),
    ];
  };
  const rows = [
    timeRow('(a) B injects P1 IROP hotel → CONFIRMED', (r) => r.a),
    timeRow('(b) A injects P1 IROP hotel → CONFIRMED', (r) => r.b),
    timeRow('(d) B injects P1 while A is relayed → CONFIRMED', (r) => r.d),
    timeRow('(c) B submits 10-layover roster → COMPLETED', (r) => r.c),
    timeRow('(c) baseline, nothing queued (C) → COMPLETED', (r) => r.baseline),
    rateRow('drain, 1 worker process', 1, (r) => r.rate1),
    rateRow('drain, 2 worker processes', 2, (r) => r.rate2),
  ];
  const header = [
    'measure',
    `sandbox (median of ${S.length})`,
    `Duffel (median of ${D.length})`,
    'raw Duffel / sandbox',
    `sandbox vs its floor (${kS} round trip${kS > 1 ? 's' : ''})`,
    `Duffel vs its floor (${kD} round trip${kD > 1 ? 's' : ''})`,
    'Duffel / sandbox, each against its floor',
    'within 10 %',
  ];
  const perRun = results.map((r, i) => [
    `${i + 1}: ${r.path}`,
    s1(r.a),
    s1(r.b),
    s1(r.d),
    s1(r.c),
    s1(r.baseline),
    `${r.rate1.toFixed(1)}/s`,
    `${r.rate2.toFixed(1)}/s`,
    `${r.callsPerBooking.toFixed(2)} (${Object.entries(r.calls)
      .map(([op, n]) => `${op} ${int(n)}`)
      .join(', ')})`,
    `${r.floor.chains.map((x) => x.toFixed(0)).join(' / ')} ms; ${r.floor.rate1.toFixed(1)}/s; ${r.floor.rate2.toFixed(1)}/s`,
    r.outcomes,
  ]);
  const perRunHeader = [
    'run',
    '(a)',
    '(b)',
    '(d)',
    '(c)',
    'baseline',
    'drain 1 worker',
    'drain 2 workers',
    'supplier calls per confirmed booking (1-worker window)',
    `floor: k round trips (3 tries); best /s of ${CONCURRENCY}; of ${2 * CONCURRENCY} chains`,
    'outcomes a / b / c / d / baseline',
  ];
  say('');
  say(textTable(header, rows));
  say('');
  say(textTable(perRunHeader, perRun));
  if (!WRITE_DOCS) return;
  const cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
  const content = [
    '## Duffel dialect against the sandbox (bench:urgency, BENCH_SUPPLIER=compare)',
    '',
    `\`BENCH_SUPPLIER=compare${RUNS > 1 ? ` BENCH_RUNS=${RUNS}` : ''}${PAIRINGS !== 3600 ? ` BENCH_PAIRINGS=${PAIRINGS}` : ''} npm run bench:urgency\` on ${os.cpus().length} cores (${cpu}), ` +
      `node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z: ${RUNS} run${RUNS > 1 ? 's' : ''} of each path, alternating, each on a fresh stack ` +
      `(database, queue prefix, processes). Latency ${LATENCY_MS} ms on every supplier call of either dialect, BOOKING_CONCURRENCY ${CONCURRENCY}; ` +
      `airline A's roster ${int(PAIRINGS)} pairings, ${int(S[0]!.layovers)} hotel layovers. The same airlines, rosters, injections and traveller profiles on both paths; ` +
      'the Duffel path sets every airline\'s order to `hotels: ["DUFFEL"]` and contracts the station\'s Stays accommodation (`acc_…`) at its own base amounts night by night.',
    '',
    table(header, rows),
    '',
    'Each run:',
    '',
    table(perRunHeader, perRun),
  ].join('\n');
  writeDocsBlock(nodePath.join(ROOT, 'docs/benchmarks.md'), 'urgency-duffel', content);
  step('docs/benchmarks.md updated (block "urgency-duffel")');
}

main()
  .catch((err) => {
    console.error('[bench] failed:', err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());

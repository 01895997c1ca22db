/**
 * One scenario of the urgency benchmark on a stack of its own: airline A's big roster queues its booking tasks,
 * then urgent work of airlines B and A is timed against that backlog, then the drain rate with one and with two
 * worker processes, and a floor of as many supplier round trips at the same latency.
 */
import { performance } from 'node:perf_hooks';
import { expectStatus, onboard } from '../lib/client';
import { say, sleep, step } from '../lib/console';
import {
  callDelta,
  putProfiles,
  supplierCalls,
  supplierFloor,
  useDuffelFlights,
  useDuffelHotels,
  type SupplierPath,
} from '../lib/duffel-path';
import { stopService, type Service } from '../lib/processes';
import { int } from '../lib/report';
import { benchNames, REDIS_URL, startStack } from '../lib/stack';
import { prepareBenchStorage, type Cleanup } from '../lib/storage';
import { prepareAirline } from './airlines';
import { CONCURRENCY, DEADHEADS, LATENCY_MS, PAIRINGS, s1 } from './options';
import { Probes } from './probes';
import { scenarioReport, type ScenarioResult } from './report';
import { benchRoster, CARRIER_CODES, rosterContents, smallRoster, WORDS } from './work';

export async function scenario(path: SupplierPath, cleanups: Cleanup[]): Promise<ScenarioResult> {
  const t0 = performance.now();
  const names = benchNames();
  const { dbName, databaseUrl, prefix } = names;
  say(
    `Urgency benchmark (${DEADHEADS ? 'deadheads, ' : ''}${path} path): sandbox latency ${LATENCY_MS} ms, BOOKING_CONCURRENCY ${CONCURRENCY}; database ${dbName}, queue prefix ${prefix}`,
  );

  const { reader, redis } = await prepareBenchStorage(databaseUrl, REDIS_URL, prefix, cleanups);

  step('starting auth, supplier-sandbox, api, worker');
  const stack = await startStack(
    {
      names,
      sandboxLatencyMs: LATENCY_MS,
      duffel: true,
      env: {
        BOOKING_CONCURRENCY: String(CONCURRENCY),
        // Big enough that a bench injection is never refused by the airline API's own limit.
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    },
    cleanups,
  );
  const { api, sandbox, sandboxUrl, urls } = stack;
  const startWorker = () => stack.startWorker({ NODE_OPTIONS: '--max-old-space-size=850' });
  const worker1 = await startWorker();
  const probes = new Probes(t0, redis, prefix, reader, dbName);

  step('onboarding airlines A (the big roster), B (the urgent work) and C (the no-backlog baseline)');
  const [codeA, codeB, codeC] = CARRIER_CODES;
  const [A, B, C] = [
    await onboard(urls, 'Urgency A', codeA),
    await onboard(urls, 'Urgency B', codeB),
    await onboard(urls, 'Urgency C', codeC),
  ];
  const bigRoster = benchRoster({
    pairings: PAIRINGS,
    days: 30,
    crewPool: Math.round(PAIRINGS * 0.75),
    seed: 1,
    carrier: codeA,
  });
  const smallB = smallRoster(10, codeB);
  const smallC = smallRoster(10, codeC);
  if (path === 'duffel') {
    for (const [t, code] of [
      [A, codeA],
      [B, codeB],
      [C, codeC],
    ] as const)
      await (DEADHEADS ? useDuffelFlights : useDuffelHotels)(
        urls,
        t,
        `duffel_test_bench_${code.toLowerCase()}_${names.suffix}`,
      );
  }
  const aWork = await prepareAirline(urls, A, sandboxUrl, bigRoster, path);
  await prepareAirline(urls, B, sandboxUrl, smallB, path, ['JFK']);
  await prepareAirline(urls, C, sandboxUrl, smallC, path);
  // Profiles with title, gender and phone (Duffel Stays and Air need the phone), with deadheads also a date of
  // birth, on both paths alike; B's IROP crew member needs one before B's roster exists.
  const bEmail = 'irop.crew@ub.bench';
  const crewOf = (r: typeof bigRoster) => r.pairings.flatMap((p) => p.crew);
  const withDob = { dateOfBirth: DEADHEADS };
  const profiles =
    (await putProfiles(A, crewOf(bigRoster), withDob)) +
    (await putProfiles(
      B,
      [...crewOf(smallB), { employee_id: 'UB-IROP', name: 'Irop Crew', traveller_email: bEmail }],
      withDob,
    )) +
    (await putProfiles(C, crewOf(smallC), withDob));
  step(`${int(profiles)} traveller profiles written (title, gender, E.164 phone${DEADHEADS ? ', date of birth' : ''})`);

  step(`baseline: airline C submits a ${WORDS.small} with nothing queued`);
  const baseline = await probes.submit(C, smallC, 'baseline (C)');
  say(`  baseline: ${s1(baseline.ms)} to ${baseline.status} (bookings: ${baseline.bookings})`);

  step(`airline A submits ${int(PAIRINGS)} pairings: ${rosterContents(aWork)}`);
  const aPost = await A.api('/crew/schedules', { method: 'POST', body: bigRoster, timeoutMs: 600_000 });
  expectStatus(aPost, 202, 'A: POST /crew/schedules');
  let peak = 0;
  // (d): as soon as A's diff is committed, while its booking tasks are still being relayed from the outbox to BullMQ.
  let during: ReturnType<Probes['inject']> | null = null;
  let outboxAtInjection = 0;
  for (;;) {
    probes.guard("A's booking tasks to be queued");
    const status = (
      await reader.query<{ status: string }>('select status from schedules where schedule_id = $1', [
        aPost.body.schedule_id,
      ])
    ).rows[0]!.status;
    const n = await probes.backlog();
    peak = Math.max(peak, n);
    const written = status !== 'QUEUED' && status !== 'PROCESSING';
    const outboxRows = Number((await reader.query<{ n: string }>('select count(*) as n from outbox')).rows[0]!.n);
    if (written && outboxRows > 0 && !during) {
      outboxAtInjection = outboxRows;
      step(`(d) airline B injects a ${WORDS.p1} while ${int(outboxRows)} of A's booking tasks are still in the outbox`);
      during = probes.inject(B, bEmail, 'JFK', 'd');
      during.catch(() => undefined);
    }
    if (written && outboxRows === 0) break;
    await sleep(during ? 250 : 50);
  }
  const d = during ? await during : null;
  if (d) say(`  (d) ${s1(d.ms)} to ${d.status}; backlog then ${int(d.backlog)}`);
  else say("  (d) not measured: A's booking tasks had left the outbox before the bench saw the diff written");
  const queuedAt = await probes.backlog();
  step(`A's diff written: ${int(queuedAt)} booking tasks waiting`);
  // All of A's deadheads; for hotels the ≥ 20,000 of the header (the default roster's contracted layovers).
  const full = DEADHEADS ? aWork.bookable : 20_000;
  if (queuedAt < full)
    say(`  (fewer than ${int(full)} waiting: the worker had already started on them while the diff was relayed)`);

  const aEmail = (
    await reader.query<{ e: string }>('select traveller_email as e from travellers where airline_id = $1 limit 1', [
      A.airlineId,
    ])
  ).rows[0]?.e;
  if (!aEmail) throw new Error("A's roster left no traveller profile");
  step(`(a) airline B injects a ${WORDS.p1}`);
  const a = await probes.inject(B, bEmail, 'JFK', 'a');
  say(`  (a) ${s1(a.ms)} to ${a.status}; backlog then ${int(a.backlog)}`);
  step(`(b) airline A injects a ${WORDS.p1} for one of its own crew`);
  const b = await probes.inject(A, aEmail, aWork.station, 'b');
  say(`  (b) ${s1(b.ms)} to ${b.status}; backlog then ${int(b.backlog)}`);
  step(`(c) airline B submits a ${WORDS.small}`);
  const c = await probes.submit(B, smallB, '(c)');
  say(
    `  (c) ${s1(c.ms)} to ${c.status} (bookings: ${c.bookings}); backlog then ${int(c.backlog)} (baseline ${s1(baseline.ms)}: ${(c.ms / baseline.ms).toFixed(2)}×)`,
  );

  const drain = (label: string, workers: Service[]) => probes.drain(label, A.airlineId, api, sandbox, workers);
  const target = CONCURRENCY / (LATENCY_MS / 1000);
  step(`drain rate, one worker process (target concurrency / latency = ${target.toFixed(0)}/s)`);
  const calls0 = await supplierCalls(sandboxUrl);
  const confirmed0 = await probes.confirmedOf(A.airlineId);
  const d1 = await drain('1 worker', [worker1]);
  const calls = callDelta(calls0, await supplierCalls(sandboxUrl));
  const callsPerBooking =
    Object.values(calls).reduce((x, y) => x + y, 0) / Math.max(1, (await probes.confirmedOf(A.airlineId)) - confirmed0);
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
  say(`  A's bookings then: ${await probes.statusesOf('airline_id', A.airlineId)}`);
  for (const reason of await probes.reviewReasons(A.airlineId)) say(`    held for review: ${reason}`);
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

  scenarioReport({
    a,
    b,
    c,
    d,
    baseline,
    outboxAtInjection,
    rate1,
    rate2,
    target,
    cpu1: d1.cpu,
    cpu2: d2.cpu,
    rows: aWork.rows,
    bookable: aWork.bookable,
    queuedAt,
    peak,
  });
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
    rows: aWork.rows,
    queuedAt,
  };
}

/**
 * `npm run bench:roster`: the roster benchmark — a roster submitted, resubmitted unchanged, with 1 % and 10 % of
 * its pairings changed and with its window a day later, each against the floor — and the booking throughput.
 *
 * Options (environment):
 *   BENCH_SIZE=S|M|L            roster size of the schedule figures (default L)
 *   BENCH_BOOKING_SIZE=S|M|L    roster size of the booking-throughput part (default M; L means ~120k supplier calls)
 *   BENCH_SKIP_BOOKING=1        skip the booking-throughput part
 *   BENCH_TIMEOUT_S             per-submission deadline in seconds (default 1200)
 *   BENCH_DOCS=0                do not write docs/benchmarks.md
 *   BENCH_RECORD_REFUSALS=1     diagnostics: the worker reaches the sandbox through a relay that prints every 4xx
 *   BENCH_OLD_FLOOR=1           also measure the earlier floor (parse + COPY + BullMQ addBulk/drain), for reference
 *   BENCH_WORKER_LOG_LEVEL      the worker's LOG_LEVEL (default info: its "schedule processed" phases reach the report)
 *   BENCH_WORKER_NODE_OPTIONS   the worker's NODE_OPTIONS (default as deployed: --max-old-space-size=850 --max-semi-space-size=32)
 *   BENCH_WORKER_EXEC_ARGV      node flags for the worker that NODE_OPTIONS refuses, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"
 *   BENCH_API_EXEC_ARGV         the same for the api
 *   BENCH_KEEP_DB=1             diagnostics: keep the benchmark's database (its name is printed first)
 *   BENCH_WEBHOOKS=0            no webhook endpoint (default: one per airline, subscribed to every event type)
 *   BENCH_SERVICE_LOG_DIR       diagnostics: each service's whole output appended to <dir>/<service>.log (e.g. with --trace-gc)
 *
 * It starts auth, supplier-sandbox (latency 0), api and worker as real processes against a fresh database
 * (crew_bench_<random>, dropped at the end) and a unique BullMQ prefix on 127.0.0.1, measures the floor and
 * the service, prints a report, writes it into docs/benchmarks.md, and stops every process it started. Each
 * timed run, floor or service, starts right after a CHECKPOINT (bench/lib/floor.ts checkpoint).
 */
import { onboard } from './lib/client';
import { benchCleanups } from './lib/cleanup';
import { say, sleep, step } from './lib/console';
import { measureCopy, measureQueue, measureRosterFloor, type CopyFloor, type QueueFloor } from './lib/floor';
import { codeVersion } from './lib/machine';
import { freePort, procStatusKb, recentOutput } from './lib/processes';
import { startRefusalProxy, type RefusalProxy } from './lib/refusal-proxy';
import { int, mib, ms, ratio, sec } from './lib/report';
import { benchNames, REDIS_URL, startStack } from './lib/stack';
import { prepareBenchStorage } from './lib/storage';
import { WebhookSink } from './lib/webhooks';
import { bookingThroughput, type BookingRun } from './roster/booking';
import { writeRosterDocs } from './roster/docs';
import {
  BOOKING_SIZE,
  MACHINE,
  OLD_FLOOR,
  RECORD_REFUSALS,
  SIZE,
  SKIP_BOOKING,
  WEBHOOKS,
  WRITE_DOCS,
} from './roster/options';
import { prepare } from './roster/prepare';
import { printReport, reportTables, type RosterResults } from './roster/report';
import { submitAndWait, type Ctx, type Submission } from './roster/submit';

const { cleanups, cleanup } = benchCleanups();

async function main(): Promise<void> {
  const started = Date.now();
  const m = MACHINE;
  const names = benchNames();
  const { dbName, databaseUrl, prefix } = names;
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

  // The floor: JSON.parse of the body + COPY (text) of N = crew-legs + 2 × crew-layovers + crew-deadheads rows
  // into a fresh table; measured three times, the least counts. No BullMQ.
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
  const stack = await startStack(
    {
      names,
      sandboxLatencyMs: 0,
      apiExecArgv: (process.env.BENCH_API_EXEC_ARGV ?? '').split(' ').filter(Boolean),
    },
    cleanups,
  );
  const { auth, sandbox, api, urls } = stack;
  let proxy: RefusalProxy | null = null;
  if (RECORD_REFUSALS) {
    proxy = await startRefusalProxy(await freePort(), stack.sandboxUrl);
    const p = proxy;
    cleanups.push({ name: 'refusal proxy', run: () => p.close() });
  }
  // The worker runs with its Node options as deployed (k8s/base/worker.yaml); BENCH_WORKER_NODE_OPTIONS overrides them.
  // The worker logs at info so that its "schedule processed" lines (phase timings) reach the report.
  const worker = await stack.startWorker(
    {
      LOG_LEVEL: process.env.BENCH_WORKER_LOG_LEVEL ?? 'info',
      NODE_OPTIONS: process.env.BENCH_WORKER_NODE_OPTIONS ?? '--max-old-space-size=850 --max-semi-space-size=32',
      ...(proxy ? { SUPPLIER_URL: proxy.url } : {}),
    },
    // Diagnostics: node flags NODE_OPTIONS refuses (e.g. --cpu-prof --cpu-prof-dir=…), space-separated.
    (process.env.BENCH_WORKER_EXEC_ARGV ?? '').split(' ').filter(Boolean),
  );
  say(`  pids: auth ${auth.pid}, sandbox ${sandbox.pid}, api ${api.pid}, worker ${worker.pid}`);
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
  const results: RosterResults = {
    versions,
    code,
    body,
    counts,
    floor,
    floorMs,
    oldFloor,
    runs,
    phasesOf,
    afterSchedules,
    end,
    booking,
    warnings,
    proxy,
  };
  const tables = reportTables(results);
  printReport(results, tables);
  const totalS = (Date.now() - started) / 1000;
  say();
  say(`benchmark took ${totalS.toFixed(0)} s`);
  if (WRITE_DOCS) writeRosterDocs(results, tables, totalS);
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

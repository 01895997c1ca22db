/**
 * `npm run bench:queue`: the review queue of an L airline, GET /api/v1/crew/action-items?review_status=OPEN
 * (sorted by due_by), its first page and a deep one.
 *
 * Seeding (quick, no roster run): the airline's OPEN review items (PENDING_REVIEW and FAILED, across stations and
 * priorities, due_by over a month around now by the engine's dueBy with the default settings, some without one)
 * are written by COPY with a booking each and the airline's travellers, plus the items of its roster no person
 * needs and a second airline's queue. Then:
 *   1. SQL alone: the keyset query of the first page and of pages after a cursor BENCH_DEEP_PAGES pages in and near
 *      the end, timed (p50/p99 of BENCH_SQL_ITERATIONS runs) and EXPLAIN ANALYZEd, in two forms of "after the
 *      cursor" (see queue/sql.ts);
 *   2. HTTP: auth and api as real processes; the first page, then next_cursor followed BENCH_DEEP_PAGES times and
 *      that page, each under autocannon (BENCH_CONNECTIONS connections for BENCH_DURATION_S seconds, after a
 *      warm-up of BENCH_WARMUP_S seconds of the same load), BENCH_HTTP_RUNS runs of each page alternating: each
 *      run's p50/p99 over the requests after each connection's first (queue/http.ts says why), autocannon's p99 over
 *      every request beside them, and their medians. Skipped, and said so, when the api does not serve the
 *      endpoint. Target: p99 < 200 ms.
 * The figures go to docs/benchmarks.md (block "queue"; BENCH_DOCS=0 leaves it alone). The database and the
 * processes are dropped and stopped at the end, also on failure or Ctrl-C.
 *
 * Options (environment): BENCH_OPEN_ITEMS (160000), BENCH_SETTLED_ITEMS (40000), BENCH_OTHER_ITEMS (20000),
 * BENCH_TRAVELLERS (14000), BENCH_PAGE_LIMIT (50), BENCH_DEEP_PAGES (100), BENCH_CONNECTIONS (50),
 * BENCH_DURATION_S (10), BENCH_WARMUP_S (3), BENCH_HTTP_RUNS (3), BENCH_SQL_ITERATIONS (200),
 * BENCH_SKIP_HTTP=1 (seeding and SQL only), BENCH_DOCS=0,
 * BENCH_API_PROCESSES ("1,2": the HTTP phase once per count, the api restarted on its port between; more than one
 * run as replicas behind that port through node:cluster, bench/lib/api-replicas.ts, as the manifests run at least
 * two api pods behind one Service),
 * BENCH_API_EXEC_ARGV (node options of the api process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { benchCleanups } from './lib/cleanup';
import { onboard, type Tenant } from './lib/client';
import { say, step } from './lib/console';
import { codeVersion, machine } from './lib/machine';
import { ROOT } from './lib/processes';
import { int, ms, table, textTable, writeDocsBlock } from './lib/report';
import { benchNames, REDIS_URL, startStack, type Stack } from './lib/stack';
import { prepareBenchStorage } from './lib/storage';
import { measureQueueHttp, type HttpOutcome } from './queue/http';
import { seedAirline, type Seeded } from './queue/seed';
import { cursorAt, timeQuery, type SqlTiming } from './queue/sql';

const num = (name: string, d: number) => Number(process.env[name] || d);
const OPEN = num('BENCH_OPEN_ITEMS', 160_000);
const SETTLED = num('BENCH_SETTLED_ITEMS', 40_000);
const OTHER = num('BENCH_OTHER_ITEMS', 20_000);
const TRAVELLERS = num('BENCH_TRAVELLERS', 14_000);
const LIMIT = num('BENCH_PAGE_LIMIT', 50);
const DEEP = num('BENCH_DEEP_PAGES', 100);
const CONNECTIONS = num('BENCH_CONNECTIONS', 50);
const DURATION_S = num('BENCH_DURATION_S', 10);
const WARMUP_S = num('BENCH_WARMUP_S', 3);
const HTTP_RUNS = num('BENCH_HTTP_RUNS', 3);
const ITERATIONS = num('BENCH_SQL_ITERATIONS', 200);
const SKIP_HTTP = process.env.BENCH_SKIP_HTTP === '1';
const API_PROCESSES = (process.env.BENCH_API_PROCESSES || '1,2').split(',').map((n) => {
  const count = Number(n);
  if (!Number.isInteger(count) || count < 1) throw new Error(`BENCH_API_PROCESSES: "${n}" is not a process count`);
  return count;
});
const DOCS = process.env.BENCH_DOCS !== '0';
const TARGET_P99_MS = 200;

const { cleanups, cleanup } = benchCleanups();

async function airlineRow(reader: pg.Client, name: string, code: string): Promise<string> {
  const id = randomUUID();
  await reader.query('insert into airlines (airline_id, name, carrier_code) values ($1, $2, $3)', [id, name, code]);
  return id;
}

async function scheduleRow(reader: pg.Client, airlineId: string): Promise<string> {
  const r = await reader.query<{ schedule_id: string }>(
    `insert into schedules (airline_id, schedule_start_date, schedule_end_date, pairing_count, status, completed_at)
      values ($1, current_date - 1, current_date + 30, 20000, 'COMPLETED', now()) returning schedule_id`,
    [airlineId],
  );
  return r.rows[0]!.schedule_id;
}

async function main(): Promise<void> {
  const started = performance.now();
  const names = benchNames();
  step(`database ${names.dbName}`);
  const { reader } = await prepareBenchStorage(names.databaseUrl, REDIS_URL, names.prefix, cleanups);
  let tenant: Tenant | null = null;
  let stack: Stack | null = null;
  if (!SKIP_HTTP) {
    step('starting auth, supplier-sandbox and api');
    stack = await startStack(
      {
        names,
        sandboxLatencyMs: 0,
        // 50 readers make ~100 requests a second, far past an airline's per-minute limit: a 429 is not a page read.
        // The limiter still runs (its Redis round trip is part of every request's cost).
        env: { RATE_LIMIT_PER_MINUTE: '10000000' },
        ...(process.env.BENCH_API_EXEC_ARGV ? { apiExecArgv: process.env.BENCH_API_EXEC_ARGV.split(' ') } : {}),
      },
      cleanups,
    );
    tenant = await onboard(stack.urls, 'Bench Queue L Air', 'QL');
  }
  const airlineId = tenant?.airlineId ?? (await airlineRow(reader, 'Bench Queue L Air', 'QL'));
  const otherId = await airlineRow(reader, 'Bench Queue other air', 'QO');
  const now = Date.now();

  step(
    `seeding ${int(OPEN)} OPEN items of the L airline (+ ${int(SETTLED)} settled, ${int(OTHER)} of another) by COPY`,
  );
  const t0 = performance.now();
  const l: Seeded = await seedAirline(reader, {
    airlineId,
    scheduleId: await scheduleRow(reader, airlineId),
    open: OPEN,
    settled: SETTLED,
    travellers: TRAVELLERS,
    seed: 1,
    now,
  });
  await seedAirline(reader, {
    airlineId: otherId,
    scheduleId: await scheduleRow(reader, otherId),
    open: OTHER,
    settled: 0,
    travellers: 2_000,
    seed: 2,
    now,
  });
  await reader.query('vacuum analyze action_items');
  await reader.query('vacuum analyze bookings');
  await reader.query('vacuum analyze travellers');
  const seedS = (performance.now() - t0) / 1000;
  step(`seeded in ${seedS.toFixed(1)} s`);

  step(`SQL alone: ${ITERATIONS} runs of each query`);
  const deepRow = DEEP * LIMIT - 1;
  // Near the end of the items with a due_by (those without one come last, and are few).
  const keyed = Number(
    (
      await reader.query<{ n: string }>(
        `select count(*) as n from action_items where airline_id = $1 and review_status = 'OPEN' and due_by is not null`,
        [airlineId],
      )
    ).rows[0]!.n,
  );
  const tailRow = keyed - 2 * LIMIT;
  const deep = await cursorAt(reader, airlineId, deepRow);
  const tail = await cursorAt(reader, airlineId, tailRow);
  if (deep.key === null || tail.key === null) throw new Error('the cursors must be on items with a due_by');
  const sql: SqlTiming[] = [await timeQuery(reader, 'first', [airlineId, LIMIT + 1], 0, ITERATIONS)];
  for (const [c, depth] of [
    [deep, deepRow + 1],
    [tail, tailRow + 1],
  ] as const) {
    for (const q of ['after_or', 'after_row', 'after_row_then_unkeyed'] as const)
      sql.push(await timeQuery(reader, q, [airlineId, LIMIT + 1, c.key, c.id], depth, ITERATIONS));
  }
  const sqlRows = sql.map((s) => [
    s.query,
    int(s.depth),
    int(s.rows),
    `${s.p50.toFixed(2)} ms`,
    `${s.p99.toFixed(2)} ms`,
    `${s.explainMs.toFixed(2)} ms`,
    int(s.buffers),
    s.scan,
  ]);
  const sqlHeader = ['query', 'rows before the page', 'rows', 'p50', 'p99', 'EXPLAIN ANALYZE', 'buffers', 'scan'];
  say(textTable(sqlHeader, sqlRows));

  // One outcome per api process count (the api as started is one process).
  const https: { processes: number; http: HttpOutcome }[] = [];
  if (tenant && stack) {
    let running = 1;
    for (const processes of API_PROCESSES) {
      const api = processes === 1 ? '1 api process' : `${processes} api processes`;
      if (processes !== running) {
        step(`restarting the api as ${api} on its port`);
        await stack.restartApi(processes);
        running = processes;
      }
      step(
        `HTTP, ${api}: autocannon, ${CONNECTIONS} connections, ` +
          `${HTTP_RUNS} runs of ${DURATION_S} s per page (each after ${WARMUP_S} s of warm-up)`,
      );
      const http = await measureQueueHttp(tenant, {
        limit: LIMIT,
        deepPages: DEEP,
        connections: CONNECTIONS,
        durationS: DURATION_S,
        warmupS: WARMUP_S,
        runs: HTTP_RUNS,
      });
      https.push({ processes, http });
    }
  }
  // Why a count was not measured (the api does not serve the endpoint), or that HTTP was skipped.
  const notMeasured =
    https.length === 0 ? ['BENCH_SKIP_HTTP=1'] : https.flatMap((h) => (h.http.ok ? [] : [h.http.reason]));
  const httpHeader = [
    'api processes',
    'page',
    'p50 (median)',
    'p99 (median)',
    `p99 < ${TARGET_P99_MS} ms`,
    'p99 of each run',
    'every request: p99 (median)',
    "connections' first requests: slowest (median)",
    'requests (median)',
    'req/s (median)',
    'non-2xx',
    'errors',
  ];
  const httpRows = https.flatMap(({ processes, http }) =>
    (http.ok ? http.pages : []).map(({ page, runs, median: h }) => [
      String(processes),
      page,
      ms(h.p50),
      ms(h.p99),
      h.p99 < TARGET_P99_MS ? 'yes' : 'NO',
      runs.map((r) => ms(r.p99)).join(', '),
      ms(h.p99AllRequests),
      ms(h.firstRequestMax),
      int(h.requests),
      int(h.perSecond),
      int(h.non2xx),
      int(h.errors),
    ]),
  );
  if (httpRows.length > 0) say(textTable(httpHeader, httpRows));
  for (const reason of notMeasured) say(`HTTP not measured: ${reason}`);

  const m = machine();
  const pgVersion = (await reader.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  const md = [
    `## Review queue benchmark — ${new Date().toISOString().slice(0, 10)}`,
    '',
    `Command: \`${SKIP_HTTP ? 'BENCH_SKIP_HTTP=1 ' : ''}${process.env.BENCH_API_PROCESSES ? `BENCH_API_PROCESSES=${API_PROCESSES.join(',')} ` : ''}npm run bench:queue\` (${((performance.now() - started) / 1000).toFixed(0)} s). ` +
      `Machine: ${m.nproc} cores (${m.cpu}), ${m.memGiB} GiB RAM, node ${m.node}, Postgres ${pgVersion} on 127.0.0.1. Code: ${codeVersion()}.`,
    '',
    `Data, written by COPY (not through the pipeline) in ${seedS.toFixed(1)} s: the L airline's ${int(l.open)} OPEN items ` +
      '(PENDING_REVIEW 85 %, FAILED 15 %; P1 5 %, P2 15 %, P3 30 %, P4 50 %; 60 stations; events at whole minutes over a month ' +
      "around now, due_by by the engine's dueBy with the default settings, " +
      `${int(l.withoutDueBy)} without one), ${int(SETTLED)} items of its roster no person needs, a booking per item, ` +
      `${int(l.travellers)} travellers; a second airline's ${int(OTHER)} OPEN items. Page size ${LIMIT}.`,
    '',
    '### The keyset query in SQL alone',
    '',
    `p50/p99 of ${ITERATIONS} runs on one connection (after 5 warm-up runs), and one EXPLAIN (ANALYZE, BUFFERS). ` +
      '`first`: the first page; `after_or`: after a cursor as an OR of its cases (a later due_by, the same due_by and a ' +
      'later action_id, or no due_by); `after_row`: after a cursor as the row comparison `(due_by, action_id) > (…)`; ' +
      '`after_row_then_unkeyed`: the same, then (UNION ALL, in one statement) the items without a due_by when the page is not full. ' +
      'The client-side p50/p99 include the pg driver reading 51 full rows; the machine is shared.',
    '',
    table(sqlHeader, sqlRows),
    '',
    '### Over HTTP',
    '',
    httpRows.length > 0
      ? `autocannon, ${CONNECTIONS} connections for ${DURATION_S} s per run, each run after ${WARMUP_S} s of the same load ` +
        `(not counted), ${HTTP_RUNS} runs of each page alternating, against the api (LOG_LEVEL=warn) as ` +
        `${API_PROCESSES.map((n) => (n === 1 ? 'one process' : `${n} processes behind its one port (node:cluster)`)).join(', then as ')}, ` +
        'restarted on its port between; the manifests run at least two api pods behind one Service, each with up to 2 cores ' +
        'of its own, where here every process shares the same 2 cores with Postgres and autocannon. ' +
        `The deep page is reached by following next_cursor ${DEEP} times. p50 and p99 are over the requests after each ` +
        "connection's first: autocannon opens a run's connections all at once, after its warm-up's, and their first " +
        "requests wait behind that burst; autocannon's p99 over every request and the slowest first request are beside " +
        `them. Target: p99 < ${TARGET_P99_MS} ms.\n\n` +
        table(httpHeader, httpRows) +
        notMeasured.map((reason) => `\n\nNot measured: ${reason}.`).join('')
      : notMeasured.map((reason) => `Not measured: ${reason}.`).join('\n\n'),
  ].join('\n');
  if (DOCS) {
    writeDocsBlock(path.join(ROOT, 'docs/benchmarks.md'), 'queue', md);
    step('docs/benchmarks.md: block "queue" written');
  }
}

main()
  .catch((err) => {
    console.error('[bench] failed:', err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  })
  .finally(() => cleanup());

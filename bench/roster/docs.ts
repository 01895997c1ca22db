/** The roster benchmark's section of docs/benchmarks.md (the block `size=<S|M|L>`), from one run's report. */
import path from 'node:path';
import { step } from '../lib/console';
import { ROOT } from '../lib/processes';
import { int, table, writeDocsBlock } from '../lib/report';
import { BOOKING_SIZE, MACHINE, SIZE, SKIP_BOOKING } from './options';
import type { ReportTables, RosterResults } from './report';

export function writeRosterDocs(r: RosterResults, t: ReportTables, totalS: number): void {
  const m = MACHINE;
  const { versions, code, body, counts, runs, phasesOf, booking } = r;
  const { floorTable, serviceRows, phaseRows, healthRows, profileLines, rssRows, targetRows, bookingRows } = t;
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
    '### Floor (same run, same machine, before the services started)',
    '',
    'Each floor run, like each service run below, starts right after a `CHECKPOINT`.',
    '',
    table(['part', 'volume', 'time'], floorTable),
    '',
    '### Service',
    '',
    'submit→done: from the start of the POST to the first processing-status answer with `poll_recommended` false ' +
      '(polled every 200 ms). "× floor" is the ratio to the floor above (JSON.parse + COPY of N rows, least of three; no BullMQ).',
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

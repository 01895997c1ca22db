/** The roster benchmark's report: the tables of one run's figures, and their print-out on stdout. */
import type { RefusalProxy } from '../lib/refusal-proxy';
import { say } from '../lib/console';
import type { CopyFloor, QueueFloor, RosterFloor } from '../lib/floor';
import { int, mib, ms, ratio, textTable } from '../lib/report';
import type { BookingRun } from './booking';
import { GIB_KB, MACHINE, SIZE } from './options';
import type { Prepared } from './prepare';
import { profileText, type Submission } from './submit';

/** Everything one run measured, as the report needs it. */
export interface RosterResults {
  versions: { postgres: string; redis: string };
  code: string;
  body: Buffer;
  counts: Prepared['counts'];
  floor: { best: RosterFloor; all: RosterFloor[] };
  floorMs: number;
  /** The earlier floor definition (BENCH_OLD_FLOOR), for reference. */
  oldFloor: { copy: CopyFloor; queue: QueueFloor; ms: number } | null;
  /** The five submissions: first, identical, 1 % changed, 10 % changed, window a day later. */
  runs: Submission[];
  /** The worker's phases per run label, from its "schedule processed" log line. */
  phasesOf: Map<string, string>;
  afterSchedules: { workerHwm: number | null; apiHwm: number | null };
  end: { workerHwm: number | null; apiHwm: number | null; sandboxHwm: number | null };
  booking: BookingRun | null;
  warnings: string[];
  proxy: RefusalProxy | null;
}

export type ReportTables = ReturnType<typeof reportTables>;

export function reportTables(r: RosterResults) {
  const { floorMs, runs, end, floor, body, counts, oldFloor, afterSchedules, booking } = r;
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
  return {
    floorTable,
    serviceRows,
    phaseRows,
    healthRows,
    profileLines,
    rssRows,
    targetRows,
    bookingRows,
  };
}

export function printReport(r: RosterResults, t: ReportTables): void {
  const m = MACHINE;
  const { versions, booking, warnings, proxy } = r;
  const { floorTable, serviceRows, phaseRows, healthRows, profileLines, rssRows, targetRows, bookingRows } = t;

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
}

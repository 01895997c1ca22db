/** The urgency benchmark's report: one scenario's tables, and the sandbox and Duffel paths side by side. */
import nodePath from 'node:path';
import os from 'node:os';
import { say, step } from '../lib/console';
import type { SupplierPath } from '../lib/duffel-path';
import { ROOT } from '../lib/processes';
import { int, table, textTable, writeDocsBlock } from '../lib/report';
import { median } from '../lib/stats';
import {
  CONCURRENCY,
  DEADHEADS,
  DRAIN_WINDOW_MS,
  LATENCY_MS,
  PAIRINGS,
  RUNS,
  s1,
  SUPPLIER,
  WRITE_DOCS,
} from './options';
import { DEADHEAD_FRACTION, WORDS } from './work';

/** The rows both reports name alike. */
const LABEL = {
  a: `(a) B injects ${WORDS.p1} → CONFIRMED`,
  b: `(b) A injects ${WORDS.p1} → CONFIRMED`,
  c: `(c) B submits ${WORDS.small} → COMPLETED`,
};

/** The comparison's docs block: the hotels' (urgency-duffel), or the deadheads' right after it. */
const COMPARE_DOCS = DEADHEADS
  ? {
      key: 'urgency-duffel-flights',
      after: 'urgency-duffel',
      title: "## Duffel Air against the sandbox's flights (bench:urgency, BENCH_WORK=deadheads BENCH_SUPPLIER=compare)",
      rows: `crew deadheads (deadheadFraction ${DEADHEAD_FRACTION}), no layovers`,
      setup:
        'the Duffel path sets every airline\'s order to `flights: ["DUFFEL"], hotels: ["SANDBOX"]`. Every airline books its deadheads by itself ' +
        "(deadhead auto-booking on, an economy flight config, no fare ceiling), every profile has a date of birth, and no carrier the offers are on is a bench airline's own.",
    }
  : {
      key: 'urgency-duffel',
      after: undefined,
      title: '## Duffel dialect against the sandbox (bench:urgency, BENCH_SUPPLIER=compare)',
      rows: 'hotel layovers',
      setup:
        'the Duffel path sets every airline\'s order to `hotels: ["DUFFEL"]` and contracts the station\'s Stays accommodation (`acc_…`) at its own base amounts night by night.',
    };

/** One scenario's figures (times in ms). */
export interface ScenarioResult {
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
  /** Rows of A's roster that became booking items (layovers or deadheads). */
  rows: number;
  queuedAt: number;
}

/** A timed step of a scenario: ms from its POST, the outcome, and the booking tasks waiting then. */
interface Timed {
  ms: number;
  status: string;
  backlog: number;
}

/** What one scenario measured, as its tables need it. */
export interface ScenarioFigures {
  a: Timed;
  b: Timed;
  c: Timed;
  /** Not measured when A's booking tasks had left the outbox before the bench saw the diff written. */
  d: Timed | null;
  baseline: Timed;
  outboxAtInjection: number;
  rate1: number;
  rate2: number;
  /** BOOKING_CONCURRENCY / latency: the rate one worker process could reach. */
  target: number;
  cpu1: string;
  cpu2: string;
  /** Rows of A's roster that became booking items (layovers or deadheads), and those booked automatically. */
  rows: number;
  bookable: number;
  queuedAt: number;
  peak: number;
}

/** Prints the scenario's tables; with hotels on the sandbox path (BENCH_SUPPLIER=sandbox) also writes its docs block. */
export function scenarioReport(f: ScenarioFigures): void {
  const { a, b, c, d, baseline, outboxAtInjection, rate1, rate2, target, cpu1, cpu2, queuedAt, peak } = f;
  const rows = [
    [LABEL.a, s1(a.ms), a.status, int(a.backlog), '≤ 2 s'],
    [LABEL.b, s1(b.ms), b.status, int(b.backlog), '≤ 2 s'],
    [LABEL.c, s1(c.ms), c.status, int(c.backlog), `≤ 2 × baseline = ${s1(2 * baseline.ms)}`],
    [
      `(d) B injects ${WORDS.p1} while A's tasks are relayed (${int(outboxAtInjection)} in the outbox) → CONFIRMED`,
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
      cpu1,
    ],
    [
      '2 worker processes',
      `${rate2.toFixed(1)}/s`,
      `${(2 * target).toFixed(0)}/s`,
      `${((100 * rate2) / (2 * target)).toFixed(0)} % (${(rate2 / rate1).toFixed(2)}× one process)`,
      cpu2,
    ],
  ];
  say('');
  say(textTable(['measure', 'seconds', 'outcome', 'backlog then', 'target'], rows));
  say('');
  say(
    textTable(
      [
        `drain (A ${WORDS.item} bookings confirmed)`,
        'measured',
        'concurrency × processes / latency',
        'share',
        'CPU (cores)',
      ],
      drainRows,
    ),
  );

  // The sandbox-only block is the hotels' (deadheads are written only as a comparison, BENCH_SUPPLIER=compare).
  if (WRITE_DOCS && SUPPLIER === 'sandbox' && !DEADHEADS) {
    const cpu = os.cpus()[0]?.model.trim() ?? 'unknown';
    const content = [
      `## Urgent work first (bench:urgency)`,
      '',
      `One run of \`npm run bench:urgency\` on ${os.cpus().length} cores (${cpu}), node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z. ` +
        `Sandbox latency ${LATENCY_MS} ms, BOOKING_CONCURRENCY ${CONCURRENCY}. Airline A's roster: ${int(PAIRINGS)} pairings, ${int(f.rows)} hotel layovers ` +
        `(${int(f.bookable)} at contracted stations), no deadheads; ${int(queuedAt)} booking tasks were waiting when its diff had been written and relayed ` +
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
}

/** The two paths side by side: medians of the runs, the raw ratio, and each against its own floor. */
export function compareReport(results: ScenarioResult[]): void {
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
    timeRow(LABEL.a, (r) => r.a),
    timeRow(LABEL.b, (r) => r.b),
    timeRow('(d) B injects P1 while A is relayed → CONFIRMED', (r) => r.d),
    timeRow(LABEL.c, (r) => r.c),
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
    COMPARE_DOCS.title,
    '',
    `\`${DEADHEADS ? 'BENCH_WORK=deadheads ' : ''}BENCH_SUPPLIER=compare${RUNS > 1 ? ` BENCH_RUNS=${RUNS}` : ''}${PAIRINGS !== 3600 ? ` BENCH_PAIRINGS=${PAIRINGS}` : ''} npm run bench:urgency\` on ${os.cpus().length} cores (${cpu}), ` +
      `node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z: ${RUNS} run${RUNS > 1 ? 's' : ''} of each path, alternating, each on a fresh stack ` +
      `(database, queue prefix, processes). Latency ${LATENCY_MS} ms on every supplier call of either dialect, BOOKING_CONCURRENCY ${CONCURRENCY}; ` +
      `airline A's roster ${int(PAIRINGS)} pairings, ${int(S[0]!.rows)} ${COMPARE_DOCS.rows}. The same airlines, rosters, injections and traveller profiles on both paths; ` +
      COMPARE_DOCS.setup,
    '',
    table(header, rows),
    '',
    'Each run:',
    '',
    table(perRunHeader, perRun),
  ].join('\n');
  // A block of its own, after the hotels' comparison; the hotels' blocks stay as they are.
  writeDocsBlock(nodePath.join(ROOT, 'docs/benchmarks.md'), COMPARE_DOCS.key, content, COMPARE_DOCS.after);
  step(`docs/benchmarks.md updated (block "${COMPARE_DOCS.key}")`);
}

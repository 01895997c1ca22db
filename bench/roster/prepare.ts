/** The roster benchmark's inputs: the roster of the size measured, its changed successors, and what they imply. */
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { checkBody, ScheduleSubmission, scheduleSubmissionIssues } from '@crew/contracts';
import { addDays, diffRoster, flattenRoster } from '@crew/engine';
import { generateRoster, mutateRoster, ROSTER_SIZES } from '@crew/roster-generator';
import { step } from '../lib/console';
import { measureParse, type ParseFloor } from '../lib/floor';
import { SEED, SIZE, START_DATE } from './options';

export interface Prepared {
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
export function prepare(): Prepared {
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

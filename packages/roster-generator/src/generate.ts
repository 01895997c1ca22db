import type { ScheduleSubmission } from '@crew/contracts';
import { Rng } from '@crew/platform';
import { BASES } from './airports';
import { shiftDate } from './clock';
import { buildCrewPool, CrewPicker } from './crew';
import { buildPairing } from './pairing';

export interface GenerateOptions {
  pairings: number;
  seed: number;
  /** First day of the window, YYYY-MM-DD. */
  startDate: string;
  /** Window length in days (schedule_end_date = startDate + days - 1). */
  days: number;
  /** Number of distinct crew members the crews are drawn from. */
  crewPool: number;
  /** Share of legs that are deadheads; default 0.1. */
  deadheadFraction?: number;
  /** The airline's 2-letter code, prefix of its flight and pairing numbers; default 'XY'. */
  carrier?: string;
}

/** Reference sizes: S / M / L over 30 days (L: ~20k pairings, ~120-140k legs, ~40k layovers, ~75 MB JSON). */
export const ROSTER_SIZES = {
  S: { pairings: 1_000, days: 30, crewPool: 750 },
  M: { pairings: 5_000, days: 30, crewPool: 3_750 },
  L: { pairings: 20_000, days: 30, crewPool: 15_000 },
} as const satisfies Record<string, Pick<GenerateOptions, 'pairings' | 'days' | 'crewPool'>>;
export type RosterSize = keyof typeof ROSTER_SIZES;

/** Duty periods per pairing 1..4, weighted so a pairing averages about two layovers. */
const DUTY_PERIODS = [1, 2, 3, 4];
const DUTY_PERIOD_WEIGHTS = [10, 20, 30, 40];

export function pairingNumber(carrier: string, index: number): string {
  return `${carrier}${String(index + 1).padStart(6, '0')}`;
}

/** A deterministic, realistic roster: the same options always give byte-identical JSON. */
export function generateRoster(options: GenerateOptions): ScheduleSubmission {
  const rng = new Rng(options.seed);
  const carrier = options.carrier ?? 'XY';
  const picker = new CrewPicker(buildCrewPool(rng, Math.max(1, options.crewPool)));
  const pairings = [];
  for (let i = 0; i < options.pairings; i++) {
    const base = rng.pick(BASES);
    const dutyPeriods = rng.weighted(DUTY_PERIODS, DUTY_PERIOD_WEIGHTS);
    pairings.push(
      buildPairing(rng, {
        pairingNumber: pairingNumber(carrier, i),
        base,
        firstDutyDate: shiftDate(options.startDate, rng.int(0, Math.max(0, options.days - dutyPeriods))),
        dutyPeriods,
        crew: picker.pick(rng, base, rng.weighted([2, 3, 4], [30, 40, 30])),
        carrier,
        deadheadFraction: options.deadheadFraction ?? 0.1,
      }),
    );
  }
  return {
    external_ref: `${carrier}-ROSTER-${options.seed}`,
    as_of: `${shiftDate(options.startDate, -1)}T22:00:00Z`,
    schedule_start_date: options.startDate,
    schedule_end_date: shiftDate(options.startDate, options.days - 1),
    pairings,
  };
}

import type { CrewMember, Pairing, ScheduleSubmission } from '@crew/contracts';
import { Rng } from '@crew/platform';
import { AIRPORTS, BASES } from './airports';
import { daysBetween, shiftDate, shiftLocal } from './clock';
import { CrewPicker } from './crew';
import { buildPairing } from './pairing';

export interface MutateOptions {
  /** Share of pairings to change, 0..1. */
  fraction: number;
  seed: number;
  /** Carrier prefix of the flight numbers of added pairings; default 'XY'. */
  carrier?: string;
}

export const MUTATIONS = ['deadhead-time', 'layover', 'crew-swap', 'drop', 'add'] as const;
export type Mutation = (typeof MUTATIONS)[number];
const MUTATION_WEIGHTS = [25, 25, 20, 15, 15];

/** What mutateRoster did, per pairing_number. */
export interface MutationLog {
  pairing_number: string;
  mutation: Mutation;
}

/** Moves one DH leg by 15-120 minutes, staying on its duty date. False when the pairing has no DH leg. */
function moveDeadhead(rng: Rng, p: Pairing): boolean {
  const legs = p.duty_periods.flatMap((d) => d.legs.filter((l) => l.activity_code === 'DH').map((l) => ({ d, l })));
  if (legs.length === 0) return false;
  const { d, l } = rng.pick(legs);
  for (const delta of [rng.int(3, 24) * 5, -rng.int(3, 24) * 5]) {
    const dep = shiftLocal(l.dep_time_local, delta);
    const expected = l.expected_dep_time_local ? shiftLocal(l.expected_dep_time_local, delta) : undefined;
    if (dep.slice(0, 10) !== d.duty_date || (expected && expected.slice(0, 10) !== d.duty_date)) continue;
    l.dep_time_local = dep;
    l.arr_time_local = shiftLocal(l.arr_time_local, delta);
    if (expected) {
      l.expected_dep_time_local = expected;
      l.expected_arr_time_local = shiftLocal(l.expected_arr_time_local ?? l.arr_time_local, delta);
    }
    return true;
  }
  return false;
}

/** Changes one layover: its station (another airport, not the base) or its check-out / check-in. False without a layover. */
function changeLayover(rng: Rng, p: Pairing): boolean {
  const withLayover = p.duty_periods.filter((d) => d.layover);
  if (withLayover.length === 0) return false;
  const layover = rng.pick(withLayover).layover!;
  const roll = rng.int(0, 2);
  if (roll === 0) {
    layover.station = rng.pick(AIRPORTS.filter((a) => a.code !== layover.station && a.code !== p.origin_base)).code;
  } else if (roll === 1) {
    layover.checkout_time_local = shiftLocal(layover.checkout_time_local, rng.int(1, 4) * 60);
  } else {
    layover.checkin_time_local = shiftLocal(layover.checkin_time_local, rng.int(1, 3) * 60);
    layover.checkout_time_local = shiftLocal(layover.checkout_time_local, rng.int(1, 3) * 60 + 180);
  }
  return true;
}

/** Replaces one crew member with someone from another pairing. */
function swapCrew(rng: Rng, p: Pairing, everyone: readonly CrewMember[]): boolean {
  const present = new Set(p.crew.map((c) => c.employee_id));
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = rng.pick(everyone);
    if (present.has(candidate.employee_id)) continue;
    p.crew[rng.int(0, p.crew.length - 1)] = candidate;
    return true;
  }
  return false;
}

/**
 * Changes about `fraction` of the pairings of a roster, deterministically for a seed: a DH leg's
 * times, a layover's station or dates, a crew swap, a dropped pairing or an added one (each
 * counts as one changed pairing). The input is not modified.
 */
export function mutateRoster(roster: ScheduleSubmission, options: MutateOptions): ScheduleSubmission {
  return mutateRosterWithLog(roster, options).roster;
}

/** mutateRoster, also returning what was done to which pairing. */
export function mutateRosterWithLog(
  roster: ScheduleSubmission,
  options: MutateOptions,
): { roster: ScheduleSubmission; log: MutationLog[] } {
  const rng = new Rng(options.seed);
  const out = structuredClone(roster);
  const total = out.pairings.length;
  const count = Math.min(total, Math.round(options.fraction * total));
  const everyone = [...new Map(out.pairings.flatMap((p) => p.crew).map((c) => [c.employee_id, c])).values()];
  const picker = new CrewPicker(everyone);

  // Partial Fisher-Yates: `count` distinct pairings, in a seed-determined order.
  const order = Array.from({ length: total }, (_, i) => i);
  for (let i = 0; i < count; i++) {
    const j = rng.int(i, total - 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }

  const log: MutationLog[] = [];
  const dropped = new Set<number>();
  const added: Pairing[] = [];
  const days = daysBetween(out.schedule_start_date, out.schedule_end_date) + 1;
  for (let k = 0; k < count; k++) {
    const index = order[k]!;
    const p = out.pairings[index]!;
    let mutation = rng.weighted(MUTATIONS, MUTATION_WEIGHTS);
    // Fall back along a fixed chain when the pairing lacks what the mutation needs.
    if (mutation === 'deadhead-time' && !moveDeadhead(rng, p)) mutation = 'layover';
    if (mutation === 'layover' && !changeLayover(rng, p)) mutation = 'crew-swap';
    if (mutation === 'crew-swap' && !swapCrew(rng, p, everyone)) mutation = 'drop';
    if (mutation === 'drop') dropped.add(index);
    if (mutation === 'add') {
      const base = rng.pick(BASES);
      const dutyPeriods = rng.int(1, 4);
      added.push(
        buildPairing(rng, {
          pairingNumber: `ADD${options.seed}-${k + 1}`.slice(0, 32),
          base,
          firstDutyDate: shiftDate(out.schedule_start_date, rng.int(0, Math.max(0, days - dutyPeriods))),
          dutyPeriods,
          crew: picker.pick(rng, base, rng.int(2, 4)),
          carrier: options.carrier ?? 'XY',
          deadheadFraction: 0.1,
        }),
      );
      log.push({ pairing_number: added[added.length - 1]!.pairing_number, mutation });
    } else {
      log.push({ pairing_number: p.pairing_number, mutation });
    }
  }
  out.pairings = [...out.pairings.filter((_, i) => !dropped.has(i)), ...added];
  return { roster: out, log };
}

/**
 * What the urgency benchmark books (BENCH_WORK): hotel layovers (default) or deadhead flights. What differs
 * between the two is here: the generated rosters, the airlines' carrier codes, an injection's body and the words
 * of the reports; the scenario, the probes and the reports are the same for both.
 */
import type { ScheduleSubmission } from '@crew/contracts';
import { carrierOf, flattenRoster } from '@crew/engine';
import { generateRoster, type GenerateOptions } from '@crew/roster-generator';
import { CARRIERS } from '@crew/supplier-sandbox';
import { int } from '../lib/report';
import { DEADHEADS, START_DATE } from './options';

/**
 * Share of the generated legs that are deadheads in deadheads mode: at the default 3,600 pairings airline A's
 * roster then has 15,076 crew deadheads, each one booking task (0.1 gives 7,076, 0.25 gives 18,574).
 */
export const DEADHEAD_FRACTION = 0.2;

/** The day every injection asks for (inside the rosters' month). */
const INJECTED_DATE = '2027-03-20';

/** How the reports name the work: the injected item and the rows of a roster that become booking tasks. */
export const WORDS = DEADHEADS
  ? { item: 'deadhead', rows: 'deadheads', p1: 'P1 IROP deadhead', small: '10-deadhead roster' }
  : { item: 'hotel', rows: 'layovers', p1: 'P1 IROP hotel', small: '10-layover roster' };

/**
 * Carrier codes of airlines A, B and C. With deadheads none may be a carrier the offers are on (both dialects
 * sell the sandbox's one timetable, CARRIERS) or a deadhead leg's carrier in the generated rosters: with a
 * supplier setting (the Duffel path) the worker never buys the airline's own flights from a retail supplier
 * (retailOffers) and holds a leg on its own carrier for its own reservation system (flightRoute, NEEDS_REVIEW),
 * while without one (the sandbox path) it books them like any other. UA is United, sold by the sandbox and a
 * deadhead carrier of the generator, so A flies as UX there; the hotel mode keeps UA.
 */
export const CARRIER_CODES = DEADHEADS ? (['UX', 'UB', 'UC'] as const) : (['UA', 'UB', 'UC'] as const);
const sold = CARRIER_CODES.filter((code) => DEADHEADS && CARRIERS.some((c) => c.code === code));
if (sold.length > 0) throw new Error(`bench carrier codes ${sold.join(', ')} are sold by the sandbox`);

/**
 * A generated roster of the benchmark's work. Hotels: no deadheads. Deadheads: DEADHEAD_FRACTION of the legs,
 * and no layovers at all (a duty period's `layover` is optional in the roster schema): a layover would otherwise
 * become a hotel item too. Without a contracted hotel at its station it would take no booking slot and call no
 * supplier (the engine holds it for review when it diffs: NEEDS_REVIEW, no task), but it would add a review item
 * and a booking row per crew layover to A's diff, and B's and C's small rosters would stop at BOOKING (held by
 * those review items) instead of COMPLETED.
 */
export function benchRoster(o: Omit<GenerateOptions, 'startDate' | 'deadheadFraction'> & { carrier: string }) {
  const roster = generateRoster({ ...o, startDate: START_DATE, deadheadFraction: DEADHEADS ? DEADHEAD_FRACTION : 0 });
  if (!DEADHEADS) return roster;
  for (const duty of roster.pairings.flatMap((p) => p.duty_periods)) {
    delete duty.layover;
    const own = duty.legs.find((l) => l.activity_code === 'DH' && carrierOf(l.flight_number) === o.carrier);
    if (own) throw new Error(`a deadhead of ${o.carrier}'s roster is on its own carrier (${own.flight_number})`);
  }
  return roster;
}

/** What airline A's roster holds, as the step that submits it says. */
export function rosterContents(a: { rows: number; bookable: number }): string {
  return DEADHEADS
    ? `${int(a.rows)} crew deadheads (deadheadFraction ${DEADHEAD_FRACTION}, no layovers), one booking task each`
    : `${int(a.rows)} layovers, ${int(a.bookable)} at contracted stations`;
}

/** The rows of a roster that become booking tasks: its layovers, or its deadheads. */
export function workRows(roster: ScheduleSubmission) {
  const flat = flattenRoster(roster);
  return DEADHEADS ? flat.deadheads : flat.layovers;
}

/** The smallest generated roster with exactly `n` rows of the work (deterministic: the first seed that gives n). */
export function smallRoster(n: number, carrier: string) {
  for (let seed = 1; seed < 500; seed++) {
    const r = benchRoster({ pairings: 2, days: 10, crewPool: 4, seed, carrier });
    if (workRows(r).length === n) return r;
  }
  throw new Error(`no small roster with ${n} ${WORDS.rows}`);
}

/**
 * What a P1 injection at `station` asks for: a night at its contracted hotel, or (IROP_NEW_DEADHEAD) a deadhead
 * from it to LHR (from LHR to JFK) on any flight of the day, for the engine to search and book.
 */
export function injected(station: string) {
  return DEADHEADS
    ? {
        type: 'FLIGHT',
        classification: 'IROP_NEW_DEADHEAD',
        flight: { from_airport: station, to_airport: station === 'LHR' ? 'JFK' : 'LHR', depart_date: INJECTED_DATE },
      }
    : {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        hotel: { city: station, check_in_date: INJECTED_DATE, num_nights: 1 },
      };
}

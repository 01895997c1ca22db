import type { CrewMember, DutyPeriod, Leg, Pairing } from '@crew/contracts';
import type { Rng } from '@crew/platform';
import { AIRPORT_BY_CODE, blockMinutes, neighbours, type AirportInfo } from './airports';
import { formatLocal, HOUR, localDate, localMidnight, MINUTE, shiftDate } from './clock';

const AIRCRAFT = ['A320', 'A321', 'B738', 'B38M', 'E190', 'A359', 'B789'];
const DH_CARRIERS = ['AA', 'BA', 'LH', 'EK', 'SQ', 'QF', 'UA', 'DL'];

export interface PairingPlan {
  pairingNumber: string;
  base: string;
  /** Local date of the first duty period. */
  firstDutyDate: string;
  dutyPeriods: number;
  crew: CrewMember[];
  carrier: string;
  deadheadFraction: number;
}

const neighbourCache = new Map<string, string[]>();
function nearby(code: string): string[] {
  let list = neighbourCache.get(code);
  if (!list) {
    list = neighbours(code, 8);
    neighbourCache.set(code, list);
  }
  return list;
}

function airport(code: string): AirportInfo {
  return AIRPORT_BY_CODE.get(code)!;
}

/** Minutes in 5-minute steps within [min, max]. */
function minutes(rng: Rng, min: number, max: number): number {
  return rng.int(min / 5, max / 5) * 5;
}

interface DutyDraft {
  duty: DutyPeriod;
  /** Where the duty period ends and when (instant). */
  station: string;
  endsAt: number;
}

/**
 * One duty period from `station` starting with a departure at `firstDep`. Legs depart on the
 * duty date (local at their origin); a leg that would depart on the next local day ends the
 * duty period early, so every leg's duty_date equals its departure's local date.
 */
function buildDuty(
  rng: Rng,
  plan: PairingPlan,
  num: number,
  station: string,
  firstDep: number,
  goHome: boolean,
): DutyDraft {
  const from0 = airport(station);
  const dutyDate = localDate(firstDep, from0.offset);
  const wanted = rng.weighted([2, 3, 4], [75, 15, 10]);
  const legs: Leg[] = [];
  let here = station;
  let dep = firstDep;
  let arrivedAt = firstDep;
  for (let seq = 1; seq <= wanted; seq++) {
    const last = seq === wanted;
    let to: string;
    if (last && goHome) {
      if (here === plan.base) break;
      to = plan.base;
    } else {
      const options = nearby(here).filter((c) => c !== plan.base || !last);
      to = rng.pick(options);
    }
    const origin = airport(here);
    if (seq > 1) dep = arrivedAt + minutes(rng, 40, 90) * MINUTE;
    if (localDate(dep, origin.offset) !== dutyDate) break;
    const dest = airport(to);
    const block = blockMinutes(origin, dest);
    const arr = dep + block * MINUTE;
    const deadhead = rng.chance(plan.deadheadFraction);
    const leg: Leg = {
      leg_sequence: seq,
      activity_code: deadhead ? 'DH' : 'FLT',
      flight_number: deadhead ? `${rng.pick(DH_CARRIERS)}${rng.int(1, 9999)}` : `${plan.carrier}${rng.int(100, 9999)}`,
      from_airport: here,
      to_airport: to,
      dep_time_local: formatLocal(dep, origin.offset),
      arr_time_local: formatLocal(arr, dest.offset),
      aircraft_type: rng.pick(AIRCRAFT),
      aircraft_tail: `N${rng.int(100, 999)}${String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25))}`,
      block_hours: Math.round((block / 60) * 100) / 100,
    };
    if (deadhead) {
      leg.booking_required = true;
      // Some deadheads carry the airline's expected times; they stay on the duty date.
      if (rng.chance(0.3)) {
        const delta = minutes(rng, -10, 30) * MINUTE;
        if (localDate(dep + delta, origin.offset) === dutyDate) {
          leg.expected_dep_time_local = formatLocal(dep + delta, origin.offset);
          leg.expected_arr_time_local = formatLocal(arr + delta, dest.offset);
        }
      }
    }
    legs.push(leg);
    here = to;
    arrivedAt = arr;
  }
  const end = arrivedAt + 15 * MINUTE;
  return {
    duty: {
      duty_period_num: num,
      duty_date: dutyDate,
      fdp_start_local: formatLocal(firstDep - HOUR, from0.offset),
      fdp_end_local: formatLocal(end, airport(here).offset),
      legs,
    },
    station: here,
    endsAt: arrivedAt,
  };
}

/** A first departure between 05:00 and 10:00 local on `date` at `station`. */
function morningDeparture(rng: Rng, station: string, date: string): number {
  return localMidnight(date, airport(station).offset) + (5 * 60 + minutes(rng, 0, 300)) * MINUTE;
}

/** Builds a realistic pairing: 1-4 duty periods of 2-4 legs, a booked layover between duty periods. */
export function buildPairing(rng: Rng, plan: PairingPlan): Pairing {
  const duties: DutyPeriod[] = [];
  let station = plan.base;
  let dep = morningDeparture(rng, station, plan.firstDutyDate);
  for (let num = 1; num <= plan.dutyPeriods; num++) {
    const last = num === plan.dutyPeriods;
    const draft = buildDuty(rng, plan, num, station, dep, last);
    duties.push(draft.duty);
    station = draft.station;
    const endsAt = draft.endsAt;
    if (last) break;
    // Rest of 11-14 h, and never before 05:00 local on the day after this duty date, so
    // every duty period has its own date (leg keys include it).
    const here = airport(station);
    dep = endsAt + minutes(rng, 11 * 60, 14 * 60) * MINUTE;
    const nextMorning = localMidnight(shiftDate(draft.duty.duty_date, 1), here.offset) + 5 * HOUR;
    if (dep < nextMorning) dep = nextMorning + minutes(rng, 0, 120) * MINUTE;
    draft.duty.layover = {
      station,
      booking_required: true,
      checkin_time_local: formatLocal(endsAt + 30 * MINUTE, here.offset),
      checkout_time_local: formatLocal(dep - 75 * MINUTE, here.offset),
    };
  }
  const first = duties[0]!;
  const lastDuty = duties[duties.length - 1]!;
  const checkIn = Date.parse(first.fdp_start_local);
  const checkOut = Date.parse(lastDuty.fdp_end_local);
  return {
    pairing_number: plan.pairingNumber,
    origin_base: plan.base,
    // A duty day cut short may leave the crew away from base: the pairing then ends there.
    terminus_base: station,
    check_in_local: first.fdp_start_local,
    check_out_local: lastDuty.fdp_end_local,
    tafb_hours: Math.round(((checkOut - checkIn) / HOUR) * 100) / 100,
    crew: plan.crew,
    duty_periods: duties,
  };
}

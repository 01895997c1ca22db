import { checkBody, ScheduleSubmission, scheduleSubmissionIssues, type Pairing } from '@crew/contracts';
import { generateRoster, mutateRoster, mutateRosterWithLog, MUTATIONS, ROSTER_SIZES, Rng } from '../src';

const S = generateRoster({ ...ROSTER_SIZES.S, seed: 42, startDate: '2026-12-01' });
const legsOf = (r: ScheduleSubmission) => r.pairings.flatMap((p) => p.duty_periods.flatMap((d) => d.legs));
const layoversOf = (r: ScheduleSubmission) =>
  r.pairings.flatMap((p) => p.duty_periods.flatMap((d) => (d.layover ? [d.layover] : [])));

describe('generateRoster', () => {
  it('is deterministic: the same seed gives byte-identical JSON, another seed another roster', () => {
    const small = { pairings: 50, days: 10, crewPool: 40, startDate: '2026-12-01' };
    expect(JSON.stringify(generateRoster({ ...small, seed: 7 }))).toBe(
      JSON.stringify(generateRoster({ ...small, seed: 7 })),
    );
    expect(JSON.stringify(generateRoster({ ...small, seed: 8 }))).not.toBe(
      JSON.stringify(generateRoster({ ...small, seed: 7 })),
    );
  });

  it('produces a roster the API accepts: schema valid and no cross-field issue', () => {
    const checked = checkBody(ScheduleSubmission, JSON.parse(JSON.stringify(S)));
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    expect(scheduleSubmissionIssues(S)).toEqual([]);
    expect([S.schedule_start_date, S.schedule_end_date]).toEqual(['2026-12-01', '2026-12-30']);
  });

  it('has the S size: 1k pairings of 2-4 crew, ~6-7k legs of which ~10% DH, ~2k layovers, ~3 MB of JSON', () => {
    expect(S.pairings).toHaveLength(1000);
    const legs = legsOf(S);
    expect(legs.length).toBeGreaterThan(5500);
    expect(legs.length).toBeLessThan(7500);
    const dh = legs.filter((l) => l.activity_code === 'DH').length / legs.length;
    expect(dh).toBeGreaterThan(0.07);
    expect(dh).toBeLessThan(0.13);
    expect(layoversOf(S).length).toBeGreaterThan(1700);
    expect(layoversOf(S).length).toBeLessThan(2300);
    expect(S.pairings.every((p) => p.crew.length >= 2 && p.crew.length <= 4)).toBe(true);
    expect(new Set(S.pairings.flatMap((p) => p.crew.map((c) => c.employee_id))).size).toBeLessThanOrEqual(
      ROSTER_SIZES.S.crewPool,
    );
    const mb = JSON.stringify(S).length / 1e6;
    expect(mb).toBeGreaterThan(2.5);
    expect(mb).toBeLessThan(4.5);
  });

  it('is realistic: 1-4 duty periods, legs chained station to station, offsets in local times, each leg dated on its local departure day', () => {
    const shapes = new Set<number>();
    for (const p of S.pairings) {
      shapes.add(p.duty_periods.length);
      expect(p.duty_periods.length).toBeLessThanOrEqual(4);
      const legs = p.duty_periods.flatMap((d) => d.legs);
      expect(legs[0]!.from_airport).toBe(p.origin_base);
      for (let i = 1; i < legs.length; i++) expect(legs[i]!.from_airport).toBe(legs[i - 1]!.to_airport);
      for (const d of p.duty_periods) {
        for (const l of d.legs) {
          expect(l.dep_time_local.slice(0, 10)).toBe(d.duty_date);
          if (l.expected_dep_time_local) expect(l.expected_dep_time_local.slice(0, 10)).toBe(d.duty_date);
          expect(l.dep_time_local).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00[+-]\d\d:\d\d$/);
          expect(Date.parse(l.arr_time_local)).toBeGreaterThan(Date.parse(l.dep_time_local));
        }
      }
    }
    expect([...shapes].sort()).toEqual([1, 2, 3, 4]);
  });

  it('puts a booking_required layover between consecutive duty periods, at the station where the day ended', () => {
    for (const p of S.pairings) {
      p.duty_periods.forEach((d, i) => {
        const last = i === p.duty_periods.length - 1;
        expect(d.layover === undefined).toBe(last);
        if (d.layover) {
          expect(d.layover.booking_required).toBe(true);
          expect(d.layover.station).toBe(d.legs[d.legs.length - 1]!.to_airport);
          expect(Date.parse(d.layover.checkout_time_local)).toBeGreaterThan(Date.parse(d.layover.checkin_time_local));
          // Each duty period has its own (later) date, so leg keys never repeat inside a pairing.
          expect(p.duty_periods[i + 1]!.duty_date > d.duty_date).toBe(true);
        }
      });
    }
  });

  it('publishes the S / M / L sizes', () => {
    expect(ROSTER_SIZES).toEqual({
      S: { pairings: 1000, days: 30, crewPool: 750 },
      M: { pairings: 5000, days: 30, crewPool: 3750 },
      L: { pairings: 20000, days: 30, crewPool: 15000 },
    });
  });
});

describe('mutateRoster', () => {
  const byNumber = (r: ScheduleSubmission) =>
    new Map(r.pairings.map((p) => [p.pairing_number, JSON.stringify(p)] as [string, string]));
  const changedPairings = (a: ScheduleSubmission, b: ScheduleSubmission) => {
    const before = byNumber(a);
    const after = byNumber(b);
    const numbers = new Set([...before.keys(), ...after.keys()]);
    return [...numbers].filter((n) => before.get(n) !== after.get(n)).length;
  };

  it('changes 1% of the pairings with fraction 0.01, deterministically, leaving the input untouched', () => {
    const before = JSON.stringify(S);
    const mutated = mutateRoster(S, { fraction: 0.01, seed: 3 });
    expect(JSON.stringify(S)).toBe(before);
    expect(changedPairings(S, mutated)).toBe(10);
    expect(JSON.stringify(mutateRoster(S, { fraction: 0.01, seed: 3 }))).toBe(JSON.stringify(mutated));
    expect(JSON.stringify(mutateRoster(S, { fraction: 0.01, seed: 4 }))).not.toBe(JSON.stringify(mutated));
  });

  it('mixes DH time changes, layover changes, crew swaps, dropped and added pairings, and stays valid', () => {
    const { roster, log } = mutateRosterWithLog(S, { fraction: 0.2, seed: 5 });
    expect(new Set(log.map((l) => l.mutation))).toEqual(new Set(MUTATIONS));
    expect(changedPairings(S, roster)).toBe(200);
    const checked = checkBody(ScheduleSubmission, JSON.parse(JSON.stringify(roster)));
    expect(checked.ok ? [] : checked.issues).toEqual([]);
    const find = (r: ScheduleSubmission, n: string) => r.pairings.find((p) => p.pairing_number === n);
    for (const { pairing_number, mutation } of log) {
      const was = find(S, pairing_number);
      const now = find(roster, pairing_number);
      if (mutation === 'drop') expect(now).toBeUndefined();
      if (mutation === 'add') expect([was, now !== undefined]).toEqual([undefined, true]);
      if (mutation === 'crew-swap')
        expect(now!.crew.map((c) => c.employee_id)).not.toEqual(was!.crew.map((c) => c.employee_id));
      if (mutation === 'deadhead-time') expect(deadheadTimes(now!)).not.toEqual(deadheadTimes(was!));
    }
  });
});

function deadheadTimes(p: Pairing): string[] {
  return p.duty_periods.flatMap((d) => d.legs.filter((l) => l.activity_code === 'DH').map((l) => l.dep_time_local));
}

describe('Rng', () => {
  it('repeats its sequence for a seed and stays in [0, 1)', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const values = Array.from({ length: 1000 }, () => a.next());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b.next()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBe(1000);
  });
});

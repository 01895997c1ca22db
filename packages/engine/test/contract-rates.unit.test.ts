/** Contract dates and rate periods (DESIGN section 4) and the flight-config contradiction check. Pure unit tests. */
import fc from 'fast-check';
import type { RatePeriod } from '@crew/contracts';
import { contractDateIssues, contractRateIssues, flightConfigIssues } from '../src/hotel-config';

// ---------------------------------------------------------------- contract dates and rate periods

const rp = (from: string, to: string, amount = 100): RatePeriod => ({
  effective_from: from,
  effective_to: to,
  rate: { amount, currency: 'EUR' },
});
const DEC = { contract_from: '2026-12-01', contract_to: '2026-12-31' };

describe('contractRateIssues (DESIGN 4: PUT contract rates)', () => {
  it('periods inside the contract, not overlapping: no issues', () => {
    expect(contractRateIssues(DEC, [rp('2026-12-01', '2026-12-15'), rp('2026-12-16', '2026-12-31')])).toEqual([]);
    expect(contractRateIssues(DEC, [])).toEqual([]);
  });

  it('a one-day period (to = from) is valid', () => {
    expect(contractRateIssues(DEC, [rp('2026-12-10', '2026-12-10')])).toEqual([]);
  });

  it('a period starting before the contract', () => {
    expect(contractRateIssues(DEC, [rp('2026-11-30', '2026-12-10')])).toEqual([
      { field: '/rate_periods/0', issue: expect.stringMatching(/within the contract/) },
    ]);
  });

  it('a period ending after the contract', () => {
    expect(contractRateIssues(DEC, [rp('2026-12-01', '2026-12-10'), rp('2026-12-20', '2027-01-01')])).toEqual([
      { field: '/rate_periods/1', issue: expect.stringMatching(/within the contract/) },
    ]);
  });

  it('two periods sharing a day overlap (dates are inclusive)', () => {
    const issues = contractRateIssues(DEC, [rp('2026-12-15', '2026-12-31'), rp('2026-12-01', '2026-12-15')]);
    expect(issues).toEqual([{ field: '/rate_periods/0', issue: 'overlaps rate period 1' }]);
  });

  it('a period nested inside another overlaps', () => {
    expect(contractRateIssues(DEC, [rp('2026-12-01', '2026-12-31'), rp('2026-12-10', '2026-12-12')])).not.toEqual([]);
  });

  it('a period ending before it starts', () => {
    expect(contractRateIssues(DEC, [rp('2026-12-10', '2026-12-09')])).toContainEqual({
      field: '/rate_periods/0/effective_to',
      issue: 'must be on or after effective_from',
    });
  });

  it('property: no issues exactly when every period is ordered, inside the contract, and no two share a day', () => {
    const day = fc
      .integer({ min: 0, max: 40 })
      .map((n) => new Date(Date.UTC(2026, 10, 25 + n)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.array(fc.tuple(day, day), { maxLength: 5 }), (pairs) => {
        const periods = pairs.map(([a, b]) => rp(a, b));
        const valid =
          periods.every(
            (p) =>
              p.effective_from <= p.effective_to &&
              p.effective_from >= DEC.contract_from &&
              p.effective_to <= DEC.contract_to,
          ) &&
          periods.every((p, i) =>
            periods.every((q, j) => i === j || p.effective_to < q.effective_from || q.effective_to < p.effective_from),
          );
        expect(contractRateIssues(DEC, periods).length === 0).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });
});

describe('contractDateIssues', () => {
  it('to on or after from is valid', () => {
    expect(contractDateIssues(DEC)).toEqual([]);
    expect(contractDateIssues({ contract_from: '2026-12-01', contract_to: '2026-12-01' })).toEqual([]);
  });

  it('to before from is refused', () => {
    expect(contractDateIssues({ contract_from: '2026-12-02', contract_to: '2026-12-01' })).toEqual([
      { field: '/contract_to', issue: 'must be on or after contract_from' },
    ]);
  });
});

describe('flightConfigIssues (spec 4.3 flight config)', () => {
  it('a carrier both preferred and blacklisted is a contradiction, reported at its preferred index', () => {
    expect(flightConfigIssues({ preferred_airlines: ['LH', 'AF', 'BA'], blacklisted_airlines: ['BA', 'LH'] })).toEqual([
      { field: '/preferred_airlines/0', issue: 'LH is also blacklisted' },
      { field: '/preferred_airlines/2', issue: 'BA is also blacklisted' },
    ]);
  });

  it('disjoint or absent lists are fine', () => {
    expect(flightConfigIssues({ preferred_airlines: ['LH'], blacklisted_airlines: ['BA'] })).toEqual([]);
    expect(flightConfigIssues({})).toEqual([]);
    expect(flightConfigIssues({ preferred_airlines: ['LH'] })).toEqual([]);
  });
});

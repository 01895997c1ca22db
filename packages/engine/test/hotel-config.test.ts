/**
 * `PUT /crew/config/hotels` rules (spec 4.3 hotel config rules 1-5; spec 7 error codes), contract rate
 * periods (DESIGN section 4) and the flight-config contradiction check. Pure unit tests.
 */
import fc from 'fast-check';
import type { HotelInput, RatePeriod } from '@crew/contracts';
import {
  contractDateIssues,
  contractRateIssues,
  flightConfigIssues,
  normalizeTerms,
  planHotelConfig,
  type ConfiguredHotel,
  type HotelConfigPlan,
  type HotelTerms,
  type PropertyLookup,
} from '../src/hotel-config';

const STD_IN: HotelInput = {
  property_id: 'GDS-FRA-1',
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};
const STD_TERMS: HotelTerms = {
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};

/** The GDS inventory: GDS-FRA-1 and GDS-MUC-1 exist, GONE-1 was looked up and not found. */
const LOOKUP: PropertyLookup = new Map([
  ['GDS-FRA-1', { name: 'Inventory Hotel FRA' }],
  ['GDS-MUC-1', { name: 'Inventory Hotel MUC' }],
  ['GONE-1', null],
]);

const base = (station: string, hotel: HotelInput) => ({ base_station: station, hotels: [hotel] });

function existing(over: Partial<ConfiguredHotel> = {}): ConfiguredHotel {
  return {
    hotel_config_id: 41,
    base_station: 'FRA',
    property_id: 'GDS-FRA-1',
    terms: STD_TERMS,
    has_contracts: false,
    automated_booking_enabled: false,
    ...over,
  };
}

function refusal(plan: HotelConfigPlan) {
  if (plan.ok) throw new Error('expected a refusal');
  return plan.refusal;
}
function hotels(plan: HotelConfigPlan) {
  if (!plan.ok)
    throw new Error(
      `expected a plan, got ${plan.refusal.status} ${plan.refusal.code}: ${JSON.stringify(plan.refusal.details)}`,
    );
  return plan.hotels;
}

describe('planHotelConfig: accepted configurations', () => {
  it('a property found in the GDS inventory is a GDS hotel named as in the inventory (rule 2, 3)', () => {
    const [h] = hotels(planHotelConfig([], [base('FRA', { ...STD_IN, name: 'My own name' })], LOOKUP));
    expect(h).toEqual({
      base_station: 'FRA',
      property_id: 'GDS-FRA-1',
      name: 'Inventory Hotel FRA',
      handler_type: 'GDS',
      terms: STD_TERMS,
      reservations_email: null,
      legacy_rates: 'keep',
      hotel_config_id: null,
    });
  });

  it("a DIRECT hotel's reservations_email is carried, and is not a term: it may change while automated booking is on (issue 15)", () => {
    const direct = { ...STD_IN, property_id: 'OWN-FRA-1', chain: 'Crew Inns', reservations_email: 'res@crewinn.test' };
    const [h] = hotels(planHotelConfig([], [base('FRA', direct)], LOOKUP));
    expect(h).toMatchObject({
      handler_type: 'DIRECT',
      reservations_email: 'res@crewinn.test',
      terms: { ...STD_TERMS, chain: 'Crew Inns' },
    });
    const e = existing({
      property_id: 'OWN-FRA-1',
      terms: { ...STD_TERMS, chain: 'Crew Inns' },
      has_contracts: true,
      automated_booking_enabled: true,
    });
    expect(
      hotels(planHotelConfig([e], [base('FRA', { ...direct, reservations_email: 'new@crewinn.test' })], LOOKUP))[0],
    ).toMatchObject({
      reservations_email: 'new@crewinn.test',
      hotel_config_id: 41,
    });
  });

  it('a GDS property stays GDS even when a chain is supplied', () => {
    expect(hotels(planHotelConfig([], [base('FRA', { ...STD_IN, chain: 'Accor' })], LOOKUP))[0]!.handler_type).toBe(
      'GDS',
    );
  });

  it('a property not in the inventory but with a chain is a DIRECT hotel with its own name (rule 2)', () => {
    const [h] = hotels(
      planHotelConfig(
        [],
        [base('XYZ', { ...STD_IN, property_id: 'AIRLINE-77', chain: 'Local Inns', name: 'Local Inn' })],
        LOOKUP,
      ),
    );
    expect(h).toMatchObject({
      property_id: 'AIRLINE-77',
      handler_type: 'DIRECT',
      name: 'Local Inn',
      terms: { ...STD_TERMS, chain: 'Local Inns' },
    });
  });

  it('a DIRECT hotel without a name has name null; a lookup that answered "not found" counts as not in the inventory', () => {
    const [h] = hotels(
      planHotelConfig([], [base('XYZ', { ...STD_IN, property_id: 'GONE-1', chain: 'Local Inns' })], LOOKUP),
    );
    expect(h).toMatchObject({ handler_type: 'DIRECT', name: null });
  });

  it('omitting rate_periods leaves legacy rates untouched (rule 4: keep)', () => {
    expect(hotels(planHotelConfig([], [base('FRA', STD_IN)], LOOKUP))[0]!.legacy_rates).toBe('keep');
  });

  it('an explicit empty rate_periods clears legacy rates (rule 4: clear)', () => {
    expect(hotels(planHotelConfig([], [base('FRA', { ...STD_IN, rate_periods: [] })], LOOKUP))[0]!.legacy_rates).toBe(
      'clear',
    );
  });

  it('an empty rate_periods is accepted even while automated booking is on (legacy rates are not terms)', () => {
    const e = existing({ has_contracts: true, automated_booking_enabled: true });
    expect(hotels(planHotelConfig([e], [base('FRA', { ...STD_IN, rate_periods: [] })], LOOKUP))[0]!.legacy_rates).toBe(
      'clear',
    );
  });

  it('each policy is accepted with its own fields', () => {
    const plan = planHotelConfig(
      [],
      [
        base('FRA', STD_IN),
        base('MUC', { property_id: 'GDS-MUC-1', policy: 'FLEXIBLE', flex_window_minutes: 90 }),
        base('XYZ', {
          property_id: 'D-1',
          chain: 'C',
          policy: 'GUARANTEED',
          guaranteed_early_check_in_time: '06:00',
          guaranteed_late_check_out_time: '18:00',
        }),
      ],
      LOOKUP,
    );
    expect(hotels(plan).map((h) => [h.base_station, h.handler_type, h.terms.policy])).toEqual([
      ['FRA', 'GDS', 'STANDARD'],
      ['MUC', 'GDS', 'FLEXIBLE'],
      ['XYZ', 'DIRECT', 'GUARANTEED'],
    ]);
  });

  it('a hotel already configured at the base keeps its hotel_config_id; a new one has none yet', () => {
    const plan = planHotelConfig(
      [existing()],
      [base('FRA', STD_IN), base('MUC', { ...STD_IN, property_id: 'GDS-MUC-1' })],
      LOOKUP,
    );
    expect(hotels(plan).map((h) => h.hotel_config_id)).toEqual([41, null]);
  });

  it('the same property at another base is a different hotel (no id carried over)', () => {
    const plan = planHotelConfig(
      [existing({ base_station: 'MUC' })],
      [base('FRA', STD_IN), base('MUC', { ...STD_IN, property_id: 'GDS-MUC-1' })],
      LOOKUP,
    );
    expect(hotels(plan).map((h) => h.hotel_config_id)).toEqual([null, null]);
  });

  it('full replacement: a hotel without contracts may be dropped (rule 1)', () => {
    expect(
      hotels(
        planHotelConfig(
          [existing(), existing({ hotel_config_id: 42, base_station: 'MUC', property_id: 'GDS-MUC-1' })],
          [base('FRA', STD_IN)],
          LOOKUP,
        ),
      ),
    ).toHaveLength(1);
    expect(hotels(planHotelConfig([existing()], [], LOOKUP))).toEqual([]);
  });

  it('a hotel with contracts but automation off may change its terms (rule 5)', () => {
    const e = existing({ has_contracts: true, automated_booking_enabled: false });
    const [h] = hotels(planHotelConfig([e], [base('FRA', { ...STD_IN, standard_check_in_time: '12:00' })], LOOKUP));
    expect(h!.terms.standard_check_in_time).toBe('12:00');
  });

  it('a hotel with automation on may be re-sent with the same terms, another name or another field order', () => {
    const e = existing({ has_contracts: true, automated_booking_enabled: true });
    const reordered: HotelInput = {
      buffer_minutes: 30,
      standard_check_out_time: '11:00',
      name: 'Renamed',
      standard_check_in_time: '15:00',
      policy: 'STANDARD',
      property_id: 'GDS-FRA-1',
    };
    expect(hotels(planHotelConfig([e], [base('FRA', reordered)], LOOKUP))[0]!.hotel_config_id).toBe(41);
  });

  // Spec 4.3 rule 5 refuses a *change* of terms. Terms are stored as Postgres jsonb, which rewrites object keys
  // (amount before currency); a client sending the same contract_rate as {currency, amount} changes nothing,
  // but sameTerms() compares JSON.stringify of normalizeTerms(), which orders only the top-level keys.
  it('the same contract_rate written with its keys in another order is not a change of terms (rule 5)', () => {
    const e = existing({
      has_contracts: true,
      automated_booking_enabled: true,
      terms: { ...STD_TERMS, contract_rate: { amount: 120, currency: 'EUR' } },
    });
    const resent = { ...STD_IN, contract_rate: { currency: 'EUR', amount: 120 } } as HotelInput;
    expect(planHotelConfig([e], [base('FRA', resent)], LOOKUP).ok).toBe(true);
  });
});

describe('planHotelConfig: 422 VALIDATION_FAILED (structure)', () => {
  it('the same base_station twice', () => {
    const r = refusal(
      planHotelConfig(
        [],
        [base('FRA', STD_IN), base('MUC', { ...STD_IN, property_id: 'GDS-MUC-1' }), base('FRA', STD_IN)],
        LOOKUP,
      ),
    );
    expect(r).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(r.details).toEqual([{ field: '/bases/2/base_station', issue: expect.stringContaining('FRA') }]);
  });

  it('STANDARD without its check-in/check-out times', () => {
    const r = refusal(
      planHotelConfig(
        [],
        [base('FRA', { property_id: 'GDS-FRA-1', policy: 'STANDARD', standard_check_in_time: '15:00' })],
        LOOKUP,
      ),
    );
    expect(r).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(r.details.map((d) => d.field)).toEqual(['/bases/0/hotels/0/standard_check_out_time']);
  });

  it('FLEXIBLE without flex_window_minutes', () => {
    const r = refusal(planHotelConfig([], [base('FRA', { property_id: 'GDS-FRA-1', policy: 'FLEXIBLE' })], LOOKUP));
    expect(r).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(r.details.map((d) => d.field)).toEqual(['/bases/0/hotels/0/flex_window_minutes']);
  });

  it('GUARANTEED without its guaranteed times (standard ones do not count)', () => {
    const r = refusal(
      planHotelConfig(
        [],
        [
          base('FRA', {
            property_id: 'GDS-FRA-1',
            policy: 'GUARANTEED',
            standard_check_in_time: '15:00',
            standard_check_out_time: '11:00',
          }),
        ],
        LOOKUP,
      ),
    );
    expect(r).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(r.details.map((d) => d.field)).toEqual([
      '/bases/0/hotels/0/guaranteed_early_check_in_time',
      '/bases/0/hotels/0/guaranteed_late_check_out_time',
    ]);
  });

  it('a refusal changes nothing: no plan is returned', () => {
    expect(planHotelConfig([existing()], [base('FRA', STD_IN), base('FRA', STD_IN)], LOOKUP).ok).toBe(false);
  });
});

describe('planHotelConfig: 422 CONTRACT_REQUIRED_FOR_RATE (rule 4)', () => {
  it('a non-empty rate_periods is refused: rates belong to contracts', () => {
    const rates: RatePeriod[] = [
      { effective_from: '2026-12-01', effective_to: '2026-12-31', rate: { amount: 100, currency: 'EUR' } },
    ];
    const r = refusal(
      planHotelConfig(
        [],
        [base('FRA', STD_IN), base('MUC', { ...STD_IN, property_id: 'GDS-MUC-1', rate_periods: rates })],
        LOOKUP,
      ),
    );
    expect(r).toMatchObject({ status: 422, code: 'CONTRACT_REQUIRED_FOR_RATE' });
    expect(r.details.map((d) => d.field)).toEqual(['/bases/1/hotels/0/rate_periods']);
  });
});

describe('planHotelConfig: 422 UNKNOWN_HOTEL_PROPERTY (rule 2)', () => {
  it('not in the inventory and no chain (not looked up at all)', () => {
    const r = refusal(
      planHotelConfig([], [base('FRA', STD_IN), base('XYZ', { ...STD_IN, property_id: 'NOPE-1' })], LOOKUP),
    );
    expect(r).toMatchObject({ status: 422, code: 'UNKNOWN_HOTEL_PROPERTY' });
    expect(r.details).toEqual([{ field: '/bases/1/hotels/0/property_id', issue: expect.stringContaining('NOPE-1') }]);
  });

  it('not in the inventory (lookup answered not found) and no chain', () => {
    expect(refusal(planHotelConfig([], [base('XYZ', { ...STD_IN, property_id: 'GONE-1' })], LOOKUP))).toMatchObject({
      status: 422,
      code: 'UNKNOWN_HOTEL_PROPERTY',
    });
  });
});

describe('planHotelConfig: 409 CONFLICT (rule 5)', () => {
  it('leaving out a hotel that has contracts', () => {
    const r = refusal(planHotelConfig([existing({ has_contracts: true })], [], LOOKUP));
    expect(r).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(r.details[0]!.issue).toMatch(/GDS-FRA-1 at FRA.*contracts/);
  });

  it('replacing the property of a base whose hotel has contracts (the old hotel is removed)', () => {
    const r = refusal(
      planHotelConfig(
        [existing({ has_contracts: true })],
        [base('FRA', { ...STD_IN, property_id: 'GDS-MUC-1' })],
        LOOKUP,
      ),
    );
    expect(r).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('changing the terms of a hotel while automated booking is on for it', () => {
    const e = existing({ has_contracts: true, automated_booking_enabled: true });
    for (const changed of [
      { ...STD_IN, standard_check_in_time: '12:00' },
      { ...STD_IN, buffer_minutes: 60 },
      { property_id: 'GDS-FRA-1', policy: 'FLEXIBLE', flex_window_minutes: 60 } as HotelInput,
      { ...STD_IN, chain: 'Accor' },
      { ...STD_IN, contract_rate: { amount: 1, currency: 'EUR' } },
    ]) {
      const r = refusal(planHotelConfig([e], [base('FRA', changed)], LOOKUP));
      expect(r).toMatchObject({ status: 409, code: 'CONFLICT' });
      expect(r.details[0]!.issue).toMatch(/terms.*automated booking/);
    }
  });

  it('removing a term field (e.g. the buffer) while automated booking is on is a change too', () => {
    const { buffer_minutes: _b, ...noBuffer } = STD_IN;
    expect(
      refusal(
        planHotelConfig(
          [existing({ has_contracts: true, automated_booking_enabled: true })],
          [base('FRA', noBuffer)],
          LOOKUP,
        ),
      ).status,
    ).toBe(409);
  });
});

describe('normalizeTerms', () => {
  it('drops absent fields and fixes the key order', () => {
    const a = normalizeTerms({
      buffer_minutes: 5,
      policy: 'STANDARD',
      standard_check_out_time: '11:00',
      standard_check_in_time: '15:00',
      flex_window_minutes: undefined,
    });
    const b = normalizeTerms({
      policy: 'STANDARD',
      standard_check_in_time: '15:00',
      standard_check_out_time: '11:00',
      buffer_minutes: 5,
    });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(Object.keys(a)).not.toContain('flex_window_minutes');
  });

  it('keeps only term fields', () => {
    const withExtra = { ...STD_TERMS, property_id: 'X', name: 'N', rate_periods: [] } as unknown as HotelTerms;
    expect(normalizeTerms(withExtra)).toEqual(STD_TERMS);
  });
});

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

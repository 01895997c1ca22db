/**
 * `PUT /crew/config/hotels` rules (spec 4.3 hotel config rules 1-5): accepted configurations and hotel terms. The
 * refusals (spec 7 error codes) are in hotel-config-refusals.test.ts, contract rate periods and the flight-config
 * check in contract-rates.test.ts. Pure unit tests.
 */
import type { HotelInput } from '@crew/contracts';
import { normalizeTerms, planHotelConfig, type HotelTerms } from '../src/hotel-config';
import { STD_IN, STD_TERMS, LOOKUP, base, existing, hotels } from './hotel-config-fixtures';

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

  it("a DIRECT hotel's reservations_email is carried, and is not a term: it may change while automated booking is on", () => {
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

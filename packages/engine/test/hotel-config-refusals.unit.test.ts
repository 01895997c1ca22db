/** `PUT /crew/config/hotels` refusals (spec 4.3 hotel config rules 2, 4, 5; spec 7 error codes). Pure unit tests. */
import type { HotelInput, RatePeriod } from '@crew/contracts';
import { planHotelConfig } from '../src/hotel-config';
import { STD_IN, LOOKUP, base, existing, refusal } from './hotel-config-fixtures';

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

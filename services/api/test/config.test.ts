/** The airline's hotel config, flight config and rules. Contracts and change requests: config-contracts.test.ts. */
import { onboard } from '@crew/test-support';
import { stack, a, useConfigStack, api, standard, putHotels, expectError } from './config-stack';

useConfigStack('config');

describe('hotel config', () => {
  it('is empty with version null before the first PUT', async () => {
    const t = await onboard(stack, { name: 'Fresh Air', carrier: 'FR' });
    expect((await api('/crew/config/hotels', t)).body).toEqual({
      bases: [],
      version: null,
      active: false,
      updated_at: null,
    });
  });

  it('derives handler_type: in the GDS inventory → GDS; not found with chain → DIRECT; neither → 422 UNKNOWN_HOTEL_PROPERTY', async () => {
    const t = await onboard(stack, { name: 'Channel Air', carrier: 'CH' });
    const ok = await putHotels(t, [
      { base_station: 'LHR', hotels: [standard('GDS-LHR-001')] },
      { base_station: 'ZZZ', hotels: [standard('OWN-ZZZ-1', { chain: 'IND', name: 'Crew Inn' })] },
    ]);
    expect(ok.status).toBe(200);
    const [lhr, zzz] = ok.body.bases;
    expect(lhr.hotels[0]).toMatchObject({
      property_id: 'GDS-LHR-001',
      handler_type: 'GDS',
      automated_booking_enabled: false,
      hotel_config_id: expect.any(Number),
      rate_periods: [],
    });
    expect(zzz.hotels[0]).toMatchObject({
      property_id: 'OWN-ZZZ-1',
      handler_type: 'DIRECT',
      name: 'Crew Inn',
      chain: 'IND',
    });
    const unknown = await putHotels(t, [{ base_station: 'LHR', hotels: [standard('NOPE-1')] }]);
    expectError(unknown, 422, 'UNKNOWN_HOTEL_PROPERTY');
    expect(unknown.body.error.details[0].field).toBe('/bases/0/hotels/0/property_id');
    // Nothing stored changed.
    expect((await api('/crew/config/hotels', t)).body.version).toBe('v1');
  });

  it('refuses handler_type on input, a second hotel at a base, a duplicated base and missing policy times with 422', async () => {
    expectError(
      await putHotels(a, [{ base_station: 'CDG', hotels: [standard('GDS-CDG-001', { handler_type: 'GDS' })] }]),
      422,
      'VALIDATION_FAILED',
    );
    expectError(
      await putHotels(a, [{ base_station: 'CDG', hotels: [standard('GDS-CDG-001'), standard('GDS-CDG-002')] }]),
      422,
      'VALIDATION_FAILED',
    );
    expectError(
      await putHotels(a, [
        { base_station: 'CDG', hotels: [standard('GDS-CDG-001')] },
        { base_station: 'CDG', hotels: [standard('GDS-CDG-002')] },
      ]),
      422,
      'VALIDATION_FAILED',
    );
    const flex = await putHotels(a, [
      { base_station: 'CDG', hotels: [{ property_id: 'GDS-CDG-001', policy: 'FLEXIBLE' }] },
    ]);
    expectError(flex, 422, 'VALIDATION_FAILED');
    expect(flex.body.error.details).toEqual([
      { field: '/bases/0/hotels/0/flex_window_minutes', issue: 'is required for policy FLEXIBLE' },
    ]);
  });

  it('rate_periods: omitted leaves rates, [] clears legacy rates, a non-empty list → 422 CONTRACT_REQUIRED_FOR_RATE', async () => {
    const t = await onboard(stack, { name: 'Rate Air', carrier: 'RA' });
    const rate = { effective_from: '2026-01-01', effective_to: '2026-12-31', rate: { amount: 120, currency: 'EUR' } };
    expectError(
      await putHotels(t, [{ base_station: 'FRA', hotels: [standard('GDS-FRA-001', { rate_periods: [rate] })] }]),
      422,
      'CONTRACT_REQUIRED_FOR_RATE',
    );
    expect((await putHotels(t, [{ base_station: 'FRA', hotels: [standard('GDS-FRA-001')] }])).status).toBe(200);
    // A legacy rate (from before contracts) stays until [] clears it.
    await stack.database.db
      .updateTable('hotel_configs')
      .set({ legacy_rate_periods: JSON.stringify([rate]) })
      .where('airline_id', '=', t.airlineId)
      .execute();
    const kept = await putHotels(t, [{ base_station: 'FRA', hotels: [standard('GDS-FRA-001')] }]);
    expect(kept.body.bases[0].hotels[0].rate_periods).toEqual([rate]);
    const cleared = await putHotels(t, [
      { base_station: 'FRA', hotels: [standard('GDS-FRA-001', { rate_periods: [] })] },
    ]);
    expect(cleared.body.bases[0].hotels[0].rate_periods).toEqual([]);
  });

  it('keeps every version: three PUTs → v1, v2, v3 resolvable and different; v4 and bad versions 404', async () => {
    const t = await onboard(stack, { name: 'Version Air', carrier: 'VA' });
    for (const p of ['GDS-MAD-001', 'GDS-MAD-002', 'GDS-MAD-003'])
      expect((await putHotels(t, [{ base_station: 'MAD', hotels: [standard(p)] }])).status).toBe(200);
    const versions = await Promise.all(['v1', 'v2', 'v3'].map((v) => api(`/crew/config/hotels/versions/${v}`, t)));
    expect(versions.map((v) => v.status)).toEqual([200, 200, 200]);
    expect(versions.map((v) => v.body.version)).toEqual(['v1', 'v2', 'v3']);
    expect(versions.map((v) => v.body.bases[0].hotels[0].property_id)).toEqual([
      'GDS-MAD-001',
      'GDS-MAD-002',
      'GDS-MAD-003',
    ]);
    expect((await api('/crew/config/hotels', t)).body.version).toBe('v3');
    for (const bad of ['v4', 'v0', 'latest', '3'])
      expectError(await api(`/crew/config/hotels/versions/${bad}`, t), 404, 'NOT_FOUND');
    expectError(await api('/crew/config/cars/versions/v1', t), 404, 'NOT_FOUND');
  });

  it('keeps hotel_config_id stable for a base + property across versions', async () => {
    const t = await onboard(stack, { name: 'Stable Air', carrier: 'SA' });
    const first = await putHotels(t, [{ base_station: 'AMS', hotels: [standard('GDS-AMS-001')] }]);
    const second = await putHotels(t, [
      { base_station: 'AMS', hotels: [standard('GDS-AMS-001', { buffer_minutes: 45 })] },
    ]);
    expect(second.body.bases[0].hotels[0].hotel_config_id).toBe(first.body.bases[0].hotels[0].hotel_config_id);
  });
});

describe('flight config and rules', () => {
  it('replaces the flight config, versions it, and refuses a carrier both preferred and blacklisted', async () => {
    const t = await onboard(stack, { name: 'Fly Air', carrier: 'FY' });
    expect((await api('/crew/config/flights', t)).body).toEqual({
      preferred_airlines: [],
      blacklisted_airlines: [],
      preferred_cabin: 'ECONOMY',
      same_carrier_preference: false,
      version: null,
      updated_at: null,
    });
    const put = await api('/crew/config/flights', t, {
      method: 'PUT',
      body: {
        preferred_airlines: ['LH', 'BA'],
        blacklisted_airlines: ['XX'],
        preferred_cabin: 'PREMIUM_ECONOMY',
        same_carrier_preference: true,
      },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      preferred_airlines: ['LH', 'BA'],
      blacklisted_airlines: ['XX'],
      preferred_cabin: 'PREMIUM_ECONOMY',
      same_carrier_preference: true,
      version: 'v1',
    });
    const replaced = await api('/crew/config/flights', t, { method: 'PUT', body: { preferred_airlines: ['AF'] } });
    expect(replaced.body).toMatchObject({
      preferred_airlines: ['AF'],
      blacklisted_airlines: [],
      preferred_cabin: 'ECONOMY',
      version: 'v2',
    });
    expect((await api('/crew/config/flights/versions/v1', t)).body.preferred_airlines).toEqual(['LH', 'BA']);
    const both = await api('/crew/config/flights', t, {
      method: 'PUT',
      body: { preferred_airlines: ['LH'], blacklisted_airlines: ['LH'] },
    });
    expectError(both, 422, 'VALIDATION_FAILED');
    expectError(
      await api('/crew/config/flights', t, { method: 'PUT', body: { preferred_cabin: 'SUITE' } }),
      422,
      'VALIDATION_FAILED',
    );
    expect((await api('/crew/config/flights', t)).body.version).toBe('v2');
  });

  it('flight-rules: only supplied fields change; currency must be a 3-letter code', async () => {
    const t = await onboard(stack, { name: 'Rule Air', carrier: 'RU' });
    expect((await api('/crew/config/flight-rules', t)).body.auto_book_max_price).toBeNull();
    const set = await api('/crew/config/flight-rules', t, {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 400, currency: 'EUR' } },
    });
    expect(set.body.auto_book_max_price).toEqual({ amount: 400, currency: 'EUR' });
    expect((await api('/crew/config/flight-rules', t, { method: 'PUT', body: {} })).body.auto_book_max_price).toEqual({
      amount: 400,
      currency: 'EUR',
    });
    expectError(
      await api('/crew/config/flight-rules', t, {
        method: 'PUT',
        body: { auto_book_max_price: { amount: 1, currency: 'euro' } },
      }),
      422,
      'VALIDATION_FAILED',
    );
  });
});

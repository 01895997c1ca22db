import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';

let stack: Stack;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  stack = await startStack('config');
  a = await onboard(stack, { name: 'Alpha Air', carrier: 'AL' });
  b = await onboard(stack, { name: 'Beta Air', carrier: 'BE' });
});
afterAll(() => stack.close());

const api = (path: string, t: Tenant, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

const standard = (property_id: string, extra: Record<string, unknown> = {}) => ({
  property_id,
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
  ...extra,
});
const putHotels = (t: Tenant, bases: unknown[]) => api('/crew/config/hotels', t, { method: 'PUT', body: { bases } });

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}

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

describe('contracts and change requests', () => {
  it('runs the whole flow: contract → rates → ENABLE → 409 while open → withdraw → raise again → approve → automation on, terms locked', async () => {
    const t = await onboard(stack, { name: 'Contract Air', carrier: 'CO' });
    const config = await putHotels(t, [{ base_station: 'LHR', hotels: [standard('GDS-LHR-002')] }]);
    const hotelId = config.body.bases[0].hotels[0].hotel_config_id;

    const contract = await api(`/crew/config/hotels/${hotelId}/contracts`, t, {
      method: 'POST',
      body: { contract_number: 'C-2027', contract_from: '2027-01-01', contract_to: '2027-12-31' },
    });
    expect(contract.status).toBe(201);
    expect(contract.body).toEqual({
      contract_id: expect.any(Number),
      hotel_config_id: hotelId,
      contract_number: 'C-2027',
      contract_from: '2027-01-01',
      contract_to: '2027-12-31',
      automated_booking_enabled: false,
      rate_periods: [],
    });
    const cid = contract.body.contract_id;

    const rates = [
      { effective_from: '2027-01-01', effective_to: '2027-06-30', rate: { amount: 150, currency: 'GBP' } },
      { effective_from: '2027-07-01', effective_to: '2027-12-31', rate: { amount: 170, currency: 'GBP' } },
    ];
    const setRates = await api(`/crew/config/hotels/${hotelId}/contracts/${cid}/rates`, t, {
      method: 'PUT',
      body: { rate_periods: rates },
    });
    expect(setRates.status).toBe(200);
    expect(setRates.body.rate_periods).toEqual(rates);

    const raise = () =>
      api('/crew/config/hotels/change-requests', t, { method: 'POST', body: { contract_id: cid, intent: 'ENABLE' } });
    const first = await raise();
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: 'OPEN',
      intent: 'ENABLE',
      contract_id: cid,
      hotel_config_id: hotelId,
      station: 'LHR',
      contract_number: 'C-2027',
      requested_by: t.email,
      decided_by: null,
    });
    expectError(await raise(), 409, 'CONFLICT');

    const withdraw = (id: number) => api(`/crew/config/hotels/change-requests/${id}/withdraw`, t, { method: 'POST' });
    const withdrawn = await withdraw(first.body.request_id);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('WITHDRAWN');
    expectError(await withdraw(first.body.request_id), 409, 'CONFLICT');
    expect((await api('/crew/config/hotels', t)).body.bases[0].hotels[0].automated_booking_enabled).toBe(false);

    const second = await raise();
    expect(second.status).toBe(201);
    const openList = await api('/crew/config/hotels/change-requests', t);
    expect(openList.body.change_requests.map((r: { request_id: number }) => r.request_id)).toEqual([
      second.body.request_id,
    ]);
    const allList = await api('/crew/config/hotels/change-requests?open_only=false', t);
    expect(allList.body.change_requests.map((r: { request_id: number }) => r.request_id)).toEqual([
      second.body.request_id,
      first.body.request_id,
    ]);

    // The operator's list covers every airline, so each request names its airline.
    const opsList = await ops('/change-requests?status=OPEN');
    expect(
      opsList.body.change_requests.find((r: { request_id: number }) => r.request_id === second.body.request_id),
    ).toMatchObject({
      airline_id: t.airlineId,
      airline_name: expect.any(String),
      status: 'OPEN',
    });

    const decided = await ops(`/change-requests/${second.body.request_id}/decide`, {
      method: 'POST',
      body: { decision: 'APPROVED', decided_by: 'ops@crew.travel', note: 'contract checked' },
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      status: 'APPROVED',
      decided_by: 'ops@crew.travel',
      decision_note: 'contract checked',
      decided_on: expect.any(String),
    });
    expectError(
      await ops(`/change-requests/${second.body.request_id}/decide`, {
        method: 'POST',
        body: { decision: 'DECLINED', decided_by: 'ops@crew.travel' },
      }),
      409,
      'CONFLICT',
    );

    const hotels = await api('/crew/config/hotels', t);
    expect(hotels.body.bases[0].hotels[0].automated_booking_enabled).toBe(true);
    expectError(
      await putHotels(t, [{ base_station: 'LHR', hotels: [standard('GDS-LHR-002', { buffer_minutes: 90 })] }]),
      409,
      'CONFLICT',
    );
    // Unchanged terms are fine; removing the contracted hotel is not.
    expect((await putHotels(t, [{ base_station: 'LHR', hotels: [standard('GDS-LHR-002')] }])).status).toBe(200);
    expectError(await putHotels(t, [{ base_station: 'LHR', hotels: [standard('GDS-LHR-003')] }]), 409, 'CONFLICT');
    expectError(await putHotels(t, []), 409, 'CONFLICT');

    // DISABLE, approved, switches it off again.
    const disable = await api('/crew/config/hotels/change-requests', t, {
      method: 'POST',
      body: { contract_id: cid, intent: 'DISABLE' },
    });
    await ops(`/change-requests/${disable.body.request_id}/decide`, {
      method: 'POST',
      body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
    });
    expect((await api('/crew/config/hotels', t)).body.bases[0].hotels[0].automated_booking_enabled).toBe(false);
    expect((await ops('/change-requests?status=APPROVED')).body.change_requests.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses contract dates out of order, and rate periods outside the contract or overlapping, with 422', async () => {
    const config = await putHotels(a, [{ base_station: 'DXB', hotels: [standard('GDS-DXB-001')] }]);
    const hotelId = config.body.bases[0].hotels[0].hotel_config_id;
    expectError(
      await api(`/crew/config/hotels/${hotelId}/contracts`, a, {
        method: 'POST',
        body: { contract_number: 'X', contract_from: '2027-02-01', contract_to: '2027-01-01' },
      }),
      422,
      'VALIDATION_FAILED',
    );
    const c = await api(`/crew/config/hotels/${hotelId}/contracts`, a, {
      method: 'POST',
      body: { contract_number: 'X', contract_from: '2027-01-01', contract_to: '2027-03-31' },
    });
    const url = `/crew/config/hotels/${hotelId}/contracts/${c.body.contract_id}/rates`;
    const outside = await api(url, a, {
      method: 'PUT',
      body: {
        rate_periods: [
          { effective_from: '2026-12-01', effective_to: '2027-01-31', rate: { amount: 90, currency: 'AED' } },
        ],
      },
    });
    expectError(outside, 422, 'VALIDATION_FAILED');
    const overlap = await api(url, a, {
      method: 'PUT',
      body: {
        rate_periods: [
          { effective_from: '2027-01-01', effective_to: '2027-02-15', rate: { amount: 90, currency: 'AED' } },
          { effective_from: '2027-02-15', effective_to: '2027-03-31', rate: { amount: 95, currency: 'AED' } },
        ],
      },
    });
    expectError(overlap, 422, 'VALIDATION_FAILED');
    expect(overlap.body.error.details[0].issue).toContain('overlaps');
    expect((await api(`/crew/config/hotels/${hotelId}/contracts`, a)).body.contracts[0].rate_periods).toEqual([]);
  });

  it('never shows one airline the config, contracts or change requests of another (404)', async () => {
    const a = await onboard(stack, { name: 'Owner Air', carrier: 'OW' });
    const config = await putHotels(a, [{ base_station: 'SIN', hotels: [standard('GDS-SIN-001')] }]);
    const hotelId = config.body.bases[0].hotels[0].hotel_config_id;
    const c = await api(`/crew/config/hotels/${hotelId}/contracts`, a, {
      method: 'POST',
      body: { contract_number: 'S1', contract_from: '2027-01-01', contract_to: '2027-12-31' },
    });
    const req = await api('/crew/config/hotels/change-requests', a, {
      method: 'POST',
      body: { contract_id: c.body.contract_id, intent: 'ENABLE' },
    });
    expect(req.status).toBe(201);

    expectError(await api(`/crew/config/hotels/${hotelId}/contracts`, b), 404, 'NOT_FOUND');
    expectError(
      await api(`/crew/config/hotels/${hotelId}/contracts`, b, {
        method: 'POST',
        body: { contract_number: 'B', contract_from: '2027-01-01', contract_to: '2027-12-31' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api(`/crew/config/hotels/${hotelId}/contracts/${c.body.contract_id}/rates`, b, {
        method: 'PUT',
        body: { rate_periods: [] },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api('/crew/config/hotels/change-requests', b, {
        method: 'POST',
        body: { contract_id: c.body.contract_id, intent: 'ENABLE' },
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api(`/crew/config/hotels/change-requests/${req.body.request_id}/withdraw`, b, { method: 'POST' }),
      404,
      'NOT_FOUND',
    );
    expect((await api('/crew/config/hotels/change-requests?open_only=false', b)).body.change_requests).toEqual([]);
    expectError(await api('/crew/config/hotels/versions/v1', b), 404, 'NOT_FOUND');
    expect((await api('/crew/config/hotels', b)).body.bases).toEqual([]);
    // The request is still OPEN for its owner.
    expect(
      (await api('/crew/config/hotels/change-requests', a)).body.change_requests.map(
        (r: { request_id: number }) => r.request_id,
      ),
    ).toContain(req.body.request_id);
  });
});

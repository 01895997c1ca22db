/** Hotel contracts, their rate periods and the change requests that enable them. */
import { onboard } from '@crew/test-support';
import { stack, a, b, useConfigStack, api, ops, standard, putHotels, expectError } from './config-stack';

useConfigStack('config_contracts');

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

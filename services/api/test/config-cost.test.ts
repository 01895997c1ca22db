/** A hotel contract's cancellation terms (create, PATCH, list) and the airline's cost settings. */
import { onboard } from '@crew/test-support';
import { stack, a, b, useConfigStack, api, standard, putHotels, expectError } from './config-stack';

useConfigStack('config_cost');

const deadline = { days_before: 0, local_time: '18:00' };
const oneNight = { type: 'NIGHTS', nights: 1 };
const gbp150 = { type: 'AMOUNT', amount: { amount: 150, currency: 'GBP' } };

async function hotelOf(t: typeof a, station: string, hotel: Record<string, unknown>) {
  const config = await putHotels(t, [{ base_station: station, hotels: [hotel] }]);
  expect(config.status).toBe(200);
  return config.body.bases[0].hotels[0].hotel_config_id as number;
}

const contractBody = (extra: Record<string, unknown> = {}) => ({
  contract_number: 'C-COST',
  contract_from: '2027-01-01',
  contract_to: '2027-12-31',
  ...extra,
});

describe('cancellation terms on a hotel contract', () => {
  it('takes terms on create (zone from the inventory), changes them by PATCH (omitted keeps, null clears) and lists them', async () => {
    const hotelId = await hotelOf(a, 'LHR', standard('GDS-LHR-002'));
    const path = `/crew/config/hotels/${hotelId}/contracts`;
    const created = await api(path, a, {
      method: 'POST',
      body: contractBody({ cancellation_deadline: deadline, late_cancellation_fee: oneNight }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      cancellation_deadline: deadline,
      late_cancellation_fee: oneNight,
      no_show_fee: null,
      hotel_time_zone: 'Europe/London',
    });
    expect(created.body.incidentals_covered).toBeUndefined();
    const cid = created.body.contract_id;

    const patched = await api(`${path}/${cid}`, a, {
      method: 'PATCH',
      body: { no_show_fee: gbp150, incidentals_covered: true },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      cancellation_deadline: deadline,
      late_cancellation_fee: oneNight,
      no_show_fee: gbp150,
      incidentals_covered: true,
    });

    const cleared = await api(`${path}/${cid}`, a, { method: 'PATCH', body: { late_cancellation_fee: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ late_cancellation_fee: null, no_show_fee: gbp150 });

    const list = await api(path, a);
    expect(list.status).toBe(200);
    expect(list.body.contracts).toEqual([cleared.body]);

    // Clearing every term leaves a contract without terms: the fixed shape again.
    const none = await api(`${path}/${cid}`, a, {
      method: 'PATCH',
      body: { cancellation_deadline: null, no_show_fee: null },
    });
    expect(none.status).toBe(200);
    expect(none.body.cancellation_deadline).toBeUndefined();
    expect(none.body.no_show_fee).toBeUndefined();
  });

  it('answers 422 naming each bad field, and changes nothing', async () => {
    const hotelId = await hotelOf(a, 'LHR', standard('GDS-LHR-002'));
    const path = `/crew/config/hotels/${hotelId}/contracts`;
    const created = await api(path, a, { method: 'POST', body: contractBody({ cancellation_deadline: deadline }) });
    expect(created.status).toBe(201);
    const cid = created.body.contract_id;

    const bad = await api(`${path}/${cid}`, a, {
      method: 'PATCH',
      body: {
        cancellation_deadline: { days_before: 400, local_time: '24:00' },
        late_cancellation_fee: { type: 'NIGHTS' },
        no_show_fee: { type: 'AMOUNT', nights: 2 },
      },
    });
    expectError(bad, 422, 'VALIDATION_FAILED');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(
      [
        '/cancellation_deadline/days_before',
        '/cancellation_deadline/local_time',
        '/late_cancellation_fee/nights',
        '/no_show_fee/amount',
        '/no_show_fee/nights',
      ].sort(),
    );

    // Fees without a deadline are no terms.
    const noDeadline = await api(`${path}/${cid}`, a, {
      method: 'PATCH',
      body: { cancellation_deadline: null, late_cancellation_fee: oneNight },
    });
    expectError(noDeadline, 422, 'VALIDATION_FAILED');
    expect(noDeadline.body.error.details.map((d: { field: string }) => d.field)).toEqual(['/cancellation_deadline']);

    const badZone = await api(`${path}/${cid}`, a, { method: 'PATCH', body: { hotel_time_zone: 'Mars/Olympus' } });
    expectError(badZone, 422, 'VALIDATION_FAILED');
    expect(badZone.body.error.details.map((d: { field: string }) => d.field)).toEqual(['/hotel_time_zone']);

    const unchanged = await api(path, a);
    expect(unchanged.body.contracts.find((c: { contract_id: number }) => c.contract_id === cid)).toEqual(created.body);
  });

  it('needs the zone of a hotel the inventory does not know (a DIRECT hotel)', async () => {
    const t = await onboard(stack, { name: 'Direct Air', carrier: 'DI' });
    const hotelId = await hotelOf(t, 'ZZZ', standard('OWN-ZZZ-1', { chain: 'IND', name: 'Crew Inn' }));
    const path = `/crew/config/hotels/${hotelId}/contracts`;
    const refused = await api(path, t, { method: 'POST', body: contractBody({ cancellation_deadline: deadline }) });
    expectError(refused, 422, 'VALIDATION_FAILED');
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toEqual(['/hotel_time_zone']);
    const given = await api(path, t, {
      method: 'POST',
      body: contractBody({ cancellation_deadline: deadline, hotel_time_zone: 'Asia/Tokyo' }),
    });
    expect(given.status).toBe(201);
    expect(given.body.hotel_time_zone).toBe('Asia/Tokyo');
  });

  it("is 404 for another airline's contract", async () => {
    const hotelId = await hotelOf(a, 'LHR', standard('GDS-LHR-002'));
    const created = await api(`/crew/config/hotels/${hotelId}/contracts`, a, { method: 'POST', body: contractBody() });
    const path = `/crew/config/hotels/${hotelId}/contracts/${created.body.contract_id}`;
    expectError(await api(path, b, { method: 'PATCH', body: { cancellation_deadline: deadline } }), 404, 'NOT_FOUND');
    const mine = await api(path, a, { method: 'PATCH', body: { cancellation_deadline: deadline } });
    expect(mine.status).toBe(200);
  });
});

describe('cost settings', () => {
  it('starts at the defaults, merges a PUT (omitted keeps) and refuses a bad field with 422', async () => {
    const t = await onboard(stack, { name: 'Cost Air', carrier: 'CA' });
    const first = await api('/crew/config/cost', t);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ cancel_hold_minutes: 0, after_deadline: 'CANCEL' });

    const held = await api('/crew/config/cost', t, { method: 'PUT', body: { cancel_hold_minutes: 30 } });
    expect(held.body).toEqual({ cancel_hold_minutes: 30, after_deadline: 'CANCEL' });
    const review = await api('/crew/config/cost', t, { method: 'PUT', body: { after_deadline: 'REVIEW' } });
    expect(review.body).toEqual({ cancel_hold_minutes: 30, after_deadline: 'REVIEW' });

    const bad = await api('/crew/config/cost', t, {
      method: 'PUT',
      body: { cancel_hold_minutes: 1441, after_deadline: 'LATER' },
    });
    expectError(bad, 422, 'VALIDATION_FAILED');
    const fields = bad.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['/cancel_hold_minutes', '/after_deadline']));
    expect((await api('/crew/config/cost', t)).body).toEqual({ cancel_hold_minutes: 30, after_deadline: 'REVIEW' });
    // Another airline's settings are its own.
    expect((await api('/crew/config/cost', b)).body).toEqual({ cancel_hold_minutes: 0, after_deadline: 'CANCEL' });
  });
});

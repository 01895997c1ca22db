/**
 * Changes that merge into what is stored (PUT /crew/config/review, PUT /crew/config/cost, PATCH of a contract's
 * terms), sent at the same time: each names other fields, and every field given ends up stored, the airline's very
 * first write included (then no row exists yet for the changes to take turns on). Repeated, since a lost update
 * needs the requests to meet.
 */
import { onboard, type Tenant } from '@crew/test-support';
import { stack, a, useConfigStack, api, standard, putHotels } from './config-stack';

useConfigStack('config_concurrent');

const TRIALS = 8;
let airlines = 0;
const newAirline = () =>
  onboard(stack, { name: `Race Air ${airlines}`, carrier: `R${String.fromCharCode(65 + airlines++)}` });

/** Sends the bodies at once; every answer must be 200. */
async function allAtOnce(t: Tenant, method: string, path: string, bodies: Record<string, unknown>[]) {
  const answers = await Promise.all(bodies.map((body) => api(path, t, { method, body })));
  expect(answers.map((r) => r.status)).toEqual(bodies.map(() => 200));
}

it('review settings: the first changes sent at once each keep their fields (targets merged per priority)', async () => {
  for (let i = 0; i < TRIALS; i++) {
    const t = await newAirline();
    await allAtOnce(t, 'PUT', '/crew/config/review', [
      { lead_time_minutes: 100 },
      { due_soon_minutes: 10 },
      { priority_targets_minutes: { P1: 2 } },
      { priority_targets_minutes: { P2: 20 } },
      { priority_targets_minutes: { P3: 40 } },
    ]);
    expect([i, (await api('/crew/config/review', t)).body]).toEqual([
      i,
      { lead_time_minutes: 100, due_soon_minutes: 10, priority_targets_minutes: { P1: 2, P2: 20, P3: 40 } },
    ]);
  }
});

it('cost settings: the first changes sent at once each keep their fields', async () => {
  for (let i = 0; i < TRIALS; i++) {
    const t = await newAirline();
    await allAtOnce(t, 'PUT', '/crew/config/cost', [{ cancel_hold_minutes: 45 }, { after_deadline: 'REVIEW' }]);
    expect([i, (await api('/crew/config/cost', t)).body]).toEqual([
      i,
      { cancel_hold_minutes: 45, after_deadline: 'REVIEW' },
    ]);
  }
});

it("a contract's terms: PATCHes sent at once each keep their fields", async () => {
  const config = await putHotels(a, [{ base_station: 'LHR', hotels: [standard('GDS-LHR-002')] }]);
  expect(config.status).toBe(200);
  const path = `/crew/config/hotels/${config.body.bases[0].hotels[0].hotel_config_id}/contracts`;
  const created = await api(path, a, {
    method: 'POST',
    body: {
      contract_number: 'C-RACE',
      contract_from: '2027-01-01',
      contract_to: '2027-12-31',
      cancellation_deadline: { days_before: 0, local_time: '18:00' },
    },
  });
  expect(created.status).toBe(201);
  const contract = `${path}/${created.body.contract_id}`;
  const late = { type: 'NIGHTS', nights: 1 };
  const noShow = { type: 'AMOUNT', amount: { amount: 150, currency: 'GBP' } };
  for (let i = 0; i < TRIALS; i++) {
    const reset = await api(contract, a, {
      method: 'PATCH',
      body: {
        late_cancellation_fee: null,
        no_show_fee: null,
        incidentals_covered: false,
        hotel_time_zone: 'Europe/London',
      },
    });
    expect(reset.status).toBe(200);
    await allAtOnce(a, 'PATCH', contract, [
      { late_cancellation_fee: late },
      { no_show_fee: noShow },
      { incidentals_covered: true },
      { cancellation_deadline: { days_before: 1, local_time: '12:00' } },
    ]);
    expect([i, (await api(path, a)).body.contracts[0]]).toEqual([
      i,
      expect.objectContaining({
        cancellation_deadline: { days_before: 1, local_time: '12:00' },
        late_cancellation_fee: late,
        no_show_fee: noShow,
        incidentals_covered: true,
      }),
    ]);
    await api(contract, a, {
      method: 'PATCH',
      body: { cancellation_deadline: { days_before: 0, local_time: '18:00' } },
    });
  }
});

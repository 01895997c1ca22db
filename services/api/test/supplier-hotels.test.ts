/**
 * The airline's own supplier properties (GET /crew/supplier-hotels) and a contract's negotiated-rate access
 * code carried to the booking, over HTTP against the stack: the search answers from the airline's Duffel
 * Stays account, an airline without Duffel gets an empty list with a note, and a layover at a contracted
 * Duffel property asks Stays for the contract's negotiated rate.
 */
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

const LHR_COURT = 'acc_0000AgZitpOhSLHRcrew01';
const LHR_BATH = 'acc_0000AgZitpOhSLHRcrew02';
const JFK_STAY = 'acc_0000AgZitpOhSJFKcrew01';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack('supplier_hotels', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });

let n = 0;
/** An airline; with `duffel`, booking hotels through its Duffel account then the sandbox. */
async function airline(duffel: boolean) {
  n++;
  const t = await onboard(stack, {
    name: `Search Air ${n}`,
    carrier: `Q${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const token = `duffel_test_search_air_${n}_0123456789`;
  if (duffel) {
    const put = await ops(`/airlines/${t.airlineId}/suppliers`, {
      method: 'PUT',
      body: { flights: ['SANDBOX'], hotels: ['SANDBOX', 'DUFFEL'], duffel: { access_token: token } },
    });
    expect(put.status).toBe(200);
  }
  return { t, token };
}

describe('GET /crew/supplier-hotels', () => {
  it("lists the airline's Duffel accommodations near the airport, narrowed by name and paged", async () => {
    const { t } = await airline(true);
    const all = await api(t, '/crew/supplier-hotels?near=lhr');
    expect(all.status).toBe(200);
    expect(all.body.note).toBeUndefined();
    expect(all.body.hotels.map((h: { property_id: string }) => h.property_id)).toEqual([LHR_COURT, LHR_BATH]);
    expect(all.body.hotels[0]).toEqual({
      property_id: LHR_COURT,
      name: 'Heathrow Crew Court',
      airport_code: 'LHR',
      city: 'London',
      country: 'GB',
      distance_km: expect.any(Number),
      supplier: 'DUFFEL',
      chain: 'Crewline Hotels',
    });
    expect(all.body.hotels[0].distance_km).toBeLessThan(15);

    const named = await api(t, '/crew/supplier-hotels?near=LHR&name=bath%20road');
    expect(named.body.hotels.map((h: { property_id: string }) => h.property_id)).toEqual([LHR_BATH]);

    const first = await api(t, '/crew/supplier-hotels?near=LHR&limit=1');
    expect(first.body.hotels.map((h: { property_id: string }) => h.property_id)).toEqual([LHR_COURT]);
    const next = await api(
      t,
      `/crew/supplier-hotels?near=LHR&limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(next.body).toMatchObject({
      hotels: [expect.objectContaining({ property_id: LHR_BATH })],
      next_cursor: null,
    });

    // Every airport the sandbox knows has one; JFK's is not near Heathrow.
    const jfk = await api(t, '/crew/supplier-hotels?near=JFK');
    expect(jfk.body.hotels.map((h: { property_id: string }) => h.property_id)).toEqual([JFK_STAY]);
    expect((await api(t, '/crew/supplier-hotels?near=NRT')).body.hotels).toHaveLength(1);
  });

  it('an airline without Duffel in its order gets 200, an empty list and a note; `near` is required', async () => {
    const { t } = await airline(false);
    const res = await api(t, '/crew/supplier-hotels?near=LHR');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hotels: [], next_cursor: null, note: expect.stringMatching(/DUFFEL.*GET \/hotels/) });
    expect((await api(t, '/crew/supplier-hotels?name=crew')).status).toBe(400);
  });
});

describe('a contract with a rate access code', () => {
  it('lists the code and books the contracted Duffel property at its negotiated rate', async () => {
    const { t, token } = await airline(true);
    const email = `crew${n}@search.test`;
    await bookingAccount(stack, t, email);
    expect(
      (
        await ops(`/airlines/${t.airlineId}/travellers/${encodeURIComponent(email)}`, {
          method: 'PUT',
          body: { phone_number: '+12125550100' },
        })
      ).status,
    ).toBe(200);
    const negotiated = await http(`${stack.sandboxUrl}/_control/duffel/stays/negotiated-rates`, {
      method: 'POST',
      body: { token, rate_access_code: 'CREW27', accommodation_ids: [JFK_STAY] },
    });
    expect(negotiated.status).toBe(201);
    // Contracted at the negotiated price (10% off the public 189 USD): under STRICT matching only the
    // negotiated rate matches, so without the code reaching Stays the layover would be held for review.
    await contractStations(stack, t, ['JFK'], {
      propertyId: () => JFK_STAY,
      terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
      rate: { amount: 170.1, currency: 'USD' },
      rateAccessCode: 'CREW27',
    });

    const hotelConfigId = (await api(t, '/crew/config/hotels')).body.bases[0].hotels[0].hotel_config_id;
    const contracts = await api(t, `/crew/config/hotels/${hotelConfigId}/contracts`);
    expect(contracts.body.contracts).toEqual([
      expect.objectContaining({ contract_number: 'K-JFK', rate_access_code: 'CREW27' }),
    ]);

    const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
    await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
    const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === 'HOTEL')!;
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      hotel: { supplier: 'DUFFEL', property_id: JFK_STAY, rate_access_code: 'CREW27', rate_flag: null },
    });
    const held = (await http(`${stack.sandboxUrl}/_control/duffel/stays/bookings?token=${token}`)).body.bookings;
    expect(held).toEqual([
      expect.objectContaining({
        rate: expect.objectContaining({ negotiated_rate_id: negotiated.body.id, base_amount: '170.10' }),
      }),
    ]);
  });

  it('is optional, printable and without spaces', async () => {
    const { t } = await airline(false);
    await contractStations(stack, t, ['JFK']);
    const hotelConfigId = (await api(t, '/crew/config/hotels')).body.bases[0].hotels[0].hotel_config_id;
    const listed = await api(t, `/crew/config/hotels/${hotelConfigId}/contracts`);
    expect(listed.body.contracts[0]).not.toHaveProperty('rate_access_code');
    const bad = await api(t, `/crew/config/hotels/${hotelConfigId}/contracts`, {
      method: 'POST',
      body: {
        contract_number: 'K-2',
        contract_from: '2027-01-01',
        contract_to: '2027-06-30',
        rate_access_code: 'CREW 27',
      },
    });
    expect(bad.status).toBe(422);
  });
});

/**
 * What an airline integrator meets first and the serialized duplicate check of spec 4.4
 * rule 4: requests as the spec writes them, over HTTP against the real stack.
 */
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';

beforeAll(async () => {
  stack = await startStack('integrator', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const reservations = async (email: string, kind: string) =>
  (
    (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
      .reservations as any[]
  ).filter((r) => r.kind === kind && r.status !== 'CANCELLED');

let seq = 0;
async function airline(opts: { contract?: string[]; booker?: boolean; settings?: Record<string, unknown> } = {}) {
  const code = `I${String.fromCharCode(65 + (seq++ % 26))}`;
  const t = await onboard(stack, {
    name: `Integrator ${code} ${seq}`,
    carrier: code,
    scopes: SCOPES,
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${seq}@integrator.test`;
  await bookingAccount(stack, t, email);
  if (opts.booker === false) {
    // No booking account: as an airline that never set crew_booker_email.
    await stack.database.db
      .updateTable('company_configs')
      .set({ crew_booker_email: null })
      .where('airline_id', '=', t.airlineId)
      .execute();
  }
  if (opts.contract) await contractStations(stack, t, opts.contract);
  return { t, email };
}

const settled = (t: Tenant, id: string) => settledBooking(stack, t.accessToken, id, 15_000);

async function roster(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return allActionItems(stack, t.accessToken, res.body.schedule_id);
}

const hotelBody = (email: string, hotel: Record<string, unknown>, anchors: Record<string, unknown> = {}) => ({
  type: 'HOTEL',
  classification: 'NEW_LAYOVER',
  anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'IROP1', ...anchors },
  hotel: { check_in_date: '2027-04-02', num_nights: 1, ...hotel },
});

describe('double booking under concurrency (spec 4.4 rule 4)', () => {
  it('20 concurrent identical requests without Idempotency-Key → one 202, nineteen 409, one booking, one reservation', async () => {
    const { t, email } = await airline({ contract: ['JFK'] });
    const body = hotelBody(email, { city: 'JFK' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api(t, '/crew/bookings/request', { method: 'POST', body })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([202, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body).toMatchObject({ status: 409, error: { code: 'CONFLICT' } });
    const winner = answers.find((a) => a.status === 202)!;
    expect((await settled(t, winner.body.booking_id)).status).toBe('CONFIRMED');
    expect((await api(t, '/crew/bookings?pairing_number=IROP1')).body.bookings).toHaveLength(1);
    expect(await reservations(email, 'hotel')).toHaveLength(1);
  });

  it('concurrent injections for the same anchors: one booking', async () => {
    const { t, email } = await airline({ contract: ['JFK'] });
    const body = {
      ...hotelBody(email, { city: 'JFK' }, { pairing_number: 'IROP2' }),
      source: 'IROP',
      irop_ref: 'IR-2',
      classification: 'IROP_HOTEL_EXTEND',
    };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api(t, '/crew/action-items', { method: 'POST', body })),
    );
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    expect((await api(t, '/crew/bookings?irop_ref=IR-2')).body.bookings).toHaveLength(1);
  });

  it('a roster row the airline already booked itself adopts that booking instead of a second room; the same roster again derives nothing', async () => {
    const { t, email } = await airline({ contract: ['JFK'] });
    const injected = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(email, { city: 'JFK', check_in_date: '2027-03-10' }, { pairing_number: 'P100' }),
    });
    expect(injected.status).toBe(202);
    expect((await settled(t, injected.body.booking_id)).status).toBe('CONFIRMED');
    const items = await roster(t, onePairingRoster({ email }));
    const hotel = items.find((i) => i.type === 'HOTEL');
    expect(hotel).toMatchObject({
      classification: 'NEW_LAYOVER',
      booking_id: injected.body.booking_id,
      disposition: 'AUTO_BOOKED',
    });
    expect(await reservations(email, 'hotel')).toHaveLength(1);
    expect((await api(t, '/crew/bookings?pairing_number=P100&type=HOTEL')).body.bookings).toHaveLength(1);
    expect(await roster(t, onePairingRoster({ email }))).toEqual([]);
  });
});

describe('hotel.city of injection and commit bodies (spec 2.7)', () => {
  it('a city name as the hotel directory spells it, any case, books at that city’s station', async () => {
    const { t, email } = await airline({ contract: ['LHR'] });
    const res = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelBody(email, { city: 'lONDON' }) });
    expect(res.status).toBe(202);
    const booking = await settled(t, res.body.booking_id);
    expect(booking).toMatchObject({ status: 'CONFIRMED' });
    expect(booking.hotel!.property_id).toBe('GDS-LHR-001');
  });

  it('a city with several airports resolves to the airline’s configured base there, else 422 naming the candidates', async () => {
    const plain = await airline();
    const ambiguous = await api(plain.t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(plain.email, { city: 'New York' }),
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({
      status: 422,
      error: {
        code: 'VALIDATION_FAILED',
        details: [
          { field: '/hotel/city', issue: '"New York" matches several stations (JFK, LGA); give the station code' },
        ],
      },
    });

    const based = await airline({ contract: ['LGA'] });
    const res = await api(based.t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(based.email, { city: 'new york' }),
    });
    expect(res.status).toBe(202);
    expect((await settled(based.t, res.body.booking_id)).hotel!.property_id).toBe('GDS-LGA-001');
  });

  it('with property_id, city is optional and checked against the property: a mismatch is a clear 422', async () => {
    const { t, email } = await airline({ contract: ['JFK'] });
    const mismatch = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(email, { property_id: 'GDS-JFK-001', city: 'London' }),
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.details).toEqual([
      { field: '/hotel/city', issue: 'does not match the station of property GDS-JFK-001 (JFK)' },
    ]);
    const codeMismatch = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(email, { property_id: 'GDS-JFK-001', city: 'LHR' }),
    });
    expect(codeMismatch.status).toBe(422);
    const agreeing = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelBody(email, { property_id: 'GDS-JFK-001', city: 'New York' }),
    });
    expect(agreeing.status).toBe(202);
  });

  it('an unknown city is a 422 naming the field', async () => {
    const { t, email } = await airline();
    const res = await api(t, '/crew/action-items', { method: 'POST', body: hotelBody(email, { city: 'Atlantis' }) });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toMatchObject({ field: '/hotel/city' });
  });
});

describe('manual flight commits', () => {
  const option = async (t: Tenant, from = 'LHR', to = 'JFK', date = '2027-03-12') =>
    (await api(t, `/crew/flight-options?from_airport=${from}&to_airport=${to}&date=${date}`)).body.options[0];

  it('a commit with flight_option_id needs no anchor but traveller_email: date and route come from the offer', async () => {
    const { t, email } = await airline();
    const o = await option(t);
    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email },
        flight: { flight_option_id: o.flight_option_id },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ duty_date: '2027-03-12', status: 'PENDING' });
    const done = await settled(t, res.body.booking_id);
    expect(done).toMatchObject({ status: 'CONFIRMED', booked_by: t.email });
    expect(done.flight).toMatchObject({
      flight_number: o.flight_number,
      airline_code: o.airline_code,
      from_airport: 'LHR',
      to_airport: 'JFK',
    });
  });

  it('an id the supplier never issued, with no other date → 422 naming flight_option_id', async () => {
    const { t, email } = await airline();
    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email },
        flight: { flight_option_id: 'forged.id' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { field: '/flight/flight_option_id', issue: expect.stringContaining('not an offer') },
    ]);
  });

  it('spec rule 11: a commit by route is placed under the calling user, even with no crew_booker_email', async () => {
    const { t, email } = await airline({ booker: false });
    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email, pairing_number: 'R11' },
        flight: { from_airport: 'LHR', to_airport: 'JFK', depart_date: '2027-03-12' },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.status).toBe('PENDING');
    const done = await settled(t, res.body.booking_id);
    expect(done).toMatchObject({ status: 'CONFIRMED', booked_by: t.email });
    expect((await reservations(email, 'flight'))[0]).toMatchObject({ booker_email: t.email });
  });

  it('the airline’s flight_number anchor is kept; what was booked is in the flight block', async () => {
    const { t, email } = await airline();
    const item = (await roster(t, onePairingRoster({ email }))).find((i) => i.type === 'FLIGHT')!;
    const o = (await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken })).body.options.find(
      (x: any) => x.flight_number !== 'BA117',
    );
    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email, pairing_number: 'P100' },
        flight: { flight_option_id: o.flight_option_id },
      },
    });
    expect(res.status).toBe(202);
    expect(res.body.booking_id).toBe(item.booking_id);
    const done = await settled(t, item.booking_id!);
    expect(done).toMatchObject({ status: 'CONFIRMED', flight_number: 'BA117' });
    expect(done.flight).toMatchObject({
      flight_number: o.flight_number,
      airline_code: o.airline_code,
      cabin: o.cabin,
      price: o.price,
      dep_time: o.dep_time,
    });
    expect((await api(t, '/crew/bookings?flight_number=BA117')).body.bookings.map((b: any) => b.booking_id)).toEqual([
      item.booking_id,
    ]);
  });
});

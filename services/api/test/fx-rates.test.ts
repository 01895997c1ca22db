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

/** Money in other currencies: the operator's FX table, the fare ceiling and the hotel rate check. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('fx_rates', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());
afterEach(() => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' }));

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const ops = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
const fault = async (body: Record<string, unknown>) =>
  expect((await http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body })).status).toBe(201);
/** The api's today (the stack's clock): the default as_of of a rate. */
const today = () => '2027-03-01';

function expectEnvelope(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Array) }, status });
}

let n = 0;
async function airline(settings: Record<string, unknown>, contractRate?: { amount: number; currency: string }) {
  n++;
  const t = await onboard(stack, {
    name: `FX Air ${n}`,
    carrier: `X${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, ...settings },
  });
  const email = `crew${n}@fx.test`;
  await bookingAccount(stack, t, email);
  if (contractRate)
    await contractStations(stack, t, ['JFK'], {
      terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
      rate: contractRate,
    });
  return { t, email };
}

async function booked(t: Tenant, email: string, type: 'HOTEL' | 'FLIGHT') {
  const res = await api(t, '/crew/schedules', { method: 'POST', body: onePairingRoster({ email }) });
  expect(res.status).toBe(202);
  await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  const item = (await allActionItems(stack, t.accessToken, res.body.schedule_id)).find((i) => i.type === type)!;
  return { item, booking: (await api(t, `/crew/bookings/${item.booking_id}`)).body };
}

describe('operator FX table (/ops/v1/fx-rates)', () => {
  it('needs the operator token (401 in the envelope)', async () => {
    expectEnvelope(await http(`${stack.apiUrl}/ops/v1/fx-rates`), 401, 'UNAUTHORIZED');
    expectEnvelope(
      await http(`${stack.apiUrl}/ops/v1/fx-rates/EUR`, { method: 'PUT', body: { rate: 1.1 } }),
      401,
      'UNAUTHORIZED',
    );
    expectEnvelope(
      await http(`${stack.apiUrl}/ops/v1/fx-rates/EUR`, {
        method: 'PUT',
        token: 'not-the-ops-token',
        body: { rate: 1.1 },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('refuses a bad currency, the pivot and a non-positive rate (422 VALIDATION_FAILED)', async () => {
    for (const currency of ['EURO', 'eur', 'E1', 'USD']) {
      const res = await ops(`/fx-rates/${currency}`, { method: 'PUT', body: { rate: 1.1 } });
      expectEnvelope(res, 422, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field).toBe('/currency');
    }
    for (const rate of [0, -1.5, '1.1']) {
      const res = await ops('/fx-rates/EUR', { method: 'PUT', body: { rate } });
      expectEnvelope(res, 422, 'VALIDATION_FAILED');
      expect(res.body.error.details[0].field).toBe('/rate');
    }
    expectEnvelope(
      await ops('/fx-rates/EUR', { method: 'PUT', body: { rate: 1.1, as_of: '2027-13-01' } }),
      422,
      'VALIDATION_FAILED',
    );
    expectEnvelope(await ops('/fx-rates/EUR', { method: 'PUT', body: {} }), 422, 'VALIDATION_FAILED');
  });

  it('sets a rate from a date (today by default), keeps the history and lists it newest first', async () => {
    const first = await ops('/fx-rates/SEK', {
      method: 'PUT',
      body: { rate: 0.095, as_of: '2026-11-01', set_by: 'ops@crew.travel' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      currency: 'SEK',
      rate: 0.095,
      as_of: '2026-11-01',
      set_by: 'ops@crew.travel',
      set_at: expect.any(String),
    });
    const second = await ops('/fx-rates/SEK', { method: 'PUT', body: { rate: 0.096 } });
    expect(second.body).toMatchObject({ currency: 'SEK', rate: 0.096, as_of: today(), set_by: null });
    // The same date again replaces that date's rate.
    expect((await ops('/fx-rates/SEK', { method: 'PUT', body: { rate: 0.094, as_of: '2026-11-01' } })).body.rate).toBe(
      0.094,
    );
    const list = await ops('/fx-rates?currency=SEK');
    expect(list.status).toBe(200);
    expect(list.body.pivot_currency).toBe('USD');
    expect(list.body.fx_rates.map((r: { as_of: string; rate: number }) => [r.as_of, r.rate])).toEqual([
      [today(), 0.096],
      ['2026-11-01', 0.094],
    ]);
    expect((await ops('/fx-rates')).body.fx_rates.length).toBeGreaterThanOrEqual(2);
    expectEnvelope(await ops('/fx-rates?currency=sek'), 400, 'INVALID_REQUEST');
  });
});

describe('the fare ceiling in another currency (deadhead auto-booking)', () => {
  const on = { deadhead_auto_booking: true };

  it('a EUR ceiling with USD fares: NEEDS_REVIEW naming the missing rate until EUR has one, then auto-booked', async () => {
    const a = await airline(on);
    await api(a.t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 100000, currency: 'EUR' } },
    });
    const before = await booked(a.t, a.email, 'FLIGHT');
    expect(before.item.disposition).toBe('PENDING_REVIEW');
    expect(before.booking.status).toBe('NEEDS_REVIEW');
    expect(before.booking.review_reason).toMatch(
      /^no exchange rate for EUR is set \(needed to compare the fare \d+\.\d{2} USD with the ceiling 100000\.00 EUR\)$/,
    );

    expect((await ops('/fx-rates/EUR', { method: 'PUT', body: { rate: 1.1, as_of: '2026-11-20' } })).status).toBe(200);
    const b = await airline(on);
    await api(b.t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 100000, currency: 'EUR' } },
    });
    const after = await booked(b.t, b.email, 'FLIGHT');
    expect(after.item).toMatchObject({ disposition: 'AUTO_BOOKED', auto_eligible: true });
    expect(after.booking).toMatchObject({
      status: 'CONFIRMED',
      flight: { from_airport: 'LHR', to_airport: 'JFK', price: { currency: 'USD' } },
    });
  });

  it('a fare above the converted ceiling: NEEDS_REVIEW, the reason names both currencies and the rate date', async () => {
    await ops('/fx-rates/EUR', { method: 'PUT', body: { rate: 1.1, as_of: '2026-11-20' } });
    const a = await airline(on);
    await api(a.t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 1, currency: 'EUR' } },
    });
    const { booking } = await booked(a.t, a.email, 'FLIGHT');
    expect(booking.status).toBe('NEEDS_REVIEW');
    expect(booking.review_reason).toMatch(
      /^the lowest fitting fare \d+\.\d{2} USD \(= \d+\.\d{2} EUR at the rate of 2026-11-20\) is above the ceiling 1\.00 EUR \(auto_book_max_price\)$/,
    );
  });
});

describe('the hotel rate check across currencies', () => {
  it('a supplier price in USD equal to the EUR contracted rate at the rate of the first night → CONFIRMED (STRICT)', async () => {
    await ops('/fx-rates/EUR', { method: 'PUT', body: { rate: 1.1, as_of: '2026-11-20' } });
    const a = await airline({ rate_match_mode: 'STRICT' }, { amount: 180, currency: 'EUR' });
    // The supplier answers 198 USD (= 180.00 EUR at 1.1).
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 18, currency: 'USD' });
    const { booking } = await booked(a.t, a.email, 'HOTEL');
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.hotel).toMatchObject({
      nightly_rate: { amount: 198, currency: 'USD' },
      contracted_rate: { amount: 180, currency: 'EUR' },
      rate_flag: null,
    });
  });

  it('a different converted price is a mismatch described in both currencies (STRICT → NEEDS_REVIEW)', async () => {
    await ops('/fx-rates/EUR', { method: 'PUT', body: { rate: 1.1, as_of: '2026-11-20' } });
    const a = await airline({ rate_match_mode: 'STRICT' }, { amount: 180, currency: 'EUR' });
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 30, currency: 'USD' });
    const { booking } = await booked(a.t, a.email, 'HOTEL');
    expect(booking.status).toBe('NEEDS_REVIEW');
    expect(booking.review_reason).toBe(
      'rate mismatch: supplier price 210.00 USD (= 190.91 EUR at the rate of 2026-11-20) differs from the contracted rate 180.00 EUR',
    );
  });

  it('a supplier price in a currency that cannot be compared (no rate) → NEEDS_REVIEW with that reason, in LOOSE mode too', async () => {
    const a = await airline({ rate_match_mode: 'LOOSE' }, { amount: 150, currency: 'NOK' });
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 10, currency: 'USD' });
    const { booking } = await booked(a.t, a.email, 'HOTEL');
    expect(booking.status).toBe('NEEDS_REVIEW');
    expect(booking.review_reason).toBe(
      'rate check: no exchange rate for NOK is set (needed to compare the supplier price 160.00 USD with the contracted rate 150.00 NOK)',
    );
  });
});

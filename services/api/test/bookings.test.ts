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
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';

beforeAll(async () => {
  stack = await startStack('bookings', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(() => stack.close());
afterEach(() => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' }));

const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const fault = (body: Record<string, unknown>) => http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body });
const reservations = async (email: string) =>
  (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
    .reservations as any[];

let carrierSeq = 0;
/** An airline with a booking account, a traveller with a date of birth and (optionally) an enabled JFK contract. */
async function airline(opts: { contract?: boolean; settings?: Record<string, unknown>; dob?: boolean } = {}) {
  const code = `Q${String.fromCharCode(65 + (carrierSeq++ % 26))}`;
  const t = await onboard(stack, {
    name: `Air ${code} ${carrierSeq}`,
    carrier: code,
    scopes: SCOPES,
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${carrierSeq}@air.test`;
  await bookingAccount(stack, t, email, opts.dob !== false);
  if (opts.contract !== false) await contractStations(stack, t, ['JFK']);
  return { t, email };
}

async function roster(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  const status = await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return {
    id: res.body.schedule_id as string,
    status,
    items: await allActionItems(stack, t.accessToken, res.body.schedule_id),
  };
}

const settled = (t: Tenant, id: string) => settledBooking(stack, t.accessToken, id, 10_000);

const hotelItem = (items: any[]) => items.find((i) => i.type === 'HOTEL');
const flightItem = (items: any[]) => items.find((i) => i.type === 'FLIGHT');

describe('hotel layovers from the roster', () => {
  it('a layover at a contracted station → AUTO_BOOKED, booking CONFIRMED under crew_booker_email, one sandbox reservation', async () => {
    const { t, email } = await airline();
    const r = await roster(t, onePairingRoster({ email }));
    const item = hotelItem(r.items);
    expect(item).toMatchObject({ classification: 'NEW_LAYOVER', disposition: 'AUTO_BOOKED', auto_eligible: true });
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      type: 'HOTEL',
      source: 'SCHEDULE_DIFF',
      booked_by: 'booker@air.test',
      config_version_used: 'v1',
      employee_id: 'E1',
      pairing_number: 'P100',
      schedule_id: r.id,
    });
    expect(booking.hotel).toMatchObject({
      property_id: 'GDS-JFK-001',
      confirmation_number: expect.any(String),
      nightly_rate: { amount: 180, currency: 'USD' },
      check_in_date: '2027-03-10',
      check_out_date: '2027-03-11',
    });
    const held = (await reservations(email)).filter((x) => x.kind === 'hotel');
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ status: 'CONFIRMED', booker_email: 'booker@air.test' });
    expect(r.status.summary).toMatchObject({ action_items_auto_booked: 1, action_items_pending_review: 1 });
    const history = (await api(t, `/crew/bookings/${item.booking_id}/status`)).body;
    expect(history.current_status).toBe('CONFIRMED');
    expect(history.history.map((h: { status: string }) => h.status)).toEqual(['PENDING', 'CONFIRMED']);
    expect(history.history[0]).toEqual({
      status: 'PENDING',
      at: expect.any(String),
      reason: expect.any(String),
      actor: 'engine',
    });
  });

  it('no enabled contract → NEEDS_REVIEW with "no hotel configuration exists for station JFK"', async () => {
    const { t, email } = await airline({ contract: false });
    const r = await roster(t, onePairingRoster({ email }));
    const item = hotelItem(r.items);
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      auto_eligible: false,
      message: 'no hotel configuration exists for station JFK',
    });
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: 'no hotel configuration exists for station JFK',
    });
    expect(await reservations(email)).toEqual([]);
  });

  it.each([
    ['error', 'FAILED', 'FAILED'],
    ['timeout', 'FAILED', 'FAILED'],
    ['reject', 'NEEDS_REVIEW', 'PENDING_REVIEW'],
  ])('hotel.book %s → booking %s, disposition %s', async (outcome, status, disposition) => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome });
    const r = await roster(t, onePairingRoster({ email }));
    const item = hotelItem(r.items);
    expect(item.disposition).toBe(disposition);
    expect(item.auto_eligible).toBe(true);
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking.status).toBe(status);
    if (status === 'FAILED') {
      const queue = (await api(t, '/crew/bookings/retry-queue')).body.retry_queue;
      expect(queue).toEqual([
        expect.objectContaining({
          booking_id: item.booking_id,
          next_attempt_at: expect.any(String),
          last_error: expect.stringMatching(/SUPPLIER_/),
        }),
      ]);
      expect(Date.parse(queue[0].next_attempt_at)).toBeGreaterThan(Date.now() + 50_000);
    }
  });

  it('price_change: STRICT → NEEDS_REVIEW (rate mismatch); LOOSE → CONFIRMED and flagged', async () => {
    const strict = await airline();
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 25 });
    const s = hotelItem((await roster(strict.t, onePairingRoster({ email: strict.email }))).items);
    expect((await api(strict.t, `/crew/bookings/${s.booking_id}`)).body).toMatchObject({
      status: 'NEEDS_REVIEW',
      review_reason: expect.stringContaining('rate mismatch'),
    });

    const loose = await airline({ settings: { rate_match_mode: 'LOOSE' } });
    await fault({ operation: 'hotel.book', outcome: 'price_change', price_delta: 25 });
    const l = hotelItem((await roster(loose.t, onePairingRoster({ email: loose.email }))).items);
    const booking = (await api(loose.t, `/crew/bookings/${l.booking_id}`)).body;
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.hotel.rate_flag).toContain('differs from the contracted rate');
  });

  it('retry → PENDING → CONFIRMED with retry_count 1; retry of a CONFIRMED booking → 409', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const item = hotelItem((await roster(t, onePairingRoster({ email }))).items);
    const retried = await api(t, `/crew/bookings/${item.booking_id}/retry`, { method: 'POST' });
    expect(retried.status).toBe(202);
    expect(retried.body).toMatchObject({ status: 'PENDING', retry_count: 1 });
    const done = await settled(t, item.booking_id);
    expect(done).toMatchObject({ status: 'CONFIRMED', retry_count: 1 });
    expect((await reservations(email)).filter((x) => x.kind === 'hotel')).toHaveLength(1);
    const again = await api(t, `/crew/bookings/${item.booking_id}/retry`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    // The action item follows its booking.
    const items = await allActionItems(stack, t.accessToken, item.schedule_id);
    expect(hotelItem(items).disposition).toBe('AUTO_BOOKED');
  });

  it('a retry job retries every FAILED booking it matches', async () => {
    const { t, email } = await airline();
    await fault({ operation: 'hotel.book', outcome: 'error' });
    const r = await roster(t, onePairingRoster({ email }));
    const job = await api(t, '/crew/bookings/retry-jobs', { method: 'POST', body: { schedule_id: r.id } });
    expect(job.status).toBe(202);
    expect(job.body).toMatchObject({ retry_job_id: expect.any(String), total: 1 });
    await waitFor(
      async () => (await api(t, `/crew/bookings/retry-jobs/${job.body.retry_job_id}`)).body.status !== 'RUNNING',
      5000,
      'the retry job to finish',
    );
    expect((await api(t, `/crew/bookings/retry-jobs/${job.body.retry_job_id}`)).body).toMatchObject({
      status: 'COMPLETED',
      total: 1,
      succeeded: 1,
      failed: 0,
    });
    expect(
      (await api(t, '/crew/bookings/retry-jobs')).body.retry_jobs.map((j: { retry_job_id: string }) => j.retry_job_id),
    ).toEqual([job.body.retry_job_id]);
  });
});

describe('changing and cancelling bookings', () => {
  async function confirmedHotel() {
    const a = await airline();
    const item = hotelItem((await roster(a.t, onePairingRoster({ email: a.email }))).items);
    return { ...a, bookingId: item.booking_id as string, scheduleItem: item };
  }

  it('DELETE twice → CANCELLED with one supplier cancellation; manual_override true', async () => {
    const { t, email, bookingId } = await confirmedHotel();
    const first = await api(t, `/crew/bookings/${bookingId}?reason=crew%20sick`, { method: 'DELETE' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ status: 'CANCELLED', manual_override: true });
    await fault({ operation: 'hotel.cancel', outcome: 'error', count: 5 });
    const second = await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' });
    expect(second.body.status).toBe('CANCELLED');
    const held = (await reservations(email)).filter((x) => x.kind === 'hotel');
    expect(held).toHaveLength(1);
    expect(held[0].status).toBe('CANCELLED');
    const faults = (await http(`${stack.sandboxUrl}/_control/faults`)).body;
    expect(JSON.stringify(faults)).toContain('"count":5');
  });

  it('DELETE refused by the supplier → NEEDS_REVIEW; DELETE again retries the cancellation', async () => {
    const { t, bookingId } = await confirmedHotel();
    await fault({ operation: 'hotel.cancel', outcome: 'reject' });
    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' })).body).toMatchObject({
      status: 'NEEDS_REVIEW',
      manual_override: true,
    });
    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' })).body.status).toBe('CANCELLED');
  });

  it('PATCH dates → MODIFIED with the same booking id; PATCH property → original CANCELLED and a new booking', async () => {
    const { t, email, bookingId } = await confirmedHotel();
    const moved = await api(t, `/crew/bookings/${bookingId}`, {
      method: 'PATCH',
      body: { reason: 'late arrival', hotel: { check_out_date: '2027-03-12' } },
    });
    expect(moved.status).toBe(202);
    expect(moved.body).toMatchObject({ booking_id: bookingId, status: 'MODIFIED', manual_override: true });
    expect(moved.body.hotel).toMatchObject({ check_out_date: '2027-03-12' });

    const swapped = await api(t, `/crew/bookings/${bookingId}`, {
      method: 'PATCH',
      body: { hotel: { property_id: 'GDS-JFK-002' } },
    });
    expect(swapped.status).toBe(202);
    expect(swapped.body.booking_id).not.toBe(bookingId);
    expect(swapped.body).toMatchObject({ status: 'CONFIRMED', replaces_booking_id: bookingId });
    expect(swapped.body.hotel.property_id).toBe('GDS-JFK-002');
    expect((await api(t, `/crew/bookings/${bookingId}`)).body.status).toBe('CANCELLED');
    const held = (await reservations(email)).filter((x) => x.kind === 'hotel');
    expect(held.map((x) => x.status).sort()).toEqual(['CANCELLED', 'CONFIRMED']);
  });

  it('PATCH with a block of the wrong type → 422; manual_override alone → 202', async () => {
    const { t, bookingId } = await confirmedHotel();
    expect((await api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { flight: {} } })).status).toBe(422);
    const released = await api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { manual_override: false } });
    expect(released.body).toMatchObject({ status: 'CONFIRMED', manual_override: false });
  });

  it('manual_override keeps a booking out of the next roster’s diff; manual_override false hands it back', async () => {
    const { t, email, bookingId } = await confirmedHotel();
    await api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { manual_override: true } });
    const moved = onePairingRoster({ email });
    moved.pairings[0]!.duty_periods[0]!.layover!.checkout_time_local = '2027-03-11T10:00:00-05:00';
    expect((await roster(t, moved)).items).toEqual([]);
    await api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { manual_override: false } });
    const back = await roster(t, moved);
    expect(back.items.map((i) => i.classification)).toEqual(['LAYOVER_EXTENDED']);
    expect(back.items[0]!.booking_id).toBe(bookingId);
  });

  it('a cancelled booking is not re-created by a later roster that contains its pairing again', async () => {
    const { t, email, bookingId } = await confirmedHotel();
    await api(t, `/crew/bookings/${bookingId}`, { method: 'DELETE' });
    const again = await roster(t, onePairingRoster({ email }));
    expect(again.items.filter((i) => i.type === 'HOTEL')).toEqual([]);
    const dropped = await roster(t, {
      ...onePairingRoster({ email }),
      pairings: [{ ...onePairingRoster({ email, pairing: 'OTHER' }).pairings[0] }],
    });
    const back = await roster(t, onePairingRoster({ email }));
    // P100's layover is back in the roster: its cancelled booking is not re-created (OTHER's is cancelled, rightly).
    expect(back.items.filter((i) => i.type === 'HOTEL' && i.anchors.pairing_number === 'P100')).toEqual([]);
    expect(back.items.filter((i) => i.anchors.pairing_number === 'OTHER').map((i) => i.classification)).toContain(
      'LAYOVER_CANCELLED',
    );
    expect(dropped.items.filter((i) => i.type === 'HOTEL' && i.anchors.pairing_number === 'P100')).toEqual([]);
  });
});

describe('deadheads', () => {
  it('auto-booking off → BOOK_MANUALLY + flight_options_url; committing an option from it → CONFIRMED, with pnr and ticket_id after GET status', async () => {
    const { t, email } = await airline({ contract: false });
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({
      disposition: 'PENDING_REVIEW',
      recommended_action: 'BOOK_MANUALLY',
      flight_options_url: `/api/v1/crew/flight-options?action_id=${item.action_id}`,
    });
    const options = await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken });
    const option = options.body.options[0];
    const commit = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'P100', duty_date: '2027-03-10' },
        flight: { flight_option_id: option.flight_option_id },
      },
    });
    expect(commit.status).toBe(202);
    expect(commit.body).toMatchObject({ booking_id: item.booking_id, status: 'PENDING', manual_override: true });
    const done = await settled(t, item.booking_id);
    expect(done).toMatchObject({ status: 'CONFIRMED', booked_by: t.email });
    expect(done.flight!.pnr).toBeUndefined();
    const status = await api(t, `/crew/bookings/${item.booking_id}/status`);
    expect(status.body.booking.flight).toMatchObject({
      pnr: expect.any(String),
      ticket_id: expect.any(String),
      transaction_id: expect.any(String),
      trip_session_id: expect.any(String),
    });
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body.flight.pnr).toBe(status.body.booking.flight.pnr);
    const items = await allActionItems(stack, t.accessToken, item.schedule_id);
    expect(flightItem(items).disposition).toBe('AUTO_BOOKED');
  });

  it('auto-booking on → the booked flight flies the leg’s own route, on an allowed carrier, within the ceiling', async () => {
    const { t, email } = await airline({ contract: false, settings: { deadhead_auto_booking: true } });
    const offers = (await api(t, '/crew/flight-options?from_airport=LHR&to_airport=JFK&date=2027-03-10&limit=200')).body
      .options as any[];
    const carriers = [...new Set(offers.map((o) => o.airline_code))];
    const banned = carriers[0];
    await api(t, '/crew/config/flights', {
      method: 'PUT',
      body: { blacklisted_airlines: [banned], preferred_cabin: 'ECONOMY' },
    });
    await api(t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 5000, currency: 'USD' } },
    });
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item).toMatchObject({ disposition: 'AUTO_BOOKED', auto_eligible: true });
    const booking = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(booking.status).toBe('CONFIRMED');
    expect(booking.flight).toMatchObject({ from_airport: 'LHR', to_airport: 'JFK', cabin: 'ECONOMY' });
    expect(booking.flight.airline_code).not.toBe(banned);
    expect(booking.flight.price.amount).toBeLessThanOrEqual(5000);
  });

  it('auto-booking on with a ceiling below every fare → NEEDS_REVIEW', async () => {
    const { t, email } = await airline({ contract: false, settings: { deadhead_auto_booking: true } });
    await api(t, '/crew/config/flight-rules', {
      method: 'PUT',
      body: { auto_book_max_price: { amount: 1, currency: 'USD' } },
    });
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item.disposition).toBe('PENDING_REVIEW');
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body.review_reason).toContain('auto_book_max_price');
  });

  it('flight.book faults: error → FAILED; an expired offer at commit → 202 then NEEDS_REVIEW', async () => {
    const { t, email } = await airline({ contract: false, settings: { deadhead_auto_booking: true } });
    await fault({ operation: 'flight.book', outcome: 'error' });
    const item = flightItem((await roster(t, onePairingRoster({ email }))).items);
    expect(item.disposition).toBe('FAILED');

    const other = await airline({ contract: false });
    const manual = flightItem((await roster(other.t, onePairingRoster({ email: other.email }))).items);
    const option = (await http(`${stack.apiUrl}${manual.flight_options_url}`, { token: other.t.accessToken })).body
      .options[0];
    await fault({ operation: 'flight.book', outcome: 'offer_expired' });
    const commit = await api(other.t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: other.email, pairing_number: 'P100', duty_date: '2027-03-10' },
        flight: { flight_option_id: option.flight_option_id },
      },
    });
    expect(commit.status).toBe(202);
    expect((await settled(other.t, commit.body.booking_id)).status).toBe('NEEDS_REVIEW');
  });
});

describe('requests, injection and idempotency', () => {
  const hotelRequest = (email: string, extra: Record<string, unknown> = {}) => ({
    type: 'HOTEL',
    classification: 'NEW_LAYOVER',
    anchors: { traveller_email: email, employee_id: 'E1', pairing_number: 'IROP1' },
    hotel: { city: 'JFK', check_in_date: '2027-04-02', num_nights: 1 },
    ...extra,
  });

  it('POST /crew/bookings/request books through the engine; a live duplicate → 409 CONFLICT', async () => {
    const { t, email } = await airline();
    const res = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email) });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'PENDING', manual_override: true, source: 'AIRLINE_INJECTED' });
    expect((await settled(t, res.body.booking_id)).status).toBe('CONFIRMED');
    const dup = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email) });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
  });

  it('a FLIGHT request for a traveller without a date of birth → 422; an unknown traveller → 422', async () => {
    const { t, email } = await airline({ dob: false });
    const res = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'FLIGHT',
        classification: 'NEW_DEADHEAD',
        anchors: { traveller_email: email, duty_date: '2027-03-10' },
        flight: { from_airport: 'LHR', to_airport: 'JFK', depart_date: '2027-03-10' },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('DATE_OF_BIRTH_REQUIRED');
    const unknown = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest('nobody@air.test') });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.code).toBe('TRAVELLER_NOT_FOUND');
  });

  it('a FLIGHT cancellation without a date to find its booking by → 422 naming the field, nothing stored', async () => {
    const { t, email } = await airline();
    const before = await api(t, '/crew/bookings?limit=200');
    for (const path of ['/crew/bookings/request', '/crew/action-items']) {
      const res = await api(t, path, {
        method: 'POST',
        body: {
          type: 'FLIGHT',
          classification: 'DEADHEAD_CANCELLED',
          anchors: { traveller_email: email, pairing_number: 'P1' },
          flight: { cabin_class: 'ECONOMY' },
        },
      });
      expect([path, res.status, res.body.error.code]).toEqual([path, 422, 'VALIDATION_FAILED']);
      expect(res.body.error.details).toEqual([
        { field: '/flight/depart_date', issue: 'or anchors.duty_date is required to find the booking to cancel' },
      ]);
    }
    expect((await api(t, '/crew/bookings?limit=200')).body).toEqual(before.body);
  });

  it('validates injection: type must match its block, irop_ref required for IROP', async () => {
    const { t, email } = await airline();
    const mismatch = await api(t, '/crew/action-items', {
      method: 'POST',
      body: { ...hotelRequest(email), type: 'FLIGHT' },
    });
    expect(mismatch.status).toBe(422);
    const noRef = await api(t, '/crew/action-items', {
      method: 'POST',
      body: hotelRequest(email, { source: 'IROP', classification: 'IROP_HOTEL_EXTEND' }),
    });
    expect(noRef.status).toBe(422);
    expect(noRef.body.error.details).toEqual(
      expect.arrayContaining([{ field: '/irop_ref', issue: 'is required when source is IROP' }]),
    );
  });

  it('POST /crew/action-items injects an IROP item (P2 by default) and books it asynchronously', async () => {
    const { t, email } = await airline();
    const res = await api(t, '/crew/action-items', {
      method: 'POST',
      body: hotelRequest(email, {
        source: 'IROP',
        irop_ref: 'IROP-77',
        classification: 'IROP_HOTEL_EXTEND',
        notes: 'storm',
      }),
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      source: 'IROP',
      type: 'HOTEL',
      classification: 'IROP_HOTEL_EXTEND',
      priority: 'P2',
      schedule_id: null,
      notes: 'storm',
      booking_id: expect.any(String),
    });
    const booking = await settled(t, res.body.booking_id);
    expect(booking).toMatchObject({ status: 'CONFIRMED', irop_ref: 'IROP-77', source: 'IROP', manual_override: true });
    expect(
      (await api(t, '/crew/bookings?irop_ref=IROP-77')).body.bookings.map((b: { booking_id: string }) => b.booking_id),
    ).toEqual([booking.booking_id]);
  });

  it('Idempotency-Key: a replay returns the first result; the same key with another body → 422 IDEMPOTENCY_KEY_REUSED; concurrent duplicates run once', async () => {
    const { t, email } = await airline();
    const headers = { 'idempotency-key': 'key-1' };
    const first = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email), headers });
    const replay = await api(t, '/crew/bookings/request', { method: 'POST', body: hotelRequest(email), headers });
    expect(replay.status).toBe(202);
    expect(replay.body.booking_id).toBe(first.body.booking_id);
    const reused = await api(t, '/crew/bookings/request', {
      method: 'POST',
      body: hotelRequest(email, { notes: 'different' }),
      headers,
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const body = hotelRequest(email, { anchors: { traveller_email: email, pairing_number: 'CONC' } });
    const both = await Promise.all(
      [1, 2, 3].map(() =>
        api(t, '/crew/action-items', { method: 'POST', body, headers: { 'idempotency-key': 'concurrent' } }),
      ),
    );
    expect(both.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set(both.map((r) => r.body.action_id)).size).toBe(1);
    expect((await api(t, '/crew/bookings?pairing_number=CONC')).body.bookings).toHaveLength(1);
  });
});

describe('lists and tenancy', () => {
  it('GET /crew/bookings needs a filter (400) and pages through results', async () => {
    const { t, email } = await airline();
    await roster(t, onePairingRoster({ email }));
    expect((await api(t, '/crew/bookings')).status).toBe(400);
    const all = (await api(t, '/crew/bookings?employee_id=E1&limit=1')).body;
    expect(all.bookings).toHaveLength(1);
    const next = (await api(t, `/crew/bookings?employee_id=E1&limit=1&cursor=${all.next_cursor}`)).body;
    expect(next.bookings).toHaveLength(1);
    expect(next.bookings[0].booking_id).not.toBe(all.bookings[0].booking_id);
  });

  it('another airline’s booking is 404 on every booking endpoint', async () => {
    const owner = await airline();
    const item = hotelItem((await roster(owner.t, onePairingRoster({ email: owner.email }))).items);
    const stranger = await airline({ contract: false });
    const id = item.booking_id;
    for (const [method, path, body] of [
      ['GET', `/crew/bookings/${id}`],
      ['GET', `/crew/bookings/${id}/status`],
      ['PATCH', `/crew/bookings/${id}`, { manual_override: false }],
      ['DELETE', `/crew/bookings/${id}`],
      ['POST', `/crew/bookings/${id}/retry`],
    ] as const) {
      const res = await api(stranger.t, path, { method, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await api(stranger.t, `/crew/bookings?schedule_id=${item.schedule_id}`)).body.bookings).toEqual([]);
    expect((await api(owner.t, `/crew/bookings/${id}`)).body.status).toBe('CONFIRMED');
  });
});

/** Deadhead bookings, the airline's requests (injection, commit, idempotency), and the booking lists. */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from '@crew/db';
import { allActionItems, http, onePairingRoster, type Tenant } from '@crew/test-support';
import { stack, useBookingsStack, api, fault, airline, roster, settled, hotelItem, flightItem } from './bookings-stack';

useBookingsStack('booking-requests');

describe('deadheads', () => {
  it('committing an option for a BOOK_MANUALLY deadhead resolves its item by the caller: action_taken, no stale recommendation, counted as resolved by a person', async () => {
    const { t, email } = await airline({ contract: false });
    const r = await roster(t, onePairingRoster({ email }));
    const item = flightItem(r.items);
    expect(item).toMatchObject({ disposition: 'PENDING_REVIEW', recommended_action: 'BOOK_MANUALLY' });
    const hook = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['action_item.resolved'] },
    });
    expect(hook.status).toBe(201);
    const option = (await http(`${stack.apiUrl}${item.flight_options_url}`, { token: t.accessToken })).body.options[0];
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
    expect((await settled(t, item.booking_id)).status).toBe('CONFIRMED');
    const items = (await api(t, `/crew/schedules/${r.id}/action-items?type=FLIGHT`)).body.action_items;
    expect(items).toEqual([
      expect.objectContaining({
        action_id: item.action_id,
        disposition: 'AUTO_BOOKED',
        review_status: 'RESOLVED',
        recommended_action: null,
        flight_options_url: null,
        action_taken: 'BOOK_FLIGHT_OPTION',
        action_taken_by: t.email,
        action_taken_at: expect.any(String),
        due_by: null,
      }),
    ]);
    const summary = (await api(t, `/crew/schedules/${r.id}`)).body.summary;
    expect(summary).toMatchObject({ action_items_resolved_by_person: 1 });
    expect(summary.action_items_auto_booked).toBeGreaterThanOrEqual(1);
    const events = await stack.database.db
      .selectFrom('webhook_events')
      .select(['type', 'data'])
      .where('airline_id', '=', t.airlineId)
      .where('type', '=', 'action_item.resolved')
      .execute();
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({
        action_id: item.action_id,
        action_taken: 'BOOK_FLIGHT_OPTION',
        review_status: 'RESOLVED',
      }),
    ]);
  });

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

  it('a hotel whose num_nights disagrees with its check_out_date → 422 naming num_nights (as a PATCH), nothing stored', async () => {
    const { t, email } = await airline();
    const before = await api(t, '/crew/bookings?limit=200');
    for (const path of ['/crew/bookings/request', '/crew/action-items']) {
      const res = await api(t, path, {
        method: 'POST',
        body: hotelRequest(email, {
          hotel: { city: 'JFK', check_in_date: '2027-04-02', check_out_date: '2027-04-04', num_nights: 1 },
        }),
      });
      expect([path, res.status, res.body.error.code]).toEqual([path, 422, 'VALIDATION_FAILED']);
      expect(res.body.error.details).toEqual([
        { field: '/hotel/num_nights', issue: 'disagrees with the dates: 2027-04-02 to 2027-04-04 is not 1 night(s)' },
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

  /** The key's row as a request left it when its process died before answering: claimed `ageMs` ago, no answer. */
  const keyRow = (t: Tenant, endpoint: string, key: string) =>
    stack.database.db
      .updateTable('idempotency_keys')
      .where('airline_id', '=', t.airlineId)
      .where('endpoint', '=', endpoint)
      .where('key', '=', key);
  const leftClaim = (t: Tenant, endpoint: string, key: string, body: unknown, ageMs: number) =>
    stack.database.db
      .insertInto('idempotency_keys')
      .values({
        airline_id: t.airlineId,
        endpoint,
        key,
        request_hash: createHash('sha256').update(JSON.stringify(body)).digest('hex'),
        response_status: null,
        response_body: null,
        claimed_at: sql<Date>`now() - ${ageMs} * interval '1 millisecond'`,
      })
      .execute();
  const pairing = (email: string, pairing_number: string) =>
    hotelRequest(email, { anchors: { traveller_email: email, employee_id: 'E1', pairing_number } });

  it('Idempotency-Key: a claim its process died with is taken over once its lease is over: the retries get the answer (not 409), the work is done once', async () => {
    const { t, email } = await airline();
    const body = pairing(email, 'DIED');
    await leftClaim(t, 'POST /crew/action-items', 'died', body, 5 * 60_000);
    const retries = await Promise.all(
      [1, 2, 3].map(() =>
        api(t, '/crew/action-items', { method: 'POST', body, headers: { 'idempotency-key': 'died' } }),
      ),
    );
    expect(retries.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set(retries.map((r) => r.body.action_id)).size).toBe(1);
    // One retry took the claim over and did the work; the others waited for its answer.
    expect(retries.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect((await api(t, '/crew/bookings?pairing_number=DIED')).body.bookings).toHaveLength(1);
  });

  it('Idempotency-Key: a claim within its lease is waited for, not taken over', async () => {
    const { t, email } = await airline();
    const body = pairing(email, 'LIVE');
    await leftClaim(t, 'POST /crew/bookings/request', 'live', body, 0);
    const retry = api(t, '/crew/bookings/request', { method: 'POST', body, headers: { 'idempotency-key': 'live' } });
    await sleep(1000);
    // The first request answers meanwhile.
    await keyRow(t, 'POST /crew/bookings/request', 'live')
      .set({ response_status: 202, response_body: JSON.stringify({ booking_id: 'the first answer' }) })
      .execute();
    const res = await retry;
    expect([res.status, res.body, res.headers.get('idempotent-replayed')]).toEqual([
      202,
      { booking_id: 'the first answer' },
      'true',
    ]);
    expect((await api(t, '/crew/bookings?pairing_number=LIVE')).body.bookings).toEqual([]);
  });

  it('Idempotency-Key: a claim its process died with after the booking committed: the redo finds the booking (409 naming it), no second one', async () => {
    const { t, email } = await airline();
    const body = pairing(email, 'LATE');
    const headers = { 'idempotency-key': 'late' };
    const first = await api(t, '/crew/bookings/request', { method: 'POST', body, headers });
    expect(first.status).toBe(202);
    await keyRow(t, 'POST /crew/bookings/request', 'late')
      .set({ response_status: null, response_body: null, claimed_at: sql<Date>`now() - interval '5 minutes'` })
      .execute();
    const redo = await api(t, '/crew/bookings/request', { method: 'POST', body, headers });
    expect([redo.status, redo.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(redo.body.error.message).toContain(first.body.booking_id);
    expect((await api(t, '/crew/bookings?pairing_number=LATE')).body.bookings).toHaveLength(1);
  });

  /** An error after the transaction committed, once: the relay's kick is the API's last step past the commit. */
  const failAfterCommit = () =>
    jest.spyOn(stack.relay, 'kick').mockImplementationOnce(() => {
      throw new Error('after the commit');
    });

  it('Idempotency-Key: an error after the booking request committed → the retry replays its 202 (same booking), nothing is redone', async () => {
    const { t, email } = await airline();
    const body = pairing(email, 'AFTER');
    const headers = { 'idempotency-key': 'after-commit' };
    failAfterCommit();
    const first = await api(t, '/crew/bookings/request', { method: 'POST', body, headers });
    expect(first.status).toBe(500);
    const bookings = (await api(t, '/crew/bookings?pairing_number=AFTER')).body.bookings;
    expect(bookings).toHaveLength(1);
    const retry = await api(t, '/crew/bookings/request', { method: 'POST', body, headers });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(retry.body).toMatchObject({ booking_id: bookings[0].booking_id, status: 'PENDING' });
    expect((await api(t, '/crew/bookings?pairing_number=AFTER')).body.bookings).toHaveLength(1);
  });

  it('Idempotency-Key: an error after an injection committed → the retry replays its 202 (same action_id), no second action item', async () => {
    const { t, email } = await airline();
    const body = pairing(email, 'INJ-AFTER');
    const headers = { 'idempotency-key': 'inj-after-commit' };
    failAfterCommit();
    const first = await api(t, '/crew/action-items', { method: 'POST', body, headers });
    expect(first.status).toBe(500);
    const items = () =>
      stack.database.db
        .selectFrom('action_items')
        .select(['action_id', 'booking_id'])
        .where('airline_id', '=', t.airlineId)
        .execute();
    const [item, ...more] = await items();
    expect(more).toEqual([]);
    const retry = await api(t, '/crew/action-items', { method: 'POST', body, headers });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(retry.body).toMatchObject({ action_id: item!.action_id, booking_id: item!.booking_id });
    expect(await items()).toEqual([item]);
  });

  it('Idempotency-Key: an error after an injected cancellation committed → the retry replays its 202 (same action_id), no second cancellation', async () => {
    const { t, email } = await airline();
    const booked = await api(t, '/crew/bookings/request', { method: 'POST', body: pairing(email, 'CXL-AFTER') });
    expect((await settled(t, booked.body.booking_id)).status).toBe('CONFIRMED');
    const body = { ...pairing(email, 'CXL-AFTER'), classification: 'LAYOVER_CANCELLED' };
    const headers = { 'idempotency-key': 'cxl-after-commit' };
    failAfterCommit();
    const first = await api(t, '/crew/action-items', { method: 'POST', body, headers });
    expect(first.status).toBe(500);
    const cancellations = () =>
      stack.database.db
        .selectFrom('action_items')
        .select(['action_id', 'booking_id'])
        .where('airline_id', '=', t.airlineId)
        .where('classification', '=', 'LAYOVER_CANCELLED')
        .execute();
    const [item, ...more] = await cancellations();
    expect(more).toEqual([]);
    const retry = await api(t, '/crew/action-items', { method: 'POST', body, headers });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(retry.body).toMatchObject({ action_id: item!.action_id, booking_id: booked.body.booking_id });
    expect(await cancellations()).toEqual([item]);
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

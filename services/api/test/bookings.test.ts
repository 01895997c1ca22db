/**
 * Bookings from the roster and their changes (hotel layovers; PATCH, DELETE). Deadheads, the airline's requests and
 * the lists are in booking-requests.test.ts.
 */
import { sql } from '@crew/db';
import { allActionItems, http, onePairingRoster, waitFor } from '@crew/test-support';
import {
  stack,
  useBookingsStack,
  api,
  fault,
  reservations,
  airline,
  roster,
  settled,
  hotelItem,
} from './bookings-stack';

useBookingsStack('bookings');

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

  /**
   * Requests on one booking at the same moment: the test holds the booking's row lock until each of them waits for
   * it (or for its own change to it), then lets go; they are then decided one after the other.
   */
  async function atOnce<T>(bookingId: string, requests: (() => Promise<T>)[]): Promise<T[]> {
    const db = stack.database.db;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let lockHeld!: () => void;
    const held = new Promise<void>((r) => (lockHeld = r));
    const holder = db.transaction().execute(async (trx) => {
      await trx.selectFrom('bookings').select('booking_id').where('booking_id', '=', bookingId).forUpdate().execute();
      lockHeld();
      await released;
    });
    try {
      await held;
      const answers = Promise.all(requests.map((r) => r()));
      await waitFor(
        async () =>
          (
            await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
              where wait_event_type = 'Lock' and datname = current_database()`.execute(db)
          ).rows[0]!.n >= requests.length,
        10_000,
        'every request waiting for the booking',
      );
      release();
      await holder;
      return await answers;
    } finally {
      release();
      await holder.catch(() => undefined);
    }
  }

  it('two property swaps of one booking at once → one 202 and one 409, one new booking; a PATCH and a DELETE at once → one 202 and one 409', async () => {
    const { t, email, bookingId } = await confirmedHotel();
    const swap = (property: string) => () =>
      api(t, `/crew/bookings/${bookingId}`, { method: 'PATCH', body: { hotel: { property_id: property } } });
    const answers = await atOnce(bookingId, [swap('GDS-JFK-002'), swap('GDS-JFK-003')]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const won = answers.find((a) => a.status === 202)!;
    expect(won.body).toMatchObject({ replaces_booking_id: bookingId });
    // One replacement: the original and the one new booking, no second room.
    const rows = await stack.database.db
      .selectFrom('bookings')
      .select(['booking_id'])
      .where('traveller_email', '=', email)
      .where('type', '=', 'HOTEL')
      .execute();
    expect(rows.map((r) => r.booking_id).sort()).toEqual([bookingId, won.body.booking_id].sort());

    const other = await confirmedHotel();
    const both = await atOnce(other.bookingId, [
      () =>
        api(other.t, `/crew/bookings/${other.bookingId}`, {
          method: 'PATCH',
          body: { hotel: { property_id: 'GDS-JFK-002' } },
        }),
      () => api(other.t, `/crew/bookings/${other.bookingId}`, { method: 'DELETE' }),
    ]);
    expect(both.map((a) => a.status).sort()).toEqual([202, 409]);
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

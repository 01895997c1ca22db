/**
 * Rooming-list stays that land NEEDS_REVIEW: a row the hotel rejects, a list not answered by its deadline, a
 * DIRECT hotel without a reservations e-mail (the stack: rooming-lists-stack.ts).
 */
import { createLogger } from '@crew/platform';
import { RoomingChannel } from '@crew/worker';
import { onePairingRoster, STANDARD_TERMS } from '@crew/test-support';
import {
  answer,
  api,
  booking,
  hotelId,
  inbox,
  openPage,
  roomingPass,
  stack,
  submit,
  useRoomingStack,
  waitForBooking,
} from './rooming-lists-stack';

jest.setTimeout(120_000);

useRoomingStack('rooming_outcomes');

describe('a DIRECT hotel is booked through its rooming list', () => {
  test('a rejected row lands NEEDS_REVIEW with the hotel’s reason', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P200', employee: 'E2', email: 'grace@crew.test', day1: '2027-04-02' }),
    );
    const mail = await inbox.waitFor(before + 1);
    const page = await openPage(mail.link);
    await page.check('input[type="checkbox"]');
    await page.fill('input[placeholder="reason"]', 'Sold out that night');
    await answer(page);
    await page.close();
    const b = await booking(bookings[0].booking_id);
    expect(b.status).toBe('NEEDS_REVIEW');
    expect(b.review_reason).toBe('the hotel rejected the rooming list row: Sold out that night');
    const items = (await api(`/crew/schedules/${b.schedule_id}/action-items?type=HOTEL`)).body.action_items;
    expect(items[0]).toMatchObject({ disposition: 'PENDING_REVIEW' });
  });

  test('no answer by the deadline: the list EXPIRES and its stays land NEEDS_REVIEW; the page takes no late answer', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P400', employee: 'E4', email: 'kat@crew.test', day1: '2027-06-06' }),
    );
    const id = bookings[0].booking_id;
    const mail = await inbox.waitFor(before + 1);
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');
    // The worker's periodic pass two days later (the deadline is ROOMING_ANSWER_HOURS = 24 h after sending).
    const later = new RoomingChannel({
      db: stack.database.db,
      logger: createLogger('worker', 'silent'),
      mailer: { send: async () => Promise.reject(new Error('no list is due')), close: () => undefined },
      config: { ...stack.config, publicApiUrl: stack.apiUrl },
      now: () => new Date(Date.now() + 48 * 3_600_000),
    });
    await later.tick();
    const b = await booking(id);
    expect(b.status).toBe('NEEDS_REVIEW');
    expect(b.review_reason).toMatch(/the hotel did not answer the rooming list by \d{4}-/);
    expect(b.hotel.rooming_status).toBe('EXPIRED');
    const list = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
      (l: any) => l.night === '2027-06-06',
    );
    expect(list).toMatchObject({ status: 'EXPIRED', rows: [{ state: 'EXPIRED' }] });
    const page = await openPage(mail.link);
    expect(await page.textContent('body')).toContain('not answered in time');
    expect(await page.locator('form').count()).toBe(0);
    await page.close();
  });

  test('a DIRECT hotel without reservations_email is not booked automatically: NEEDS_REVIEW saying so, no e-mail', async () => {
    const hotel = { property_id: 'CREWINN-JFK', chain: 'Crew Inns', name: 'Crew Inn JFK', ...STANDARD_TERMS };
    expect(
      (await api('/crew/config/hotels', { method: 'PUT', body: { bases: [{ base_station: 'JFK', hotels: [hotel] }] } }))
        .status,
    ).toBe(200);
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P500', employee: 'E5', email: 'lin@crew.test', day1: '2027-07-07' }),
    );
    expect(bookings[0]).toMatchObject({ status: 'NEEDS_REVIEW' });
    expect(bookings[0].review_reason).toContain('reservations_email');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before);
    // An e-mail that is not one is refused.
    expect(
      (
        await api('/crew/config/hotels', {
          method: 'PUT',
          body: { bases: [{ base_station: 'JFK', hotels: [{ ...hotel, reservations_email: 'not-an-email' }] }] },
        })
      ).status,
    ).toBe(422);
  });
});

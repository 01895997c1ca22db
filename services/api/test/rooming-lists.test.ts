/**
 * DIRECT hotels are booked through their rooming list (the stack: rooming-lists-stack.ts): the e-mail with its
 * CSV row, the hotel's answers on the confirmation page (confirm, amend, cancel), and the link as a credential.
 * What lands in review is in rooming-list-outcomes.test.ts, when lists are sent in rooming-list-sending.test.ts.
 */
import { roomingLinkKey, signRoomingLink } from '@crew/rooming';
import { http, onePairingRoster } from '@crew/test-support';
import {
  answer,
  api,
  booking,
  context,
  csvRows,
  hotelId,
  inbox,
  openPage,
  stack,
  submit,
  useRoomingStack,
  waitForBooking,
} from './rooming-lists-stack';

jest.setTimeout(120_000);

useRoomingStack('rooming_lists');

describe('a DIRECT hotel is booked through its rooming list', () => {
  let bookingId: string;
  let rowRef: string;

  test('a layover at a DIRECT hotel → one e-mail with the CSV row; the booking waits for the hotel (PENDING), the schedule does not', async () => {
    const { status, bookings } = await submit(onePairingRoster());
    // Polling stops without waiting for the hotel (COMPLETED, or BOOKING for the instant before the completion check).
    expect(status.poll_recommended).toBe(false);
    expect(status.summary.action_items_auto_booked).toBe(1);
    expect(bookings).toHaveLength(1);
    bookingId = bookings[0].booking_id;
    const mail = await inbox.waitFor(1);
    expect(inbox.mails).toHaveLength(1);
    expect(mail.to).toBe('reservations@crewinn.test');
    expect(mail.subject).toContain('Rooming list 2027-03-10 v1');
    const rows = csvRows(mail.csv);
    expect(rows[0]).toEqual([
      'row_ref',
      'change',
      'crew_name',
      'rank',
      'check_in_local',
      'check_out_local',
      'pairing_number',
      'booking_reference',
    ]);
    expect(rows).toHaveLength(2);
    rowRef = rows[1]![0]!;
    expect(rows[1]).toEqual([
      rowRef,
      'NEW',
      'Ada Lovelace',
      'CA',
      '2027-03-10T15:00:00-05:00',
      '2027-03-11T09:00:00-05:00',
      'P100',
      bookingId,
    ]);
    expect(mail.text).toContain(`[NEW] ${rowRef}`);
    const b = await waitForBooking(bookingId, (x) => x.hotel.rooming_status === 'SENT');
    expect(b).toMatchObject({
      status: 'PENDING',
      hotel: { handler_type: 'DIRECT', rooming_ref: rowRef, rooming_marking: 'NEW', rooming_list_version: 1 },
    });
    expect(b.hotel.supplier_ref).toBeUndefined();
    // Nothing went to the GDS supplier.
    expect((await http(`${stack.sandboxUrl}/_control/reservations`)).body.reservations).toEqual([]);
  });

  test('a confirmation number of control characters alone is no number: the page asks again, nothing stored', async () => {
    const link = inbox.mails[0]!.link;
    const page = await (await fetch(link)).text();
    const formToken = /name="form_token" value="([^"]+)"/.exec(page)![1]!;
    const res = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(link).origin },
      body: `form_token=${encodeURIComponent(formToken)}&list_number=%00%01`,
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Please give a confirmation number');
    expect((await booking(bookingId)).status).toBe('PENDING');
  });

  test('the hotel confirms in the browser → CONFIRMED with the hotel’s number; the list is kept as opened and answered', async () => {
    const page = await openPage(inbox.mails[0]!.link);
    expect(await page.locator(`tr[data-row-ref="${rowRef}"] td.mark`).textContent()).toBe('NEW');
    if (process.env.ROOMING_SCREENSHOT) await page.screenshot({ path: process.env.ROOMING_SCREENSHOT, fullPage: true });
    await page.fill('input[name="list_number"]', 'CI-4711');
    await answer(page);
    expect(await page.textContent('body')).toContain('This list was answered');
    await page.close();
    const b = await booking(bookingId);
    expect(b).toMatchObject({
      status: 'CONFIRMED',
      hotel: { confirmation_number: 'CI-4711', rooming_status: 'CONFIRMED' },
    });
    const lists = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists;
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({
      night: '2027-03-10',
      version: 1,
      status: 'ANSWERED',
      recipient: 'reservations@crewinn.test',
      sends: 1,
    });
    expect(lists[0].opened_at).not.toBeNull();
    expect(lists[0].rows[0]).toMatchObject({
      row_ref: rowRef,
      marking: 'NEW',
      state: 'CONFIRMED',
      hotel_confirmation_number: 'CI-4711',
    });
  });

  test('a later roster moving the stay sends an AMENDED row with the same reference; the hotel’s confirmation makes it MODIFIED', async () => {
    const roster = onePairingRoster();
    roster.pairings[0]!.duty_periods[0]!.layover!.checkout_time_local = '2027-03-11T10:30:00-05:00';
    await submit(roster);
    const mail = await inbox.waitFor(2);
    const rows = csvRows(mail.csv);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.slice(0, 2)).toEqual([rowRef, 'AMENDED']);
    expect(rows[1]![5]).toBe('2027-03-11T10:30:00-05:00');
    expect(mail.subject).toContain('v2');
    const page = await openPage(mail.link);
    await page.fill(`tr[data-row-ref="${rowRef}"] input[type="text"] >> nth=0`, 'CI-4711-A');
    await answer(page);
    await page.close();
    expect(await booking(bookingId)).toMatchObject({
      status: 'MODIFIED',
      hotel: { confirmation_number: 'CI-4711-A', rooming_marking: 'AMENDED', rooming_list_version: 2 },
    });
  });

  test('a DELETE sends a CANCELLED row, confirmed the same way → CANCELLED, with the late fee it avoided', async () => {
    // The contract's terms: by 18:00 hotel time on the day of arrival, else 100 USD. Months before the stay,
    // the cancellation is in time: the hotel's confirmation records the fee it avoided, as a supplier's would.
    const contracts = (await api(`/crew/config/hotels/${hotelId}/contracts`)).body.contracts as {
      contract_id: number;
    }[];
    const terms = await api(`/crew/config/hotels/${hotelId}/contracts/${contracts[0]!.contract_id}`, {
      method: 'PATCH',
      body: {
        cancellation_deadline: { days_before: 0, local_time: '18:00' },
        late_cancellation_fee: { type: 'AMOUNT', amount: { amount: 100, currency: 'USD' } },
        hotel_time_zone: 'America/New_York',
      },
    });
    expect(terms.status).toBe(200);
    const del = await api(`/crew/bookings/${bookingId}?reason=crew%20change`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    const mail = await inbox.waitFor(3);
    expect(csvRows(mail.csv)[1]!.slice(0, 2)).toEqual([rowRef, 'CANCELLED']);
    expect(await booking(bookingId)).toMatchObject({ status: 'PENDING', hotel: { rooming_marking: 'CANCELLED' } });
    const page = await openPage(mail.link);
    await page.fill('input[name="list_number"]', 'CX-99');
    await answer(page);
    await page.close();
    expect(await booking(bookingId)).toMatchObject({
      status: 'CANCELLED',
      hotel: {
        confirmation_number: 'CX-99',
        rooming_status: 'CONFIRMED',
        cancellation_penalty_avoided: { amount: 100, currency: 'USD' },
      },
    });
    expect((await booking(bookingId)).hotel.cancellation_penalty).toBeUndefined();
    // Three versions of that night's list, all kept.
    const lists = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists;
    expect(lists.map((l: any) => [l.version, l.status, l.rows[0].marking])).toEqual([
      [3, 'ANSWERED', 'CANCELLED'],
      [2, 'ANSWERED', 'AMENDED'],
      [1, 'ANSWERED', 'NEW'],
    ]);
  });

  test('a tampered or expired link is refused, and so is a form not posted from the page', async () => {
    const link = inbox.mails[0]!.link;
    const token = link.split('/').pop()!;
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await http(`${stack.apiUrl}/hotel/rooming-lists/${tampered}`)).status).toBe(404);
    const [body] = token.split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
    const key = roomingLinkKey(stack.opsToken);
    const expired = signRoomingLink(key, {
      list_id: claims.l,
      hotel_config_id: claims.h,
      version: claims.v,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    const page = await context.newPage();
    expect((await page.goto(`${stack.apiUrl}/hotel/rooming-lists/${expired}`))?.status()).toBe(410);
    expect(await page.textContent('h1')).toBe('This link has expired');
    await page.close();
    // A genuine signature on another version of the list is not this list's link.
    const otherVersion = signRoomingLink(key, {
      list_id: claims.l,
      hotel_config_id: claims.h,
      version: claims.v + 1,
      exp: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await http(`${stack.apiUrl}/hotel/rooming-lists/${otherVersion}`)).status).toBe(404);
    // The form without the page's anti-forgery field.
    const forged = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'list_number=X',
    });
    expect(forged.status).toBe(403);
    // An Origin that is no URL at all is another site's: refused, not a 500.
    const unreadable = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://[' },
      body: 'list_number=X',
    });
    expect(unreadable.status).toBe(403);
    // The link is a credential: the api's request log keeps its claims part, never its signature, whatever the
    // case of the path (Express routes /HOTEL/… to the page too).
    await http(`${stack.apiUrl}/HOTEL/Rooming-Lists/${token}`);
    const signature = token.split('.')[1]!;
    expect(stack.logLines.some((l) => l.includes(`/hotel/rooming-lists/${body}.[REDACTED]`))).toBe(true);
    expect(stack.logLines.some((l) => l.includes(`/HOTEL/Rooming-Lists/${body}.[REDACTED]`))).toBe(true);
    expect(stack.logLines.filter((l) => l.includes(signature))).toEqual([]);
  });
});

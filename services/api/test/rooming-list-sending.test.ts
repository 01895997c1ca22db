/**
 * When rooming lists are sent: the mail server down and back (nothing lost, the operator can resend), and
 * batching by ROOMING_LEAD_HOURS with an urgent request sending the night's list at once (the stack:
 * rooming-lists-stack.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { startWorkerRuntime } from '@crew/worker';
import { onePairingRoster, STANDARD_TERMS, waitFor } from '@crew/test-support';
import {
  api,
  booking,
  csvRows,
  hotelId,
  inbox,
  roomingPass,
  setWorker,
  stack,
  submit,
  useRoomingStack,
  waitForBooking,
  worker,
} from './rooming-lists-stack';

jest.setTimeout(120_000);

useRoomingStack('rooming_sending');

describe('a DIRECT hotel is booked through its rooming list', () => {
  test('the SMTP server down: the list waits and is sent when it is back, nothing lost; the operator can resend', async () => {
    const port = inbox.port;
    await inbox.stop();
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P300', employee: 'E3', email: 'alan@crew.test', day1: '2027-05-05' }),
    );
    const id = bookings[0].booking_id;
    // The task is done (the schedule completed), the list waits with the mail server's error.
    const waiting = await waitFor(
      async () => {
        const list = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
          (l: any) => l.night === '2027-05-05',
        );
        return list?.send_attempts >= 2 && list;
      },
      10_000,
      'two attempts to send the list',
    );
    expect(waiting).toMatchObject({ status: 'QUEUED', sends: 0 });
    expect(waiting.last_error).toBeTruthy();
    expect(await booking(id)).toMatchObject({ status: 'PENDING', hotel: { rooming_status: 'QUEUED' } });
    await inbox.start(port);
    const mail = await inbox.waitFor(before + 1);
    expect(mail.subject).toContain('2027-05-05 v1');
    const rowRef = csvRows(mail.csv)[1]![0];
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');
    const sent = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
      (l: any) => l.night === '2027-05-05',
    );
    expect(sent).toMatchObject({ status: 'SENT', sends: 1, last_error: null });

    // Resend, with the operator CLI: the same version, the same row reference (no second room at the hotel).
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/ops.ts', 'resend-rooming-list', sent.list_id],
      {
        cwd: join(__dirname, '..', '..', '..'),
        env: { ...process.env, API_URL: stack.apiUrl, OPS_TOKEN: stack.opsToken },
      },
    );
    expect(JSON.parse(cli.stdout)).toMatchObject({ list_id: sent.list_id, version: 1 });
    const again = await inbox.waitFor(before + 2);
    expect(again.subject).toContain('2027-05-05 v1 (resent)');
    expect(
      csvRows(again.csv)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([rowRef]);
    // The worker records a send once the mail server has taken it; then a pass sends nothing more.
    const listOf0505 = async () =>
      (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
        (l: any) => l.night === '2027-05-05',
      );
    await waitFor(async () => (await listOf0505()).sends >= 2, 10_000, 'the resend to be recorded');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before + 2);
    const after = await listOf0505();
    expect(after).toMatchObject({ status: 'SENT', sends: 2, version: 1 });
    expect(after.rows).toHaveLength(1);
  });

  test('batching: a P4 stay waits for the list sent ROOMING_LEAD_HOURS before the night; a P2 request for that night sends it at once, both rows in one e-mail', async () => {
    const hotel = {
      property_id: 'CREWINN-JFK',
      chain: 'Crew Inns',
      name: 'Crew Inn JFK',
      reservations_email: 'reservations@crewinn.test',
      ...STANDARD_TERMS,
    };
    expect(
      (await api('/crew/config/hotels', { method: 'PUT', body: { bases: [{ base_station: 'JFK', hotels: [hotel] }] } }))
        .status,
    ).toBe(200);
    await worker.close();
    setWorker(
      startWorkerRuntime({
        config: { ...stack.config, publicApiUrl: stack.apiUrl, roomingLeadHours: 72 },
        db: stack.database.db,
        logger: createLogger('worker', process.env.TEST_LOG ? 'info' : 'silent'),
        suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
      }),
    );
    const before = inbox.mails.length;
    const { status, bookings } = await submit(
      onePairingRoster({ pairing: 'P600', employee: 'E6', email: 'max@crew.test', day1: '2027-08-08' }),
    );
    expect(status.poll_recommended).toBe(false);
    const night = async () =>
      (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
        (l: any) => l.night === '2027-08-08',
      );
    // Check-in 2027-08-08T15:00-05:00 = 20:00Z; the list is due 72 h before.
    expect(await night()).toMatchObject({
      status: 'QUEUED',
      version: 1,
      due_at: '2027-08-05T20:00:00.000Z',
      sends: 0,
      send_attempts: 0,
    });
    expect(await booking(bookings[0].booking_id)).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_status: 'QUEUED' },
    });
    await roomingPass();
    expect(inbox.mails).toHaveLength(before);

    const req = await api('/crew/bookings/request', {
      method: 'POST',
      body: {
        type: 'HOTEL',
        classification: 'NEW_LAYOVER',
        anchors: { traveller_email: 'ada@crew.test', employee_id: 'E1', pairing_number: 'IROP8' },
        hotel: { city: 'JFK', check_in_date: '2027-08-08', num_nights: 1 },
      },
    });
    expect(req.status).toBe(202);
    const mail = await inbox.waitFor(before + 1);
    const rows = csvRows(mail.csv).slice(1);
    expect(rows.map((r) => [r[1], r[7]]).sort()).toEqual(
      [
        ['NEW', bookings[0].booking_id],
        ['NEW', req.body.booking_id],
      ].sort(),
    );
    await waitForBooking(req.body.booking_id, (b) => b.hotel?.rooming_status === 'SENT');
    expect(await night()).toMatchObject({ status: 'SENT', version: 1, sends: 1 });
    expect(await booking(bookings[0].booking_id)).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_status: 'SENT', rooming_list_version: 1 },
    });
  });

  test('a roster cancellation of a P4 stay leaves by the hotel’s cancellation deadline, not with a batch after it', async () => {
    // The contract's terms: by 18:00 hotel time 7 days before arrival, else one night.
    const contracts = (await api(`/crew/config/hotels/${hotelId}/contracts`)).body.contracts as {
      contract_id: number;
    }[];
    const terms = await api(`/crew/config/hotels/${hotelId}/contracts/${contracts[0]!.contract_id}`, {
      method: 'PATCH',
      body: {
        cancellation_deadline: { days_before: 7, local_time: '18:00' },
        late_cancellation_fee: { type: 'NIGHTS', nights: 1 },
        hotel_time_zone: 'America/New_York',
      },
    });
    expect(terms.status).toBe(200);
    const restart = async (roomingLeadHours: number) => {
      await worker.close();
      setWorker(
        startWorkerRuntime({
          config: { ...stack.config, publicApiUrl: stack.apiUrl, roomingLeadHours },
          db: stack.database.db,
          logger: createLogger('worker', process.env.TEST_LOG ? 'info' : 'silent'),
          suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
        }),
      );
    };
    // The stay is sent to the hotel at once, so the hotel holds it.
    await restart(0);
    const roster = () =>
      onePairingRoster({ pairing: 'P700', employee: 'E7', email: 'grace@crew.test', day1: '2027-09-15' });
    const before = inbox.mails.length;
    const { bookings } = await submit(roster());
    const id = bookings[0].booking_id;
    await inbox.waitFor(before + 1);
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');

    // Batched 72 hours before the night, the roster drops the layover: a P4 cancellation, in time.
    await restart(72);
    const dropped = roster();
    delete (dropped.pairings[0]!.duty_periods[0] as { layover?: unknown }).layover;
    await submit(dropped);
    const row = await waitForBooking(id, (b) => b.hotel.rooming_marking === 'CANCELLED');
    expect(row).toMatchObject({ status: 'PENDING', hotel: { rooming_status: 'QUEUED', rooming_list_version: 2 } });
    // Check-in 2027-09-15T15:00-05:00 = 20:00Z: the batch would leave 2027-09-12T20:00Z, four days after the
    // deadline (18:00 EDT on 2027-09-08 = 22:00Z). The cancellation's list leaves an hour before the deadline.
    const list = (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
      (l: any) => l.night === '2027-09-15' && l.version === 2,
    );
    expect(list).toMatchObject({ status: 'QUEUED', due_at: '2027-09-08T21:00:00.000Z' });
  });
});

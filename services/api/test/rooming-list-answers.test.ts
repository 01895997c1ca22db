/**
 * Which answers of a DIRECT hotel reach the booking: only the row of the booking's current task changes it, so a
 * change queued while the hotel answers an older list is still sent to the hotel (the stack: rooming-lists-stack.ts).
 */
import { createLogger } from '@crew/platform';
import { createSandboxSuppliers } from '@crew/suppliers';
import { RoomingChannel, startWorkerRuntime } from '@crew/worker';
import { http, onePairingRoster, waitFor } from '@crew/test-support';
import {
  answer,
  api,
  booking,
  csvRows,
  hotelId,
  inbox,
  openPage,
  roomingPass,
  setWorker,
  stack,
  submit,
  useRoomingStack,
  waitForBooking,
  worker,
} from './rooming-lists-stack';

jest.setTimeout(120_000);

useRoomingStack('rooming_answers');

/** Runs `during` with the hotel booking tasks held (their jobs wait in the queue; roster diffs still run). */
async function withBookingTasksHeld(during: () => Promise<void>): Promise<void> {
  const hotelTasks = worker.workers.find((w) => w.name === 'bookings')!;
  await hotelTasks.pause();
  try {
    await during();
  } finally {
    await hotelTasks.resume();
  }
}

/** The worker's periodic pass two days later: lists sent now are past their deadline (ROOMING_ANSWER_HOURS = 24 h). */
async function passTwoDaysLater(): Promise<void> {
  await new RoomingChannel({
    db: stack.database.db,
    logger: createLogger('worker', 'silent'),
    mailer: { send: async () => Promise.reject(new Error('no list is due')), close: () => undefined },
    config: { ...stack.config, publicApiUrl: stack.apiUrl },
    now: () => new Date(Date.now() + 48 * 3_600_000),
  }).tick();
}

const listOf = async (night: string, version: number) =>
  (await api(`/crew/config/hotels/${hotelId}/rooming-lists`)).body.rooming_lists.find(
    (l: any) => l.night === night && l.version === version,
  );

describe('a hotel answering an older rooming list while a change of the stay is queued', () => {
  test('a confirmation of v1 is kept on its row but does not settle the booking; the queued DELETE goes as a CANCELLED row on v2', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P810', employee: 'E81', email: 'mae@crew.test', day1: '2027-10-01' }),
    );
    const id = bookings[0].booking_id;
    const v1 = await inbox.waitFor(before + 1);
    const rowRef = csvRows(v1.csv)[1]![0];
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');

    await withBookingTasksHeld(async () => {
      // The airline cancels the stay: its task is queued (the booking PENDING on a new task).
      const del = await api(`/crew/bookings/${id}?reason=crew%20change`, { method: 'DELETE' });
      expect(del.status).toBe(202);
      expect(del.body.status).toBe('PENDING');
      // The hotel confirms the list it was sent before the cancellation.
      const page = await openPage(v1.link);
      await page.fill('input[name="list_number"]', 'CI-810');
      await answer(page);
      await page.close();
      // Its answer is kept on the row; the booking still waits for its cancellation.
      expect(await listOf('2027-10-01', 1)).toMatchObject({
        status: 'ANSWERED',
        rows: [{ row_ref: rowRef, state: 'CONFIRMED', hotel_confirmation_number: 'CI-810' }],
      });
      expect(await booking(id)).toMatchObject({ status: 'PENDING' });
    });

    // The cancellation reaches the hotel: a CANCELLED row (it holds the stay now), on version 2.
    const v2 = await inbox.waitFor(before + 2);
    expect(v2.subject).toContain('2027-10-01 v2');
    expect(csvRows(v2.csv)[1]!.slice(0, 2)).toEqual([rowRef, 'CANCELLED']);
    const waiting = await waitForBooking(id, (b) => b.hotel.rooming_list_version === 2);
    expect(waiting).toMatchObject({ status: 'PENDING', hotel: { rooming_marking: 'CANCELLED' } });
    const page = await openPage(v2.link);
    await page.fill('input[name="list_number"]', 'CX-810');
    await answer(page);
    await page.close();
    expect(await booking(id)).toMatchObject({
      status: 'CANCELLED',
      hotel: { confirmation_number: 'CX-810', rooming_status: 'CONFIRMED' },
    });
  });
});

describe('a stay whose list expired unanswered is cancelled', () => {
  test('a DELETE after the deadline sends a CANCELLED row on v2: the hotel was e-mailed the stay and may hold it', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P820', employee: 'E82', email: 'noor@crew.test', day1: '2027-10-05' }),
    );
    const id = bookings[0].booking_id;
    const v1 = await inbox.waitFor(before + 1);
    const rowRef = csvRows(v1.csv)[1]![0];
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');
    await passTwoDaysLater();
    expect(await booking(id)).toMatchObject({ status: 'NEEDS_REVIEW', hotel: { rooming_status: 'EXPIRED' } });

    const del = await api(`/crew/bookings/${id}?reason=crew%20change`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    expect(del.body).toMatchObject({ status: 'PENDING', hotel: { rooming_marking: 'CANCELLED' } });
    const v2 = await inbox.waitFor(before + 2);
    expect(v2.subject).toContain('2027-10-05 v2');
    expect(csvRows(v2.csv)[1]!.slice(0, 2)).toEqual([rowRef, 'CANCELLED']);
    expect(await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT')).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_marking: 'CANCELLED', rooming_list_version: 2 },
    });
    const page = await openPage(v2.link);
    await page.fill('input[name="list_number"]', 'CX-820');
    await answer(page);
    await page.close();
    expect(await booking(id)).toMatchObject({ status: 'CANCELLED', hotel: { confirmation_number: 'CX-820' } });
  });

  test('a DELETE queued when the list expires: the deadline does not settle the booking, and the cancellation is sent on v2', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P830', employee: 'E83', email: 'ines@crew.test', day1: '2027-10-09' }),
    );
    const id = bookings[0].booking_id;
    const v1 = await inbox.waitFor(before + 1);
    const rowRef = csvRows(v1.csv)[1]![0];
    await waitForBooking(id, (b) => b.hotel.rooming_status === 'SENT');

    await withBookingTasksHeld(async () => {
      expect((await api(`/crew/bookings/${id}`, { method: 'DELETE' })).status).toBe(202);
      await passTwoDaysLater();
      expect(await listOf('2027-10-09', 1)).toMatchObject({ status: 'EXPIRED', rows: [{ state: 'EXPIRED' }] });
      expect(await booking(id)).toMatchObject({ status: 'PENDING' });
    });

    const v2 = await inbox.waitFor(before + 2);
    expect(csvRows(v2.csv)[1]!.slice(0, 2)).toEqual([rowRef, 'CANCELLED']);
    expect(await waitForBooking(id, (b) => b.hotel.rooming_list_version === 2)).toMatchObject({
      status: 'PENDING',
      hotel: { rooming_marking: 'CANCELLED' },
    });
  });
});

describe("the operator's resend", () => {
  const resend = (listId: string) =>
    http(`${stack.apiUrl}/ops/v1/rooming-lists/${listId}/resend`, { method: 'POST', token: stack.opsToken });

  test('a list being e-mailed right now is left alone: one e-mail, not a second one sent beside it', async () => {
    const before = inbox.mails.length;
    let release!: () => void;
    inbox.gate = new Promise<void>((r) => (release = r));
    try {
      // The mail server takes its time with the list's first sending (the list SENDING, the worker's lease on it).
      const res = await api('/crew/schedules', {
        method: 'POST',
        body: onePairingRoster({ pairing: 'P840', employee: 'E84', email: 'ravi@crew.test', day1: '2027-10-13' }),
      });
      expect(res.status).toBe(202);
      await waitFor(() => inbox.held >= 1, 20_000, 'the list to reach the mail server');
      const list = await waitFor(() => listOf('2027-10-13', 1), 5_000, 'the list');
      const answered = await resend(list.list_id);
      expect(answered.status).toBe(202);
      expect(answered.body).toMatchObject({ list_id: list.list_id, version: 1 });
      // Several of the worker's passes (ROOMING_POLL_MS = 200): none sends the list beside the first sending.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(inbox.held).toBe(1);
    } finally {
      inbox.gate = null;
      release();
    }
    await inbox.waitFor(before + 1);
    await waitFor(async () => (await listOf('2027-10-13', 1))?.sends === 1, 10_000, 'the sending to be recorded');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before + 1);
    expect(await listOf('2027-10-13', 1)).toMatchObject({ status: 'SENT', sends: 1 });
  });

  test('an answered or expired list is not resent: 409, no e-mail asking the hotel to confirm what it can no longer answer', async () => {
    const answered = await listOf('2027-10-01', 1);
    const expired = await listOf('2027-10-05', 1);
    expect([answered.status, expired.status]).toEqual(['ANSWERED', 'EXPIRED']);
    const before = inbox.mails.length;
    for (const l of [answered, expired]) {
      const res = await resend(l.list_id);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ status: 409, error: { code: 'CONFLICT' } });
    }
    expect((await resend(answered.list_id)).body.error.message).toContain('answered');
    expect((await resend(expired.list_id)).body.error.message).toContain('deadline');
    await roomingPass();
    expect(inbox.mails).toHaveLength(before);
  });

  test('a resend asked for just before the hotel answers is dropped: the answered list is not e-mailed again', async () => {
    const before = inbox.mails.length;
    const { bookings } = await submit(
      onePairingRoster({ pairing: 'P850', employee: 'E85', email: 'zoe@crew.test', day1: '2027-10-17' }),
    );
    await waitForBooking(bookings[0].booking_id, (b) => b.hotel.rooming_status === 'SENT');
    const v1 = inbox.mails.slice(before).find((m) => m.subject.includes('2027-10-17 v1'))!;
    await worker.close();
    try {
      const list = await listOf('2027-10-17', 1);
      expect((await resend(list.list_id)).status).toBe(202);
      const page = await openPage(v1.link);
      await page.fill('input[name="list_number"]', 'CI-850');
      await answer(page);
      await page.close();
    } finally {
      setWorker(
        startWorkerRuntime({
          config: { ...stack.config, publicApiUrl: stack.apiUrl },
          db: stack.database.db,
          logger: createLogger('worker', process.env.TEST_LOG ? 'info' : 'silent'),
          suppliers: createSandboxSuppliers({ baseUrl: stack.sandboxUrl, responseTimeoutMs: 2000 }),
        }),
      );
    }
    // Several of the restarted worker's passes (ROOMING_POLL_MS = 200), then one more run to its end.
    await new Promise((r) => setTimeout(r, 1_500));
    await roomingPass();
    expect(inbox.mails.slice(before).filter((m) => m.subject.includes('2027-10-17'))).toHaveLength(1);
    expect(await listOf('2027-10-17', 1)).toMatchObject({ status: 'ANSWERED', sends: 1 });
  });
});

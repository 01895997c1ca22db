/**
 * An automatic retry is a delayed BullMQ job only; Redis here keeps nothing on disk, so a restart loses it. The
 * worker's sweep sends it again for a FAILED booking whose retry is overdue: the booking is retried once.
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
  waitFor,
  waitForSchedule,
} from '@crew/test-support';
import { resendOverdueRetries } from '@crew/worker';

jest.setTimeout(60_000);

let stack: Stack;
let clock = new Date('2027-03-01T00:00:00Z');
beforeAll(async () => {
  stack = await startStack('lost_retries', { worker: true, now: () => clock });
});
afterAll(() => stack.close());

const api = (t: Tenant, path: string) => http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken });
const sweep = () => resendOverdueRetries({ db: stack.database.db, relay: stack.relay, now: () => clock });

describe('an automatic retry whose job is lost', () => {
  it('is sent again once overdue: the booking is retried, and a second pass sends nothing', async () => {
    const t = await onboard(stack, {
      name: 'Retry Air',
      carrier: 'RY',
      scopes: 'events:read events:write schedules:read schedules:write',
      settings: { schedules_access: true },
    });
    await bookingAccount(stack, t, 'ada@crew.test');
    await contractStations(stack, t, ['JFK']);
    const armed = await http(`${stack.sandboxUrl}/_control/faults`, {
      method: 'POST',
      body: { operation: 'hotel.book', outcome: 'error' },
    });
    expect(armed.status).toBe(201);
    const posted = await http(`${stack.apiUrl}/api/v1/crew/schedules`, {
      method: 'POST',
      token: t.accessToken,
      body: onePairingRoster({ email: 'ada@crew.test' }),
    });
    await waitForSchedule(stack, t.accessToken, posted.body.schedule_id);
    const item = (await allActionItems(stack, t.accessToken, posted.body.schedule_id)).find((i) => i.type === 'HOTEL')!;
    const failed = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
    expect(failed).toMatchObject({ status: 'FAILED', retry_count: 0 });
    const [queued] = (await api(t, '/crew/bookings/retry-queue')).body.retry_queue;
    expect(queued.booking_id).toBe(item.booking_id);
    const due = Date.parse(queued.next_attempt_at);

    await waitFor(async () => (await stack.queues.bookings.getDelayedCount()) === 1, 5000, 'the delayed retry');
    const [original] = await stack.queues.bookings.getDelayed();

    // Within a minute of its time nothing is sent. Past it, the retry is sent again under the same job id: while the
    // first job is still queued (late behind a backlog), BullMQ drops the second.
    clock = new Date(due + 30_000);
    expect(await sweep()).toBe(0);
    clock = new Date(due + 90_000);
    expect(await sweep()).toBe(1);
    await stack.relay.drain();
    expect((await stack.queues.bookings.getDelayed()).map((j) => j.id)).toEqual([original!.id]);
    expect((await api(t, `/crew/bookings/${item.booking_id}`)).body.status).toBe('FAILED');

    // The delayed retry job is lost, as a Redis restart would lose it (this test's own queue prefix): sent again,
    // the booking is retried.
    await stack.queues.bookings.drain(true);
    expect(await stack.queues.bookings.getDelayedCount()).toBe(0);
    expect(await sweep()).toBe(1);
    const retried = await waitFor(
      async () => {
        const b = (await api(t, `/crew/bookings/${item.booking_id}`)).body;
        return b.status === 'CONFIRMED' && b;
      },
      15_000,
      'the retried booking',
    );
    expect(retried.retry_count).toBe(1);
    expect((await api(t, '/crew/bookings/retry-queue')).body.retry_queue).toEqual([]);
    expect(await sweep()).toBe(0);
  });
});

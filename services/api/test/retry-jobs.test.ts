/**
 * POST /crew/bookings/retry-jobs, set-based: every FAILED booking matching the filters joins the job; those
 * with retries left go back to PENDING (one more retry, a `retry N` event by the caller, a task queued), those
 * out of retries stay FAILED and count as failed.
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
  waitFor,
  waitForSchedule,
} from '@crew/test-support';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack('retry_jobs', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
});
afterAll(async () => {
  await http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' });
  await stack.close();
});

/**
 * An airline whose two hotel layovers (P100, P200) at JFK both end FAILED: the sandbox refuses `failures` hotel
 * bookings in a row. Returns the api, the schedule and the two bookings.
 */
async function twoFailedStays(name: string, carrier: string, domain: string, failures: number) {
  const t = await onboard(stack, {
    name,
    carrier,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true },
  });
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  await bookingAccount(stack, t, `one@${domain}`, true);
  await contractStations(stack, t, ['JFK']);
  await http(`${stack.sandboxUrl}/_control/faults`, {
    method: 'POST',
    body: { operation: 'hotel.book', outcome: 'error', count: failures },
  });
  const one = onePairingRoster({ pairing: 'P100', employee: 'E1', email: `one@${domain}` });
  const two = onePairingRoster({ pairing: 'P200', employee: 'E2', email: `two@${domain}` });
  const res = await api('/crew/schedules', {
    method: 'POST',
    body: { ...one, pairings: [...one.pairings, ...two.pairings] },
  });
  expect(res.status).toBe(202);
  const scheduleId = res.body.schedule_id as string;
  await waitForSchedule(stack, t.accessToken, scheduleId);
  const hotels = (await allActionItems(stack, t.accessToken, scheduleId)).filter(
    (i: { type: string }) => i.type === 'HOTEL',
  );
  const idOf = (pairing: string) => hotels.find((i) => i.anchors.pairing_number === pairing)!.booking_id as string;
  const [retriable, exhausted] = [idOf('P100'), idOf('P200')];
  for (const id of [retriable, exhausted]) expect((await api(`/crew/bookings/${id}`)).body.status).toBe('FAILED');
  return { t, api, scheduleId, retriable, exhausted };
}

it('retries the FAILED bookings with retries left; one out of retries stays FAILED and counts as failed', async () => {
  const { api, scheduleId, retriable, exhausted } = await twoFailedStays('Retry Air', 'RJ', 'retry.test', 2);
  // P200 has used the airline's 3 retries.
  await stack.database.db.updateTable('bookings').set({ retry_count: 3 }).where('booking_id', '=', exhausted).execute();

  const job = await api('/crew/bookings/retry-jobs', { method: 'POST', body: { schedule_id: scheduleId } });
  expect(job.status).toBe(202);
  expect(job.body).toMatchObject({ retry_job_id: expect.any(String), total: 2, failed: 1 });
  const stayed = (await api(`/crew/bookings/${exhausted}`)).body;
  expect(stayed).toMatchObject({ status: 'FAILED', retry_count: 3 });
  const rows = await stack.database.db
    .selectFrom('bookings')
    .select(['booking_id', 'retry_job_id'])
    .where('booking_id', 'in', [retriable, exhausted])
    .execute();
  expect(rows.map((r) => r.retry_job_id)).toEqual([job.body.retry_job_id, job.body.retry_job_id]);

  await waitFor(
    async () => (await api(`/crew/bookings/retry-jobs/${job.body.retry_job_id}`)).body.status !== 'RUNNING',
    10_000,
    'the retry job to finish',
  );
  expect((await api(`/crew/bookings/retry-jobs/${job.body.retry_job_id}`)).body).toMatchObject({
    status: 'COMPLETED',
    total: 2,
    succeeded: 1,
    failed: 1,
  });
  expect((await api(`/crew/bookings/${retriable}`)).body).toMatchObject({ status: 'CONFIRMED', retry_count: 1 });
  const history = (await api(`/crew/bookings/${retriable}/status`)).body.history as {
    status: string;
    reason: string;
    actor: string;
  }[];
  expect(history.map((h) => h.status)).toEqual(['PENDING', 'FAILED', 'PENDING', 'CONFIRMED']);
  expect(history[2]).toMatchObject({ status: 'PENDING', reason: 'retry 1', actor: expect.any(String) });
  expect(
    (await api(`/crew/bookings/${exhausted}/status`)).body.history.map((h: { status: string }) => h.status),
  ).toEqual(['PENDING', 'FAILED']);
});

it('a retry job whose FAILED bookings a later job takes over keeps its outcome for them, and settles', async () => {
  // Both first bookings fail, and so does the first job's retry.
  const { api, scheduleId, retriable, exhausted } = await twoFailedStays('Retry Again Air', 'RK', 'again.test', 3);
  await stack.database.db.updateTable('bookings').set({ retry_count: 3 }).where('booking_id', '=', exhausted).execute();

  const jobView = async (id: string) => (await api(`/crew/bookings/retry-jobs/${id}`)).body;
  const settled = async (id: string) =>
    waitFor(async () => (await jobView(id)).status !== 'RUNNING', 10_000, 'the retry job to finish');

  const first = await api('/crew/bookings/retry-jobs', { method: 'POST', body: { schedule_id: scheduleId } });
  expect(first.status).toBe(202);
  const job1 = first.body.retry_job_id as string;
  await settled(job1);
  expect(await jobView(job1)).toMatchObject({ status: 'FAILED', total: 2, succeeded: 0, failed: 2 });

  // The same filter again: the second job takes both FAILED bookings over; P100's retry now succeeds.
  const second = await api('/crew/bookings/retry-jobs', { method: 'POST', body: { schedule_id: scheduleId } });
  expect(second.status).toBe(202);
  const job2 = second.body.retry_job_id as string;
  await settled(job2);
  expect(await jobView(job2)).toMatchObject({ status: 'COMPLETED', total: 2, succeeded: 1, failed: 1 });
  expect((await api(`/crew/bookings/${retriable}`)).body).toMatchObject({ status: 'CONFIRMED', retry_count: 2 });
  // The first job keeps what its bookings were when taken over: both FAILED.
  expect(await jobView(job1)).toMatchObject({ status: 'FAILED', total: 2, succeeded: 0, failed: 2 });
  const listed = (await api('/crew/bookings/retry-jobs')).body.retry_jobs as { retry_job_id: string }[];
  expect(listed.find((j) => j.retry_job_id === job1)).toMatchObject({ status: 'FAILED', succeeded: 0, failed: 2 });
});

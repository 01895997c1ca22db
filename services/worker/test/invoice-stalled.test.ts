/**
 * An invoice whose reconciliation job ends without the reconciler settling it: the job stalled out (BullMQ fails
 * it without running the processor), or Redis lost it (it keeps nothing on disk). The invoice must not stay
 * RECONCILING for good: a job failed for good marks it FAILED, and the worker's sweep queues again an invoice
 * RECONCILING past its bound with no job.
 */
import { UnrecoverableError, Worker } from 'bullmq';
import { createRedis, invoiceJob } from '@crew/queue';
import { http, onboard, type Stack, startStack, type Tenant, waitFor } from '@crew/test-support';
import { requeueStalledInvoices } from '@crew/worker';

jest.setTimeout(60_000);

let stack: Stack;
let t: Tenant;

beforeAll(async () => {
  stack = await startStack('invoice_stalled', { worker: true });
  t = await onboard(stack, { name: 'Air QS', carrier: 'QS', scopes: 'events:read events:write' });
});
afterAll(() => stack.close());

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
const invoiceWorker = () => stack.worker!.workers.find((w) => w.name === 'invoices')!;
const jobOf = (invoiceId: string) => stack.queues.invoices.getJob(invoiceJob(t.airlineId, invoiceId).job_id);
const statusOf = async (invoiceId: string) => (await api(`/crew/invoices/${invoiceId}`)).body;

/** Posts an invoice while no worker takes an invoice job (the queue paused); its job, once relayed. */
async function postHeld(number: string) {
  await stack.queues.invoices.pause();
  const posted = await api('/crew/invoices', {
    method: 'POST',
    body: {
      invoice_number: number,
      property_id: 'GDS-JFK-001',
      currency: 'USD',
      lines: [
        {
          line_number: 1,
          employee_id: 'E1',
          check_in_date: '2027-03-10',
          check_out_date: '2027-03-11',
          nights: 1,
          nightly_rate: { amount: 180, currency: 'USD' },
          taxes: { amount: 20, currency: 'USD' },
        },
      ],
    },
  });
  expect(posted.status).toBe(202);
  const id = posted.body.invoice_id as string;
  const job = await waitFor(jobOf.bind(null, id), 10_000, 'the invoice’s job to be queued');
  return { id, job: job };
}

const settled = (id: string) =>
  waitFor(
    async () => {
      const inv = await statusOf(id);
      return inv.status !== 'RECONCILING' && inv;
    },
    15_000,
    `invoice ${id} to leave RECONCILING`,
  );

afterEach(() => stack.queues.invoices.resume());

it('a job failed for good without reaching the reconciler (stalled too often) leaves its invoice FAILED, with why', async () => {
  const { id, job } = await postHeld('STALLED-1');
  // What BullMQ does to a job that stalled more than maxStalledCount times: it marks the failure, and the next
  // worker to take the job fails it without calling the processor.
  const redis = createRedis(stack.config.redisUrl, true);
  try {
    await redis.hset(stack.queues.invoices.toKey(job.id!), 'defa', 'job stalled more than allowable limit');
  } finally {
    redis.disconnect();
  }
  await stack.queues.invoices.resume();
  await waitFor(async () => (await (await jobOf(id))!.getState()) === 'failed', 10_000, 'the job to fail');
  const invoice = await settled(id);
  expect(invoice).toMatchObject({ status: 'FAILED', reconciled_at: null });
  // An airline reads it: no queue internals.
  expect(invoice.error).toBe(
    'reconciliation did not finish (the worker reconciling it stopped before the end); post the invoice again under a new number or ask the operator',
  );
});

it('the sweep queues again an invoice RECONCILING past its bound whose job is gone, fails one whose job failed, leaves a live one', async () => {
  const sweep = (olderThanMs: number) =>
    requeueStalledInvoices({ db: stack.database.db, relay: stack.relay, queue: stack.queues.invoices, olderThanMs });
  const lost = await postHeld('LOST-1');
  // Its job is waiting: live, left alone.
  expect(await sweep(0)).toEqual({ requeued: 0, failed: 0 });
  // Redis loses it.
  await lost.job.remove();
  // Not RECONCILING long enough yet: nothing.
  expect(await sweep(3_600_000)).toEqual({ requeued: 0, failed: 0 });
  expect(await sweep(0)).toEqual({ requeued: 1, failed: 0 });
  await waitFor(jobOf.bind(null, lost.id), 10_000, 'the invoice’s job to be queued again');
  // Queued again twice (two workers' sweeps): one job.
  expect(await sweep(0)).toEqual({ requeued: 0, failed: 0 });
  await stack.queues.invoices.resume();
  expect(await settled(lost.id)).toMatchObject({ status: 'RECONCILED', counts: { NO_BOOKING: 1 } });
  expect(await sweep(0)).toEqual({ requeued: 0, failed: 0 });

  // A job failed for good whose failure was not recorded (the worker stopped in between): the sweep records it.
  // Failed here by hand, with the worker's invoice consumer gone.
  await invoiceWorker().close();
  const failed = await postHeld('FAILED-1');
  await stack.queues.invoices.resume();
  const connection = createRedis(stack.config.redisUrl, true);
  const other = new Worker('invoices', null, { connection, prefix: stack.config.queuePrefix });
  try {
    const taken = await other.getNextJob('manual');
    expect(taken?.id).toBe(failed.job.id);
    await taken.moveToFailed(new UnrecoverableError('lost'), 'manual');
  } finally {
    await other.close();
    connection.disconnect();
  }
  expect(await statusOf(failed.id)).toMatchObject({ status: 'RECONCILING' });
  expect(await sweep(0)).toEqual({ requeued: 0, failed: 1 });
  expect(await statusOf(failed.id)).toMatchObject({
    status: 'FAILED',
    error: expect.stringMatching(/^reconciliation did not finish/),
  });
});

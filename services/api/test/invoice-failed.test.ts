import { Writable } from 'node:stream';
import { createLogger } from '@crew/platform';
import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import { InvoiceReconciler } from '@crew/worker';
import { line } from './invoice-helpers';

/*
 * An invoice that cannot be reconciled for a reason other than a database outage ends FAILED with why, and no
 * line is written. The stack runs no worker: the test corrupts the posted lines before the reconciler reads
 * them, then runs the worker's reconciler on the invoice's job itself.
 */

let stack: Stack;
let t: Tenant;

beforeAll(async () => {
  stack = await startStack('invoice_failed');
  t = await onboard(stack, { name: 'Air QF', carrier: 'QF', scopes: 'events:read events:write' });
});
afterAll(() => stack.close());

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

type ReconcileJob = Parameters<InvoiceReconciler['process']>[0];
/** The job BullMQ hands the worker: its data and how many attempts it has had of how many. */
const job = (invoiceId: string, attemptsMade: number, attempts: number) =>
  ({ data: { airline_id: t.airlineId, invoice_id: invoiceId }, attemptsMade, opts: { attempts } }) as ReconcileJob;

/** A one-line invoice posted (202); its id. */
async function posted(invoiceNumber: string): Promise<string> {
  const res = await api('/crew/invoices', {
    method: 'POST',
    body: {
      invoice_number: invoiceNumber,
      property_id: 'GDS-JFK-001',
      currency: 'USD',
      lines: [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })],
    },
  });
  expect(res.status).toBe(202);
  return res.body.invoice_id as string;
}

describe('an invoice that cannot be reconciled', () => {
  test('corrupt posted lines: FAILED at the first attempt with the reason, no line written, shown by GET', async () => {
    const id = await posted('INV-BROKEN-1');
    const db = stack.database.db;
    await db
      .updateTable('invoice_payloads')
      .set({ lines_gz: Buffer.from('not gzip at all'), lines_columns_gz: Buffer.from('not gzip at all') })
      .where('invoice_id', '=', id)
      .execute();

    const log: { msg?: string; invoice_id?: string; err?: { message?: string } }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) log.push(JSON.parse(l) as (typeof log)[number]);
        done();
      },
    });
    const reconciler = new InvoiceReconciler({ db, logger: createLogger('worker', 'info', sink) });
    // Not an outage: retrying would fail the same way, so the first of several attempts settles it (no throw).
    await expect(reconciler.process(job(id, 0, 5))).resolves.toBeUndefined();

    const invoice = (await api(`/crew/invoices/${id}`)).body;
    expect(invoice).toMatchObject({ invoice_id: id, status: 'FAILED', reconciled_at: null });
    // A fixed phrase saying what the airline can do (not the outage's "database could not be reached"); nothing of
    // the internal error (zlib's wording here, Postgres' own text elsewhere) reaches the airline.
    expect(invoice.error).toBe(
      'reconciliation failed on an unexpected error, recorded for the operator; post the invoice again under a new number or ask the operator',
    );
    expect(invoice.error).not.toMatch(/header check|gzip|zlib|Error:/i);
    // The detail is in the worker's log, with the invoice's id.
    expect(log).toContainEqual(
      expect.objectContaining({
        msg: 'invoice reconciliation failed',
        invoice_id: id,
        err: expect.objectContaining({ message: expect.stringMatching(/incorrect header check/) }),
      }),
    );
    const lines = await db.selectFrom('invoice_lines').select('line_number').where('invoice_id', '=', id).execute();
    expect(lines).toEqual([]);
    expect((await api(`/crew/invoices/${id}/lines`)).body).toEqual({ lines: [], next_cursor: null });

    // The job run again (relayed twice, a retry) finds the invoice no longer RECONCILING: it stays as it failed.
    await reconciler.process(job(id, 1, 5));
    expect((await api(`/crew/invoices/${id}`)).body).toMatchObject({ status: 'FAILED', error: invoice.error });
  });

  test('an invoice failed by an earlier release with the internal message reads as the phrase', async () => {
    const id = await posted('INV-BROKEN-2');
    // As process() wrote it before: Postgres' own text after the prefix.
    await stack.database.db
      .updateTable('invoices')
      .set({
        status: 'FAILED',
        error: 'reconciliation failed: duplicate key value violates unique constraint "invoice_lines_pkey"',
      })
      .where('invoice_id', '=', id)
      .execute();
    const invoice = (await api(`/crew/invoices/${id}`)).body;
    expect(invoice).toMatchObject({
      status: 'FAILED',
      error:
        'reconciliation failed on an unexpected error, recorded for the operator; post the invoice again under a new number or ask the operator',
    });
    expect(JSON.stringify(invoice)).not.toMatch(/duplicate key|invoice_lines_pkey/);
  });
});

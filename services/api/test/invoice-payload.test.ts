import { gunzipSync, gzipSync } from 'node:zlib';
import { createLogger } from '@crew/platform';
import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import { InvoiceReconciler } from '@crew/worker';
import { line } from './invoice-helpers';

/*
 * What an invoice keeps of what the hotel sent: a JSON body byte for byte as received (not serialised again), a
 * CSV one as the body it was read into; and an invoice stored before the body was kept (its lines alone) is
 * reconciled the same. The stack runs no worker: the test runs the worker's reconciler itself.
 */

let stack: Stack;
let t: Tenant;

beforeAll(async () => {
  stack = await startStack('invoice_payload');
  t = await onboard(stack, { name: 'Air QP', carrier: 'QP', scopes: 'events:read events:write' });
});
afterAll(() => stack.close());

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

async function stored(invoiceId: string): Promise<string> {
  const row = await stack.database.db
    .selectFrom('invoice_payloads')
    .select('lines_gz')
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return gunzipSync(row.lines_gz).toString('utf8');
}

async function reconcile(invoiceId: string) {
  const reconciler = new InvoiceReconciler({ db: stack.database.db, logger: createLogger('worker', 'silent') });
  await reconciler.reconcile(t.airlineId, invoiceId);
  return (await api(`/crew/invoices/${invoiceId}`)).body;
}

/** A body posted as the hotel's system wrote it; the new invoice's id once it is accepted. */
async function postRaw(path: string, raw: string, contentType: string): Promise<string> {
  const posted = await api(path, { method: 'POST', raw, headers: { 'content-type': contentType } });
  expect(posted.status).toBe(202);
  return posted.body.invoice_id as string;
}

const lines = [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })];

test('a JSON invoice is kept byte for byte as the hotel sent it, and reconciled from it', async () => {
  // Spacing, key order and an escaped character as a hotel's system might write them.
  const sent = `{ "lines": ${JSON.stringify(lines, null, 1)},\n "currency":"USD", "property_id": "GDS-JFK-001",
    "invoice_number": "INV-\\u0041S-SENT-1" }`;
  const id = await postRaw('/crew/invoices', sent, 'application/json');
  expect(await stored(id)).toBe(sent);
  expect(await reconcile(id)).toMatchObject({ invoice_number: 'INV-AS-SENT-1', status: 'RECONCILED', line_count: 1 });
});

test('a CSV invoice is kept as the body it was read into', async () => {
  const csv =
    'line_number,employee_id,check_in_date,check_out_date,nights,nightly_rate,taxes\n1,E1,2027-03-10,2027-03-11,1,180,20\n';
  const id = await postRaw(
    '/crew/invoices?invoice_number=INV-CSV-1&property_id=GDS-JFK-001&currency=USD',
    csv,
    'text/csv',
  );
  expect(JSON.parse(await stored(id))).toMatchObject({
    invoice_number: 'INV-CSV-1',
    property_id: 'GDS-JFK-001',
    currency: 'USD',
    lines: [{ line_number: 1, employee_id: 'E1', check_in_date: '2027-03-10', nights: 1 }],
  });
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED', line_count: 1 });
});

test('an invoice stored with its lines alone (before the body was kept) is reconciled the same', async () => {
  const posted = await api('/crew/invoices', {
    method: 'POST',
    body: { invoice_number: 'INV-LINES-ONLY-1', property_id: 'GDS-JFK-001', currency: 'USD', lines },
  });
  expect(posted.status).toBe(202);
  const id = posted.body.invoice_id as string;
  await stack.database.db
    .updateTable('invoice_payloads')
    .set({ lines_gz: gzipSync(JSON.stringify(lines)) })
    .where('invoice_id', '=', id)
    .execute();
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED', line_count: 1 });
  const read = (await api(`/crew/invoices/${id}/lines`)).body.lines;
  expect(read.map((l: { line_number: number }) => l.line_number)).toEqual([1]);
});

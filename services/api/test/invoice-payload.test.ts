import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from '@crew/db';
import { createLogger } from '@crew/platform';
import { http, onboard, type Stack, startStack, type Tenant } from '@crew/test-support';
import { InvoiceReconciler } from '@crew/worker';
import { line } from './invoice-helpers';

/*
 * What an invoice keeps of what the hotel sent: a JSON body byte for byte as received (not serialised again), a
 * CSV one as the body it was read into; beside it, its lines as columns, which the reconciliation reads. An
 * invoice stored with the body alone (before the columns, or by the previous release during a rollout) and one
 * stored before the body was kept (its lines alone) are reconciled the same. The stack runs no worker: the test
 * runs the worker's reconciler itself.
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

/** What the invoice keeps in `column` (the body as posted, or the lines as columns), decompressed. */
async function stored(invoiceId: string, column: 'lines_gz' | 'lines_columns_gz' = 'lines_gz'): Promise<string | null> {
  const { gz } = await stack.database.db
    .selectFrom('invoice_payloads')
    .select(sql<Buffer | null>`${sql.ref(column)}`.as('gz'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return gz && gunzipSync(gz).toString('utf8');
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

test('a JSON invoice is kept byte for byte as the hotel sent it, and reconciled', async () => {
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
  expect(JSON.parse((await stored(id))!)).toMatchObject({
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
    .set({ lines_gz: gzipSync(JSON.stringify(lines)), lines_columns_gz: null })
    .where('invoice_id', '=', id)
    .execute();
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED', line_count: 1 });
  const read = (await api(`/crew/invoices/${id}/lines`)).body.lines;
  expect(read.map((l: { line_number: number }) => l.line_number)).toEqual([1]);
});

/** Lines of several kinds: a guest by name, a confirmation number, fees, a line of fees only. */
const mixed = [
  line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' }),
  line(2, {
    employee_id: undefined,
    guest_name: 'SMITH/JOHN MR',
    confirmation_number: 'CF-9',
    check_in_date: '2027-03-11',
    check_out_date: '2027-03-13',
    nights: 2,
    fees: [
      { type: 'INCIDENTAL', amount: { amount: 12.5, currency: 'USD' } },
      { type: 'NO_SHOW', amount: { amount: 90, currency: 'USD' } },
    ],
  }),
  line(3, { check_in_date: '2027-03-12', check_out_date: '2027-03-12', nights: 0, fees: [] }),
];

async function linesRead(invoiceId: string) {
  return (await api(`/crew/invoices/${invoiceId}/lines`)).body.lines;
}

test('beside the body, the lines are kept as columns, and the reconciliation reads those', async () => {
  const id = await postRaw(
    '/crew/invoices',
    JSON.stringify({ invoice_number: 'INV-COLUMNS-1', property_id: 'GDS-JFK-001', currency: 'USD', lines: mixed }),
    'application/json',
  );
  const columns = JSON.parse((await stored(id, 'lines_columns_gz'))!) as Record<string, unknown>;
  expect(columns).toMatchObject({
    line_number: [1, 2, 3],
    guest_name: [null, 'SMITH/JOHN MR', null],
    nights: [1, 2, 0],
    fees: [
      [1, 'INCIDENTAL', 12.5],
      [1, 'NO_SHOW', 90],
    ],
  });
  // The body as posted is not read again: a body no one could read changes nothing.
  await stack.database.db
    .updateTable('invoice_payloads')
    .set({ lines_gz: Buffer.from('not gzip at all') })
    .where('invoice_id', '=', id)
    .execute();
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED', line_count: 3 });
  expect((await linesRead(id)).map((l: { line_number: number }) => l.line_number)).toEqual([1, 2, 3]);
});

test('an invoice kept with its body alone (no columns) is reconciled from the body, line for line the same', async () => {
  const id = await postRaw(
    '/crew/invoices',
    JSON.stringify({ invoice_number: 'INV-BODY-1', property_id: 'GDS-JFK-002', currency: 'USD', lines: mixed }),
    'application/json',
  );
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED' });
  const fromColumns = await linesRead(id);
  // No booking at this hotel: each line is disputed whole (its nights, taxes and fees as posted).
  expect(fromColumns.map((l: { status: string; disputed: unknown }) => [l.status, l.disputed])).toEqual([
    ['NO_BOOKING', { amount: 200, currency: 'USD' }],
    ['NO_BOOKING', { amount: 482.5, currency: 'USD' }],
    ['NO_BOOKING', { amount: 20, currency: 'USD' }],
  ]);
  // The same invoice as the previous release stores it (the body only), reconciled again.
  const db = stack.database.db;
  await db.deleteFrom('invoice_lines').where('invoice_id', '=', id).execute();
  await db
    .updateTable('invoices')
    .set({ status: 'RECONCILING', counts: null, total_disputed: 0, reconciled_at: null })
    .where('invoice_id', '=', id)
    .execute();
  await db.updateTable('invoice_payloads').set({ lines_columns_gz: null }).where('invoice_id', '=', id).execute();
  expect(await reconcile(id)).toMatchObject({ status: 'RECONCILED', line_count: 3 });
  expect(await linesRead(id)).toEqual(fromColumns);
});

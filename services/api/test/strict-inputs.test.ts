import { http, type HttpResult, onePairingRoster, type Tenant } from '@crew/test-support';
import { airline, api, hotelItem, roster, settled, stack, useBookingsStack } from './bookings-stack';
import { line, post, PROPERTY } from './invoice-helpers';

/*
 * Values the shared validator used to let through although Postgres (or V8's Date) refuses them: each was a
 * 500 INTERNAL_ERROR. Now a path is 404 (an unknown id), a query 400 and a body 422, naming the field.
 */
useBookingsStack('strict_inputs');

let t: Tenant;
let email: string;
let scheduleId: string;
let bookingId: string;
let actionId: string;
let invoiceId: string;

beforeAll(async () => {
  ({ t, email } = await airline());
  const r = await roster(t, onePairingRoster({ email }));
  scheduleId = r.id;
  const hotel = hotelItem(r.items);
  actionId = hotel.action_id;
  bookingId = hotel.booking_id;
  expect((await settled(t, bookingId)).status).toBe('CONFIRMED');
  const invoice = await post(t, {
    invoice_number: 'INV-STRICT',
    property_id: PROPERTY,
    currency: 'USD',
    lines: [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })],
  });
  expect(invoice.status).toBe(202);
  invoiceId = invoice.body.invoice_id;
});

const get = (path: string) => api(t, path);
const ops = (path: string) => http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken });

function expectError(res: HttpResult, status: number, code: string, field?: string) {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  if (field) expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
}

describe('a uuid is the plain 8-4-4-4-12 hex form Postgres takes (no urn:uuid: prefix)', () => {
  const URN = 'urn:uuid:00000000-0000-4000-8000-000000000000';

  it('a malformed id in a path is an unknown id today: 404 NOT_FOUND', async () => {
    expectError(await get('/crew/bookings/not-a-uuid'), 404, 'NOT_FOUND');
  });

  it.each([
    ['GET', '/crew/bookings/:id'],
    ['PATCH', '/crew/bookings/:id'],
    ['DELETE', '/crew/bookings/:id'],
    ['GET', '/crew/bookings/:id/status'],
    ['POST', '/crew/bookings/:id/retry'],
    ['GET', '/crew/schedules/:id'],
    ['GET', '/crew/schedules/:id/processing-status'],
    ['GET', '/crew/schedules/:id/action-items'],
    ['GET', '/crew/schedules/:id/audit-events'],
    ['GET', '/crew/action-items/:id'],
    ['GET', '/crew/invoices/:id'],
  ])('%s %s with a urn:uuid: id → 404 NOT_FOUND', async (method, path) => {
    const res = await api(t, path.replace(':id', URN), {
      method,
      ...(method === 'PATCH' || method === 'POST' ? { body: method === 'PATCH' ? { reason: 'x' } : {} } : {}),
    });
    expectError(res, 404, 'NOT_FOUND');
  });

  it.each(['settings', 'suppliers'])('an ops airline_id with the prefix (/airlines/:id/%s) → 404', async (tail) => {
    expectError(await ops(`/airlines/${URN}/${tail}`), 404, 'NOT_FOUND');
  });

  it.each(['/crew/bookings', '/crew/action-items'])('%s?schedule_id= with the prefix → 400 naming it', async (path) => {
    expectError(await get(`${path}?schedule_id=${URN}`), 400, 'INVALID_REQUEST', 'query.schedule_id');
  });

  it('the plain form, upper case too, still finds the resource', async () => {
    expect((await get(`/crew/bookings/${bookingId}`)).status).toBe(200);
    expect((await get(`/crew/bookings/${bookingId.toUpperCase()}`)).status).toBe(200);
  });
});

const cursorOf = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

describe('a forged cursor is 400 INVALID_REQUEST: each holds only a position its query can take', () => {
  // 1e21 prints as "1e+21" (no bigint literal); 1e19 is beyond a bigint.
  const SEQS = ['{"s":1e21}', '{"s":10000000000000000000}'];
  const SEQ_LISTS = [
    '/crew/schedules?',
    '/crew/schedules/:schedule/action-items?',
    '/crew/schedules/:schedule/audit-events?',
    '/crew/bookings?status=CONFIRMED&',
    '/crew/bookings/retry-queue?',
    '/crew/webhooks?',
  ];

  it.each(SEQ_LISTS.flatMap((path) => SEQS.map((json) => [path, json])))('%s cursor %s', async (path, json) => {
    const res = await get(`${path.replace(':schedule', scheduleId)}cursor=${cursorOf(json)}`);
    expectError(res, 400, 'INVALID_REQUEST', 'query.cursor');
  });

  it.each(['{"b":1e21}', '{"b":10000000000000000000}'])('retry jobs cursor %s', async (json) => {
    expectError(
      await get(`/crew/bookings/retry-jobs?cursor=${cursorOf(json)}`),
      400,
      'INVALID_REQUEST',
      'query.cursor',
    );
  });

  it.each([
    `{"o":"due_by","k":"x","i":"00000000-0000-4000-8000-000000000000"}`,
    `{"o":"due_by","k":"2027-13-01 00:00:00+00","i":"00000000-0000-4000-8000-000000000000"}`,
    `{"o":"due_by","k":"0000-01-01 00:00:00+00","i":"00000000-0000-4000-8000-000000000000"}`,
    `{"o":"due_by","k":null,"i":"x"}`,
    `{"o":"due_by","k":"2027-03-01 12:00:00+00","i":"urn:uuid:00000000-0000-4000-8000-000000000000"}`,
  ])('review queue cursor %s', async (json) => {
    const sort = JSON.parse(json).o as string;
    expectError(
      await get(`/crew/action-items?sort=${sort}&cursor=${cursorOf(json)}`),
      400,
      'INVALID_REQUEST',
      'query.cursor',
    );
  });

  it('the review queue still pages with the cursors it makes (a due_by key as Postgres prints it)', async () => {
    const key = `{"o":"due_by","k":"2027-03-01 12:00:00.123456+00","i":"${actionId}"}`;
    expect((await get(`/crew/action-items?sort=due_by&cursor=${cursorOf(key)}`)).status).toBe(200);
    const unkeyed = `{"o":"due_by","k":null,"i":"${actionId}"}`;
    expect((await get(`/crew/action-items?sort=due_by&cursor=${cursorOf(unkeyed)}`)).status).toBe(200);
  });

  it.each(['{"l":2147483648}', '{"l":1e21}'])('invoice lines cursor %s', async (json) => {
    expectError(
      await get(`/crew/invoices/${invoiceId}/lines?cursor=${cursorOf(json)}`),
      400,
      'INVALID_REQUEST',
      'query.cursor',
    );
  });

  it('a cursor in range is still a page', async () => {
    expect((await get(`/crew/schedules?cursor=${cursorOf('{"s":9007199254740991}')}`)).status).toBe(200);
    expect((await get(`/crew/invoices/${invoiceId}/lines?cursor=${cursorOf('{"l":2147483647}')}`)).status).toBe(200);
  });
});

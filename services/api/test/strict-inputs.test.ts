import { http, type HttpResult, onePairingRoster, type Tenant } from '@crew/test-support';
import { airline, api, hotelItem, roster, settled, stack, useBookingsStack } from './bookings-stack';
import { ConsoleClient, consoleUserWithPassword } from './console-client';
import { line, post, PROPERTY } from './invoice-helpers';

const PASSWORD = 'correct horse battery staple';

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

describe('a date is a day of years 0001-9999, a date-time one V8 and Postgres both read', () => {
  it.each([
    ['/crew/schedules?from=0000-01-01', 'query.from'],
    ['/crew/reports/spend?from=0000-01-01&to=2027-01-01', 'query.from'],
    ['/crew/bookings?from_date=0000-01-01', 'query.from_date'],
    ['/crew/action-items?due_before=2026-12-31T23:59:60Z', 'query.due_before'],
    // A separator Postgres does not read (a no-break space), an offset V8 does not read (+05), year 0000.
    ['/crew/action-items?due_before=2027-03-01%C2%A010:00:00Z', 'query.due_before'],
    ['/crew/action-items?due_before=2027-03-01T10:00:00%2B05', 'query.due_before'],
    ['/crew/action-items?due_before=0000-01-01T00:00:00Z', 'query.due_before'],
  ])('GET %s → 400 naming %s', async (path, field) => {
    expectError(await get(path), 400, 'INVALID_REQUEST', field);
  });

  it.each([
    ['schedule_start_date', '0000-01-01'],
    ['as_of', '2026-12-31T23:59:60Z'],
    ['as_of', '0000-01-01T00:00:00Z'],
    ['as_of', '2027-03-01\u00a010:00:00Z'],
  ])('a roster with %s %s → 422 naming it', async (name, value) => {
    const r = { ...onePairingRoster({ email }), [name]: value };
    expectError(await api(t, '/crew/schedules', { method: 'POST', body: r }), 422, 'VALIDATION_FAILED', `/${name}`);
  });

  it('PATCH a booking to year 0000 hotel dates → 422 naming them', async () => {
    const res = await api(t, `/crew/bookings/${bookingId}`, {
      method: 'PATCH',
      body: { hotel: { check_in_date: '0000-01-01', check_out_date: '0000-01-02' } },
    });
    expectError(res, 422, 'VALIDATION_FAILED', '/hotel/check_in_date');
  });

  describe('the console spend chart, which asks the engine without the schema layer', () => {
    const viewer = 'viewer@strict.test';
    beforeAll(() => consoleUserWithPassword(stack, t, viewer, PASSWORD, 'VIEWER'));

    it.each(['0000-01-01', '2027-02-30'])('from=%s → 422 naming from', async (from) => {
      const browser = new ConsoleClient(stack.apiUrl);
      expect((await browser.signIn(viewer, PASSWORD)).status).toBe(303);
      const page = await browser.get(`/console/spend?from=${from}&to=2027-03-31`);
      expect(page.status).toBe(422);
      expect(page.text).toContain('from must be a date');
    });
  });

  it('year 0001 and 9999 are days like any other', async () => {
    expect((await get('/crew/schedules?from=0001-01-01&to=9999-12-31')).status).toBe(200);
    expect((await get('/crew/action-items?due_before=9999-12-31T23:59:59Z')).status).toBe(200);
  });
});

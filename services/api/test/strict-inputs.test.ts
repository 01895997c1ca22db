import { http, type HttpResult, onePairingRoster, type Tenant } from '@crew/test-support';
import { airline, api, hotelItem, roster, settled, stack, useBookingsStack } from './bookings-stack';

/*
 * Values the shared validator used to let through although Postgres (or V8's Date) refuses them: each was a
 * 500 INTERNAL_ERROR. Now a path is 404 (an unknown id), a query 400 and a body 422, naming the field.
 */
useBookingsStack('strict_inputs');

let t: Tenant;
let email: string;
let bookingId: string;

beforeAll(async () => {
  ({ t, email } = await airline());
  const r = await roster(t, onePairingRoster({ email }));
  bookingId = hotelItem(r.items).booking_id;
  expect((await settled(t, bookingId)).status).toBe('CONFIRMED');
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

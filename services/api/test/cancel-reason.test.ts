import {
  bookingAccount,
  contractStations,
  http,
  onboard,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
} from '@crew/test-support';

let stack: Stack;
let t: Tenant;
const TRAVELLER = 'ada@crew.test';

beforeAll(async () => {
  stack = await startStack('cancel_reason', { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
  t = await onboard(stack, { name: 'Reason Air', carrier: 'RZ', scopes: 'events:read events:write' });
  await bookingAccount(stack, t, TRAVELLER);
  await contractStations(stack, t, ['JFK']);
});
afterAll(() => stack.close());

const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });

let night = 10;
/** A confirmed hotel booking of its own night (so no two are live for the same anchors). */
async function confirmedHotel(): Promise<string> {
  const n = night++;
  const created = await api('/crew/bookings/request', {
    method: 'POST',
    body: {
      type: 'HOTEL',
      classification: 'NEW_LAYOVER',
      anchors: { traveller_email: TRAVELLER },
      hotel: { property_id: 'GDS-JFK-001', check_in_date: `2027-03-${n}`, check_out_date: `2027-03-${n + 1}` },
    },
  });
  expect(created.status).toBe(202);
  expect((await settledBooking(stack, t.accessToken, created.body.booking_id)).status).toBe('CONFIRMED');
  return created.body.booking_id;
}

/** The reasons in the booking's status history (where a cancellation's reason is audit-logged). */
async function reasons(bookingId: string): Promise<(string | null)[]> {
  const res = await api(`/crew/bookings/${bookingId}/status`);
  expect(res.status).toBe(200);
  return res.body.history.map((h: { reason: string | null }) => h.reason);
}

describe('DELETE /crew/bookings/{booking_id} reason', () => {
  it('takes the reason from a JSON body, recorded where the query parameter’s reason is', async () => {
    const byQuery = await confirmedHotel();
    const q = await api(`/crew/bookings/${byQuery}?reason=crew%20sick`, { method: 'DELETE' });
    expect(q.status).toBe(202);
    expect(q.body.status).toBe('CANCELLED');
    expect(await reasons(byQuery)).toContain('crew sick');

    const byBody = await confirmedHotel();
    const b = await api(`/crew/bookings/${byBody}`, { method: 'DELETE', body: { reason: 'pairing swapped' } });
    expect(b.status).toBe(202);
    expect(b.body).toMatchObject({ status: 'CANCELLED', manual_override: true });
    expect(await reasons(byBody)).toContain('pairing swapped');
    expect(await reasons(byBody)).not.toContain('cancelled by the airline');
  });

  it('prefers the query parameter when both give a reason', async () => {
    const id = await confirmedHotel();
    const res = await api(`/crew/bookings/${id}?reason=from%20query`, {
      method: 'DELETE',
      body: { reason: 'from body' },
    });
    expect(res.status).toBe(202);
    expect(await reasons(id)).toContain('from query');
    expect(await reasons(id)).not.toContain('from body');
  });

  it('answers 422 in the envelope for an invalid body, and cancels nothing', async () => {
    const id = await confirmedHotel();
    for (const body of [{ reason: 42 }, { reason: 'late', note: 'x' }, { reason: 'x'.repeat(1001) }, ['late']]) {
      const res = await api(`/crew/bookings/${id}`, { method: 'DELETE', body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        error: { code: 'VALIDATION_FAILED', message: expect.any(String), details: expect.any(Array) },
        status: 422,
      });
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    expect((await api(`/crew/bookings/${id}`)).body.status).toBe('CONFIRMED');
  });
});

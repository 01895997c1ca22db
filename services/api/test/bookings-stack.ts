/**
 * The stack and helpers of the booking tests (bookings.test.ts, booking-requests.test.ts): each file calls
 * useBookingsStack with its own label, so it gets its own stack and database.
 */
import {
  allActionItems,
  bookingAccount,
  contractStations,
  http,
  onboard,
  settledBooking,
  type Stack,
  startStack,
  type Tenant,
  waitForSchedule,
} from '@crew/test-support';

export let stack: Stack;
const SCOPES = 'events:read events:write schedules:read schedules:write';

/** Starts the file's stack (with a worker, at a fixed clock) before its tests and closes it after them. */
export function useBookingsStack(label: string): void {
  beforeAll(async () => {
    stack = await startStack(label, { worker: true, now: () => new Date('2027-03-01T00:00:00Z') });
  });
  afterAll(() => stack.close());
  afterEach(() => http(`${stack.sandboxUrl}/_control/faults`, { method: 'DELETE' }));
}

export const api = (t: Tenant, path: string, init: Parameters<typeof http>[1] = {}) =>
  http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
export const fault = (body: Record<string, unknown>) =>
  http(`${stack.sandboxUrl}/_control/faults`, { method: 'POST', body });
export const reservations = async (email: string) =>
  (await http(`${stack.sandboxUrl}/_control/reservations?traveller_email=${encodeURIComponent(email)}`)).body
    .reservations as any[];

let carrierSeq = 0;
/** An airline with a booking account, a traveller with a date of birth and (optionally) an enabled JFK contract. */
export async function airline(opts: { contract?: boolean; settings?: Record<string, unknown>; dob?: boolean } = {}) {
  const code = `Q${String.fromCharCode(65 + (carrierSeq++ % 26))}`;
  const t = await onboard(stack, {
    name: `Air ${code} ${carrierSeq}`,
    carrier: code,
    scopes: SCOPES,
    settings: { schedules_access: true, ...opts.settings },
  });
  const email = `crew${carrierSeq}@air.test`;
  await bookingAccount(stack, t, email, opts.dob !== false);
  if (opts.contract !== false) await contractStations(stack, t, ['JFK']);
  return { t, email };
}

export async function roster(t: Tenant, body: unknown) {
  const res = await api(t, '/crew/schedules', { method: 'POST', body });
  expect(res.status).toBe(202);
  const status = await waitForSchedule(stack, t.accessToken, res.body.schedule_id);
  return {
    id: res.body.schedule_id as string,
    status,
    items: await allActionItems(stack, t.accessToken, res.body.schedule_id),
  };
}

export const settled = (t: Tenant, id: string) => settledBooking(stack, t.accessToken, id, 10_000);

export const hotelItem = (items: any[]) => items.find((i) => i.type === 'HOTEL');
export const flightItem = (items: any[]) => items.find((i) => i.type === 'FLIGHT');

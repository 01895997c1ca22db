/**
 * What the tests of moved and cancelled stays share (cost-control.test.ts, direct-moves.test.ts): one crew member's
 * layover at JFK (America/New_York, whose clocks go forward on Sunday 14 March 2027), the contract's cancellation
 * terms, and an airline whose JFK and LHR hotels are each booked through the GDS sandbox or as a DIRECT hotel.
 */
import { bookingAccount, http, onboard, STANDARD_TERMS, type Stack, type Tenant, waitFor } from '@crew/test-support';

export const TRAVELLER = 'ada@crew.test';
/** The layover: Friday 19 March 2027, 15:00 to Saturday 09:00 New York time (one night at 180 USD). */
export const DAY1 = '2027-03-19';
/** 18:00 hotel time four days before the check-in: Monday 15 March 2027, 18:00 EDT. */
export const DEADLINE = '2027-03-15T22:00:00.000Z';
export const TERMS = {
  cancellation_deadline: { days_before: 4, local_time: '18:00' },
  late_cancellation_fee: { type: 'NIGHTS', nights: 1 },
};
export const NIGHT = { amount: 180, currency: 'USD' };

/** How a station's hotel is booked: through the GDS sandbox, or by the hotel's rooming list. */
export type Channel = 'GDS' | 'DIRECT';

let carrier = 0;

/**
 * An airline (named `label`, its carrier code starting with `prefix`) whose JFK and LHR hotels are booked through
 * `channels`, each under an enabled contract for 2027 at NIGHT a night; JFK's with TERMS in New York time.
 */
export async function airlineWithHotels(
  stack: Stack,
  label: string,
  prefix: string,
  channels: { JFK: Channel; LHR: Channel },
): Promise<Tenant> {
  const t = await onboard(stack, {
    name: `${label} ${carrier}`,
    carrier: `${prefix}${(carrier++).toString(36).toUpperCase()}`,
    scopes: 'schedules:read schedules:write events:read events:write',
    settings: { schedules_access: true, cancellation_execution: true, booking_modification: true },
  });
  await bookingAccount(stack, t, TRAVELLER);
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  const hotelOf = (s: 'JFK' | 'LHR') =>
    channels[s] === 'GDS'
      ? { property_id: `GDS-${s}-001`, ...STANDARD_TERMS }
      : {
          property_id: `CREWINN-${s}`,
          chain: 'Crew Inns',
          name: `Crew Inn ${s}`,
          reservations_email: `reservations-${s.toLowerCase()}@crewinn.test`,
          ...STANDARD_TERMS,
        };
  const cfg = await api('/crew/config/hotels', {
    method: 'PUT',
    body: { bases: (['JFK', 'LHR'] as const).map((s) => ({ base_station: s, hotels: [hotelOf(s)] })) },
  });
  expect(cfg.status).toBe(200);
  for (const base of cfg.body.bases as { base_station: string; hotels: { hotel_config_id: number }[] }[]) {
    const id = base.hotels[0]!.hotel_config_id;
    const contract = await api(`/crew/config/hotels/${id}/contracts`, {
      method: 'POST',
      body: {
        contract_number: `K-${base.base_station}`,
        contract_from: '2027-01-01',
        contract_to: '2027-12-31',
        ...(base.base_station === 'JFK' ? { ...TERMS, hotel_time_zone: 'America/New_York' } : {}),
      },
    });
    expect(contract.status).toBe(201);
    const rates = await api(`/crew/config/hotels/${id}/contracts/${contract.body.contract_id}/rates`, {
      method: 'PUT',
      body: { rate_periods: [{ effective_from: '2027-01-01', effective_to: '2027-12-31', rate: NIGHT }] },
    });
    expect(rates.status).toBe(200);
    const req = await api('/crew/config/hotels/change-requests', {
      method: 'POST',
      body: { contract_id: contract.body.contract_id, intent: 'ENABLE' },
    });
    const decided = await http(`${stack.apiUrl}/ops/v1/change-requests/${req.body.request_id}/decide`, {
      method: 'POST',
      token: stack.opsToken,
      body: { decision: 'APPROVED', decided_by: 'ops@crew.travel' },
    });
    expect(decided.status).toBe(200);
  }
  return t;
}

const ZERO = { amount: 0, currency: 'USD' };

/** A line of an invoice for the layover's night (DAY1), charging nothing unless `extra` says so. */
export const invoiceLine = (n: number, extra: Record<string, unknown>) => ({
  line_number: n,
  check_in_date: DAY1,
  check_out_date: '2027-03-20',
  nights: 0,
  nightly_rate: ZERO,
  taxes: ZERO,
  ...extra,
});

/** Posts a hotel's invoice (USD) and answers its lines once reconciled: status, booking and what is disputed. */
export async function reconciledInvoice(
  stack: Stack,
  t: Tenant,
  number: string,
  property: string,
  lines: Record<string, unknown>[],
) {
  const api = (path: string, init: Parameters<typeof http>[1] = {}) =>
    http(`${stack.apiUrl}/api/v1${path}`, { token: t.accessToken, ...init });
  const posted = await api('/crew/invoices', {
    method: 'POST',
    body: { invoice_number: number, property_id: property, currency: 'USD', lines },
  });
  expect(posted.status).toBe(202);
  const id = posted.body.invoice_id as string;
  await waitFor(
    async () => (await api(`/crew/invoices/${id}`)).body.status === 'RECONCILED',
    20_000,
    () => `invoice ${number} reconciled`,
  );
  return (await api(`/crew/invoices/${id}/lines`)).body.lines as {
    status: string;
    booking_id: string | null;
    disputed: { amount: number };
  }[];
}

/** The stays the booking moved away from, as its old hotels' invoices are matched to them (hotel_moved_stays). */
export const movedStays = (stack: Stack, bookingId: string) =>
  stack.database.db.selectFrom('hotel_moved_stays').selectAll().where('booking_id', '=', bookingId).execute();

/**
 * What the tests of moved and cancelled stays share (cost-control, direct-moves, superseded-tasks and
 * superseded-cancel-race): one crew member's layover at JFK (America/New_York, whose clocks go forward on Sunday 14
 * March 2027), the contract's cancellation terms, an airline whose JFK and LHR hotels are each booked through the GDS
 * sandbox or as a DIRECT hotel, an airline booking JFK at a Duffel Stays accommodation, and an SMTP server for the
 * rooming lists.
 */
import { SMTPServer } from 'smtp-server';
import {
  bookingAccount,
  contractStations,
  http,
  onboard,
  onePairingRoster,
  STANDARD_TERMS,
  type Stack,
  type Tenant,
  waitFor,
} from '@crew/test-support';

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

/** An SMTP server in this process that takes every e-mail (the tests answer rooming lists by their stored ids). */
export async function startSmtpSink(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, cb) => {
      stream.on('data', () => undefined);
      stream.on('end', () => cb());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp as unknown as { server: { address(): { port: number } } }).server.address().port;
  return {
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'crew-travel@air.test' },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

/** The Duffel Stays accommodation the JFK contract of staysAirline names. */
export const JFK_STAY = 'acc_0000AgZitpOhSJFKcrew01';

/**
 * An airline (the `n`th of a file, named `label` and with carrier code `prefix` + a letter) booking its JFK
 * layovers at JFK_STAY under contract (DUFFEL, then SANDBOX), with a crew member of its own (`crew<n>@<domain>`,
 * a phone number as Duffel Stays needs) and its own Duffel token.
 */
export async function staysAirline(
  stack: Stack,
  n: number,
  o: { label: string; prefix: string; domain: string },
): Promise<{ t: Tenant; email: string; token: string }> {
  const t = await onboard(stack, {
    name: `${o.label} ${n}`,
    carrier: `${o.prefix}${String.fromCharCode(64 + n)}`,
    scopes: 'events:read events:write schedules:read schedules:write',
    settings: { schedules_access: true, cancellation_execution: true, booking_modification: true },
  });
  const email = `crew${n}@${o.domain}`;
  const token = `duffel_test_${o.domain.split('.')[0]!.replace(/-/g, '_')}_${n}_0123456789`;
  await bookingAccount(stack, t, email);
  const ops = (path: string, init: Parameters<typeof http>[1]) =>
    http(`${stack.apiUrl}/ops/v1${path}`, { token: stack.opsToken, ...init });
  const profile = await ops(`/airlines/${t.airlineId}/travellers/${encodeURIComponent(email)}`, {
    method: 'PUT',
    body: { phone_number: '+12125550100' },
  });
  expect(profile.status).toBe(200);
  const put = await ops(`/airlines/${t.airlineId}/suppliers`, {
    method: 'PUT',
    body: { flights: ['SANDBOX'], hotels: ['DUFFEL', 'SANDBOX'], duffel: { access_token: token } },
  });
  expect(put.status).toBe(200);
  await contractStations(stack, t, ['JFK'], {
    propertyId: () => JFK_STAY,
    terms: { policy: 'FLEXIBLE', flex_window_minutes: 600 },
    rate: { amount: 189, currency: 'USD' },
  });
  return { t, email, token };
}

/**
 * The sandbox's Duffel control API, for the stack `stackOf` returns (read at each call: a file's stack starts in
 * its beforeAll): what a token's calls were, the Stays bookings it made, and a call held until released.
 */
export function duffelControl(stackOf: () => Stack) {
  const control = (path: string) => `${stackOf().sandboxUrl}/_control/duffel${path}`;
  const duffelCalls = async (token: string) =>
    (await http(control(`/calls?token=${token}`))).body.calls as Record<string, number>;
  const staysBookings = async (token: string) =>
    (await http(control(`/stays/bookings?token=${token}`))).body.bookings as {
      booking: { id: string; status: string };
    }[];
  return {
    duffelCalls,
    staysBookings,
    /** Duffel answers the token's next `operation` call with `outcome` (`hold`: nothing done until `release`). */
    arm: async (token: string, operation: string, outcome = 'hold'): Promise<void> => {
      const armed = await http(control('/faults'), { method: 'POST', body: { token, operation, outcome } });
      expect(armed.status).toBe(201);
    },
    /** Waits until the held `operation` call reached Duffel. */
    held: (token: string, operation: string) =>
      waitFor(async () => ((await duffelCalls(token))[operation] ?? 0) >= 1, 20_000, `the held ${operation}`),
    /** Lets the held call go on: it was still waiting (its client had not given up). */
    release: async (token: string, operation: string): Promise<void> => {
      const res = await http(control('/holds/release'), { method: 'POST', body: { token, operation } });
      expect(res.status).toBe(200);
      expect(res.body.released).toBe(1);
    },
    /** The Duffel Stays bookings still confirmed that no live hotel booking of the airline holds. */
    unheldStays: async (t: Tenant, token: string): Promise<string[]> => {
      const bookings = (
        await http(`${stackOf().apiUrl}/api/v1/crew/bookings?type=HOTEL&limit=200`, { token: t.accessToken })
      ).body.bookings as { status: string; hotel: Record<string, any> | null }[];
      const held = new Set<string>();
      for (const b of bookings) {
        const h = b.hotel;
        if (b.status === 'CANCELLED' || !h || h.supplier_status === 'CANCELLED') continue;
        for (const id of h.supplier_booking_ids ?? [h.supplier_booking_id]) if (id) held.add(id);
      }
      return (await staysBookings(token))
        .filter((s) => s.booking.status === 'confirmed' && !held.has(s.booking.id))
        .map((s) => s.booking.id);
    },
  };
}

/** One crew member's pairing (onePairingRoster) with its layover of `day1` moved to London: 20:00 to 09:00 GMT. */
export function londonLayover(day1: string) {
  const r = onePairingRoster({ day1 });
  const next = new Date(Date.parse(`${day1}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  r.pairings[0]!.duty_periods[0]!.layover = {
    station: 'LHR',
    booking_required: true,
    checkin_time_local: `${day1}T20:00:00+00:00`,
    checkout_time_local: `${next}T09:00:00+00:00`,
  };
  return r;
}

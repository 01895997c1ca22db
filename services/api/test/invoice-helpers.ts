import { addDays, type http, onePairingRoster, waitFor, type Tenant } from '@crew/test-support';
import type { ScheduleSubmission } from '@crew/contracts';
import { api, roster, settled } from './bookings-stack';

/* The invoice tests' helpers: bookings made through rosters, invoices posted and waited for. */

export const PROPERTY = 'GDS-JFK-001';
export const usd = (amount: number) => ({ amount, currency: 'USD' });
export const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** One roster of several one-night JFK layovers of the same crew member, one pairing each. */
export function rosterOf(email: string, days: string[], nights: number[] = []): ScheduleSubmission {
  const base = onePairingRoster({ email, day1: days[0] });
  base.schedule_end_date = addDays(days[days.length - 1]!, 6);
  base.pairings = days.map((day, i) => {
    const p = onePairingRoster({ email, day1: day, pairing: `P${100 * (i + 1)}` }).pairings[0]!;
    const extra = nights[i] ?? 1;
    if (extra > 1) {
      // A longer layover: check-out (and the flight home) `extra` days after check-in.
      const out = addDays(day, extra);
      const dp = p.duty_periods[0]!;
      dp.layover!.checkout_time_local = `${out}T09:00:00-05:00`;
      const back = p.duty_periods[1]!;
      back.duty_date = out;
      back.fdp_start_local = `${out}T10:00:00-05:00`;
      back.fdp_end_local = `${out}T20:00:00+00:00`;
      back.legs[0]!.dep_time_local = `${out}T11:00:00-05:00`;
      back.legs[0]!.arr_time_local = `${out}T20:00:00+00:00`;
      p.check_out_local = `${out}T20:00:00+00:00`;
      p.tafb_hours = 36 + 24 * (extra - 1);
    }
    return p;
  });
  return base;
}

/** The roster's hotel bookings, settled, by check-in date. */
export async function hotelBookings(t: Tenant, body: ScheduleSubmission) {
  const r = await roster(t, body);
  const hotels = r.items.filter((i) => i.type === 'HOTEL');
  expect(hotels).toHaveLength(body.pairings.length);
  const booked: any[] = await Promise.all(hotels.map((h) => settled(t, h.booking_id!)));
  for (const b of booked) expect(b.status).toBe('CONFIRMED');
  return new Map<string, any>(booked.map((b) => [b.hotel.check_in_date as string, b]));
}

export type Line = Record<string, unknown>;
export const line = (n: number, l: Partial<Line>): Line => ({
  line_number: n,
  employee_id: 'E1',
  nights: 1,
  nightly_rate: usd(180),
  taxes: usd(20),
  ...l,
});

export async function post(t: Tenant, body: unknown, init: Parameters<typeof http>[1] = {}) {
  return api(t, '/crew/invoices', { method: 'POST', body, ...init });
}

/** Posts an invoice and waits until the worker has reconciled it. */
export async function reconciled(t: Tenant, body: { invoice_number: string; currency?: string; lines: Line[] }) {
  const res = await post(t, { property_id: PROPERTY, currency: 'USD', ...body });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ invoice_id: expect.any(String), status: 'RECONCILING' });
  return waitReconciled(t, res.body.invoice_id);
}

export async function waitReconciled(t: Tenant, invoiceId: string) {
  const invoice = await waitFor(
    async () => {
      const r = await api(t, `/crew/invoices/${invoiceId}`);
      expect(r.status).toBe(200);
      return r.body.status !== 'RECONCILING' && r.body;
    },
    20_000,
    () => `invoice ${invoiceId} to be reconciled`,
    100,
  );
  expect(invoice.status).toBe('RECONCILED');
  const lines = (await api(t, `/crew/invoices/${invoiceId}/lines?limit=200`)).body.lines as any[];
  return { invoice, lines, byNumber: new Map(lines.map((l) => [l.line_number as number, l])) };
}

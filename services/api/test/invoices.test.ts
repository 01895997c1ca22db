import { addDays, http, onePairingRoster, waitFor, type Tenant } from '@crew/test-support';
import type { ScheduleSubmission } from '@crew/contracts';
import { airline, api, roster, settled, stack, useBookingsStack } from './bookings-stack';

/*
 * Hotel invoices end to end: bookings made through rosters (sandbox hotel GDS-JFK-001, contract 180 USD a
 * night), invoices posted over HTTP, reconciled by the worker from the queue, read back over HTTP.
 */
useBookingsStack('invoices');

const PROPERTY = 'GDS-JFK-001';
const usd = (amount: number) => ({ amount, currency: 'USD' });
const eur = (amount: number) => ({ amount, currency: 'EUR' });

/** One roster of several one-night JFK layovers of the same crew member, one pairing each. */
function rosterOf(email: string, days: string[], nights: number[] = []): ScheduleSubmission {
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
async function hotelBookings(t: Tenant, body: ScheduleSubmission) {
  const r = await roster(t, body);
  const hotels = r.items.filter((i) => i.type === 'HOTEL');
  expect(hotels).toHaveLength(body.pairings.length);
  const booked: any[] = await Promise.all(hotels.map((h) => settled(t, h.booking_id!)));
  for (const b of booked) expect(b.status).toBe('CONFIRMED');
  return new Map<string, any>(booked.map((b) => [b.hotel.check_in_date as string, b]));
}

type Line = Record<string, unknown>;
const line = (n: number, l: Partial<Line>): Line => ({
  line_number: n,
  employee_id: 'E1',
  nights: 1,
  nightly_rate: usd(180),
  taxes: usd(20),
  ...l,
});

async function post(t: Tenant, body: unknown, init: Parameters<typeof http>[1] = {}) {
  return api(t, '/crew/invoices', { method: 'POST', body, ...init });
}

/** Posts an invoice and waits until the worker has reconciled it. */
async function reconciled(t: Tenant, body: { invoice_number: string; currency?: string; lines: Line[] }) {
  const res = await post(t, { property_id: PROPERTY, currency: 'USD', ...body });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ invoice_id: expect.any(String), status: 'RECONCILING' });
  return waitReconciled(t, res.body.invoice_id);
}

async function waitReconciled(t: Tenant, invoiceId: string) {
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

describe('hotel invoices', () => {
  it('gives every line exactly one status with its disputed amount; a night billed again on a later invoice is a duplicate', async () => {
    const { t, email } = await airline();
    const hook = await api(t, '/crew/webhooks', {
      method: 'POST',
      body: { url: 'http://127.0.0.1:9/hook', event_types: ['invoice.reconciled'] },
    });
    expect(hook.status).toBe(201);
    const stays = await hotelBookings(t, rosterOf(email, ['2027-03-10', '2027-03-15', '2027-03-20', '2027-03-25']));
    const [a, b, c, d] = ['2027-03-10', '2027-03-15', '2027-03-20', '2027-03-25'].map((day) => stays.get(day));
    // Cancelled well before the stay (the contract has no deadline): in time, nothing owed.
    const cancel = await api(t, `/crew/bookings/${c.booking_id}`, {
      method: 'DELETE',
      body: { reason: 'pairing sold' },
    });
    expect([200, 202]).toContain(cancel.status);
    expect((await settled(t, c.booking_id)).status).toBe('CANCELLED');
    expect(a.hotel.confirmation_number).toEqual(expect.any(String));

    const { invoice, lines, byNumber } = await reconciled(t, {
      invoice_number: 'INV-2027-03',
      lines: [
        line(1, {
          confirmation_number: a.hotel.confirmation_number,
          check_in_date: '2027-03-10',
          check_out_date: '2027-03-11',
        }),
        // The same night again, the guest as the hotel writes the name.
        line(2, {
          employee_id: undefined,
          guest_name: 'LOVELACE/ADA MS',
          check_in_date: '2027-03-10',
          check_out_date: '2027-03-11',
        }),
        line(3, {
          guest_name: 'Ada Lovelace',
          employee_id: undefined,
          check_in_date: '2027-03-15',
          check_out_date: '2027-03-16',
          nightly_rate: usd(200),
        }),
        line(4, { check_in_date: '2027-03-25', check_out_date: '2027-03-27', nights: 2, taxes: usd(0) }),
        line(5, {
          check_in_date: '2027-03-15',
          check_out_date: '2027-03-15',
          nights: 0,
          taxes: usd(0),
          fees: [{ type: 'NO_SHOW', amount: usd(180) }],
        }),
        line(6, {
          check_in_date: '2027-03-10',
          check_out_date: '2027-03-10',
          nights: 0,
          taxes: usd(0),
          fees: [{ type: 'INCIDENTAL', amount: usd(35) }],
        }),
        line(7, {
          check_in_date: '2027-03-20',
          check_out_date: '2027-03-20',
          nights: 0,
          taxes: usd(0),
          fees: [{ type: 'LATE_CANCEL', amount: usd(180) }],
        }),
        line(8, { employee_id: 'E9', check_in_date: '2027-03-10', check_out_date: '2027-03-11' }),
      ],
    });
    const expected: [number, string, string | null, number][] = [
      [1, 'MATCHED', a.booking_id, 0],
      [2, 'DUPLICATE_LINE', a.booking_id, 200],
      [3, 'RATE_MISMATCH', b.booking_id, 20],
      [4, 'NIGHTS_MISMATCH', d.booking_id, 180],
      [5, 'NO_SHOW_CHARGED', b.booking_id, 180],
      [6, 'INCIDENTAL_NOT_COVERED', a.booking_id, 35],
      [7, 'CHARGED_AFTER_TIMELY_CANCEL', c.booking_id, 180],
      [8, 'NO_BOOKING', null, 200],
    ];
    for (const [n, status, booking, disputed] of expected)
      expect(byNumber.get(n)).toMatchObject({ line_number: n, status, booking_id: booking, disputed: usd(disputed) });
    expect(lines).toHaveLength(8);
    expect(invoice).toMatchObject({
      invoice_number: 'INV-2027-03',
      property_id: PROPERTY,
      status: 'RECONCILED',
      error: null,
      line_count: 8,
      counts: {
        DUPLICATE_LINE: 1,
        NO_BOOKING: 1,
        CHARGED_AFTER_TIMELY_CANCEL: 1,
        NO_SHOW_CHARGED: 1,
        INCIDENTAL_NOT_COVERED: 1,
        NIGHTS_MISMATCH: 1,
        RATE_MISMATCH: 1,
        MATCHED: 1,
      },
      // 200 + 200 + 220 + 360 + 180 + 35 + 180 + 200
      total_billed: usd(1575),
      total_disputed: usd(995),
    });

    // Pages by line number, a status filter, and the CSV export.
    const first = (await api(t, `/crew/invoices/${invoice.invoice_id}/lines?limit=3`)).body;
    expect(first.lines.map((l: any) => l.line_number)).toEqual([1, 2, 3]);
    const second = (await api(t, `/crew/invoices/${invoice.invoice_id}/lines?limit=3&cursor=${first.next_cursor}`))
      .body;
    expect(second.lines.map((l: any) => l.line_number)).toEqual([4, 5, 6]);
    const rate = (await api(t, `/crew/invoices/${invoice.invoice_id}/lines?status=RATE_MISMATCH`)).body;
    expect(rate).toEqual({
      lines: [expect.objectContaining({ line_number: 3, status: 'RATE_MISMATCH' })],
      next_cursor: null,
    });
    const csv = await api(t, `/crew/invoices/${invoice.invoice_id}/lines.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = csv.text.trim().split('\r\n');
    expect(rows[0]).toBe(
      'line_number,status,booking_id,disputed_amount,disputed_currency,billed_amount,findings,needs_review',
    );
    expect(rows[3]).toBe(`3,RATE_MISMATCH,${b.booking_id},20,USD,220,RATE_MISMATCH 20,`);
    expect(rows).toHaveLength(9);

    // The invoice.reconciled event, written with the reconciliation.
    const events = await stack.database.db
      .selectFrom('webhook_events')
      .select(['type', 'data', 'links'])
      .where('airline_id', '=', t.airlineId)
      .where('type', '=', 'invoice.reconciled')
      .execute();
    expect(events).toEqual([
      {
        type: 'invoice.reconciled',
        data: expect.objectContaining({
          invoice_id: invoice.invoice_id,
          invoice_number: 'INV-2027-03',
          status: 'RECONCILED',
          line_count: 8,
          counts: invoice.counts,
          total_billed: usd(1575),
          total_disputed: usd(995),
        }),
        links: {
          invoice: `/api/v1/crew/invoices/${invoice.invoice_id}`,
          lines: `/api/v1/crew/invoices/${invoice.invoice_id}/lines`,
        },
      },
    ]);

    // A later invoice billing A's night again: a duplicate across invoices; B's no-show fee too.
    const later = await reconciled(t, {
      invoice_number: 'INV-2027-03-B',
      lines: [
        line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' }),
        line(2, {
          check_in_date: '2027-03-15',
          check_out_date: '2027-03-15',
          nights: 0,
          taxes: usd(0),
          fees: [{ type: 'NO_SHOW', amount: usd(50) }],
        }),
      ],
    });
    expect(later.lines.map((l) => [l.line_number, l.status, l.disputed.amount])).toEqual([
      [1, 'DUPLICATE_LINE', 200],
      [2, 'DUPLICATE_LINE', 50],
    ]);

    // The same number from the same hotel again: 409, nothing stored.
    const again = await post(t, {
      invoice_number: 'INV-2027-03',
      property_id: PROPERTY,
      currency: 'USD',
      lines: [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })],
    });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    // Another airline sees none of it.
    const other = await airline({ contract: false });
    expect((await api(other.t, `/crew/invoices/${invoice.invoice_id}`)).status).toBe(404);
    expect((await api(other.t, `/crew/invoices/${invoice.invoice_id}/lines`)).status).toBe(404);
    expect((await api(other.t, `/crew/invoices/${invoice.invoice_id}/lines.csv`)).status).toBe(404);
    // …and may use the same number for itself.
    expect(
      (
        await post(other.t, {
          invoice_number: 'INV-2027-03',
          property_id: PROPERTY,
          currency: 'USD',
          lines: [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })],
        })
      ).status,
    ).toBe(202);
  });

  it('a stay split across two month-end invoices is matched once per night; an invoice in EUR is compared at the operator’s rate', async () => {
    const { t, email } = await airline();
    const fx = await http(`${stack.apiUrl}/ops/v1/fx-rates/EUR`, {
      method: 'PUT',
      token: stack.opsToken,
      body: { rate: 1.1, as_of: '2027-01-01' },
    });
    expect(fx.status).toBe(200);
    const stays = await hotelBookings(t, rosterOf(email, ['2027-03-05', '2027-03-08', '2027-03-31'], [1, 1, 2]));
    const split = stays.get('2027-03-31')!;
    expect(split.hotel.check_out_date).toBe('2027-04-02');

    const march = await reconciled(t, {
      invoice_number: 'M-03',
      lines: [line(1, { check_in_date: '2027-03-31', check_out_date: '2027-04-01' })],
    });
    expect(march.byNumber.get(1)).toMatchObject({ status: 'MATCHED', booking_id: split.booking_id });
    // April's invoice writes the whole stay's dates but charges the one night still to bill.
    const april = await reconciled(t, {
      invoice_number: 'M-04',
      lines: [
        line(1, {
          guest_name: 'SMITH/ADA MS',
          employee_id: 'E1',
          check_in_date: '2027-03-31',
          check_out_date: '2027-04-02',
        }),
      ],
    });
    expect(april.byNumber.get(1)).toMatchObject({ status: 'MATCHED', booking_id: split.booking_id, disputed: usd(0) });

    // 180 USD is 163.64 EUR at 1.1: 170 EUR is above the contract by 6.36 EUR; 160 EUR is within it.
    const inEur = await reconciled(t, {
      invoice_number: 'M-EUR',
      currency: 'EUR',
      lines: [
        line(1, { check_in_date: '2027-03-05', check_out_date: '2027-03-06', nightly_rate: eur(170), taxes: eur(10) }),
        line(2, { check_in_date: '2027-03-08', check_out_date: '2027-03-09', nightly_rate: eur(160), taxes: eur(10) }),
      ],
    });
    expect(inEur.byNumber.get(1)).toMatchObject({ status: 'RATE_MISMATCH', disputed: eur(6.36) });
    expect(inEur.byNumber.get(2)).toMatchObject({ status: 'MATCHED', disputed: eur(0) });
    expect(inEur.invoice).toMatchObject({ total_billed: eur(350), total_disputed: eur(6.36) });
  });

  it('refuses a body with any bad line whole, naming each bad field, and stores nothing; takes the same lines as CSV', async () => {
    const { t, email } = await airline();
    await hotelBookings(t, rosterOf(email, ['2027-03-10']));
    const count = async () =>
      Number(
        (
          await stack.database.db
            .selectFrom('invoices')
            .select((e) => e.fn.countAll().as('n'))
            .where('airline_id', '=', t.airlineId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const good = (n: number) => line(n, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' });
    const bad = await post(t, {
      invoice_number: 'BAD-1',
      property_id: PROPERTY,
      currency: 'USD',
      lines: [
        good(1),
        good(2),
        { ...good(3), check_out_date: '2027-03-09' },
        { ...good(4), check_in_date: '2027-02-30' },
        { ...good(5), nightly_rate: eur(180), taxes: eur(20) },
        { ...good(2) },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.details).toEqual(
      expect.arrayContaining([
        { field: '/lines/2/check_out_date', issue: 'must be on or after check_in_date' },
        { field: '/lines/3/check_in_date', issue: 'must be a valid date' },
        { field: '/lines/4/nightly_rate/currency', issue: "must be the invoice's currency USD" },
        { field: '/lines/5/line_number', issue: 'is used by an earlier line' },
      ]),
    );
    expect(bad.body.error.details).toHaveLength(4);
    expect(await count()).toBe(0);

    // The same invoice as CSV: columns in any order, amounts in the invoice's currency.
    const header = 'line_number,guest_name,check_in_date,check_out_date,nights,nightly_rate,taxes,incidental_fee';
    const csvBody = [
      header,
      '1,"LOVELACE/ADA MS",2027-03-10,2027-03-11,1,180,20,',
      '2,Ada Lovelace,2027-03-10,2027-03-10,0,0,0,12.5',
    ].join('\r\n');
    const query = `invoice_number=CSV-1&property_id=${PROPERTY}&currency=USD`;
    const sent = await api(t, `/crew/invoices?${query}`, {
      method: 'POST',
      raw: csvBody,
      headers: { 'content-type': 'text/csv', 'idempotency-key': 'csv-1' },
    });
    expect(sent.status).toBe(202);
    const { invoice, lines } = await waitReconciled(t, sent.body.invoice_id);
    expect(invoice).toMatchObject({ line_count: 2, total_billed: usd(212.5), total_disputed: usd(12.5) });
    expect(lines.map((l) => [l.line_number, l.status])).toEqual([
      [1, 'MATCHED'],
      [2, 'INCIDENTAL_NOT_COVERED'],
    ]);
    // The same request again (Idempotency-Key): the first answer, nothing new.
    const replay = await api(t, `/crew/invoices?${query}`, {
      method: 'POST',
      raw: csvBody,
      headers: { 'content-type': 'text/csv', 'idempotency-key': 'csv-1' },
    });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(sent.body);
    expect(await count()).toBe(1);

    // A CSV fault is named by row (the header is row 1) and column; nothing is stored.
    const badCsv = [
      header,
      '1,Ada Lovelace,2027-03-10,2027-03-11,1,180,20,',
      '2,Ada Lovelace,2027-13-01,2027-03-11,one,180,20,',
    ].join('\n');
    const refused = await api(t, `/crew/invoices?invoice_number=CSV-2&property_id=${PROPERTY}&currency=USD`, {
      method: 'POST',
      raw: badCsv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details).toEqual([
      { field: '/rows/3/check_in_date', issue: 'must be a valid date' },
      { field: '/rows/3/nights', issue: 'must be integer' },
    ]);
    const noQuery = await api(t, '/crew/invoices', {
      method: 'POST',
      raw: badCsv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(noQuery.status).toBe(422);
    expect(noQuery.body.error.details.map((d: any) => d.field)).toEqual([
      'query.invoice_number',
      'query.property_id',
      'query.currency',
    ]);
    expect(await count()).toBe(1);
  });
});

import { http, onePairingRoster } from '@crew/test-support';
import { airline, api, roster, settled, stack, useBookingsStack } from './bookings-stack';
import { eur, hotelBookings, line, post, PROPERTY, reconciled, rosterOf, usd, type Line } from './invoice-helpers';

/*
 * Hotel invoices end to end: bookings made through rosters (sandbox hotel GDS-JFK-001, contract 180 USD a
 * night), invoices posted over HTTP, reconciled by the worker from the queue, read back over HTTP.
 */
useBookingsStack('invoices');

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

  it('a stay whose roster cancellation awaits review still holds its room: the hotel’s line is matched to it', async () => {
    const { t, email } = await airline({ settings: { cancellation_execution: false } });
    const kept = (await hotelBookings(t, rosterOf(email, ['2027-03-10']))).get('2027-03-10')!;
    // The next roster drops the layover (another crew member's pairing instead): its cancellation goes to review.
    await roster(t, onePairingRoster({ email, pairing: 'P200', employee: 'E9' }));
    const held = (await api(t, `/crew/bookings/${kept.booking_id}`)).body;
    expect(held).toMatchObject({
      status: 'NEEDS_REVIEW',
      hotel: { confirmation_number: kept.hotel.confirmation_number },
    });
    const { byNumber } = await reconciled(t, {
      invoice_number: 'REVIEW-1',
      lines: [
        line(1, {
          confirmation_number: kept.hotel.confirmation_number,
          check_in_date: '2027-03-10',
          check_out_date: '2027-03-11',
        }),
      ],
    });
    expect(byNumber.get(1)).toMatchObject({ status: 'MATCHED', booking_id: kept.booking_id, disputed: usd(0) });
  });

  it('reads only what an invoice’s lines can touch, yet a confirmation number still names an older stay and a no-show billed again under other dates is a duplicate', async () => {
    const { t, email } = await airline();
    const stays = await hotelBookings(t, rosterOf(email, ['2027-03-02', '2027-04-20']));
    const march = stays.get('2027-03-02')!;
    const april = stays.get('2027-04-20')!;
    const noShow = (n: number, day: string, over: Partial<Line> = {}) =>
      line(n, {
        check_in_date: day,
        check_out_date: day,
        nights: 0,
        taxes: usd(0),
        fees: [{ type: 'NO_SHOW', amount: usd(180) }],
        ...over,
      });
    const first = await reconciled(t, {
      invoice_number: 'NS-03',
      lines: [noShow(1, '2027-03-02', { confirmation_number: march.hotel.confirmation_number })],
    });
    expect(first.byNumber.get(1)).toMatchObject({ booking_id: march.booking_id });
    expect(first.byNumber.get(1).status).not.toBe('DUPLICATE_LINE');
    // April's invoice bills March's no-show again, dated in April, by March's confirmation number: only April's
    // stay overlaps its dates; March's is read by the number, and March's invoice's billed fee with it.
    const second = await reconciled(t, {
      invoice_number: 'NS-04',
      lines: [
        noShow(1, '2027-04-20', { confirmation_number: march.hotel.confirmation_number }),
        line(2, { check_in_date: '2027-04-20', check_out_date: '2027-04-21' }),
      ],
    });
    expect(second.byNumber.get(1)).toMatchObject({ status: 'DUPLICATE_LINE', booking_id: march.booking_id });
    expect(second.byNumber.get(2)).toMatchObject({ status: 'MATCHED', booking_id: april.booking_id });
  });
});

import { airline, api, stack, useBookingsStack } from './bookings-stack';
import { eur, hotelBookings, line, post, PROPERTY, rosterOf, usd, waitReconciled } from './invoice-helpers';

/* A hotel invoice's body: refused whole when any line is bad (JSON or CSV), taken as CSV, replayed by Idempotency-Key. */
useBookingsStack('invoice-bodies');

describe('hotel invoice bodies', () => {
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

  it('names a CSV fault by the file line its row starts on, across blank lines and a quoted cell with a line break', async () => {
    const { t } = await airline();
    const rows = [
      'line_number,guest_name,check_in_date,check_out_date,nights,nightly_rate,taxes',
      '',
      '1,Ada Lovelace,2027-02-30,2027-03-11,1,180,20',
      '2,"LOVELACE/',
      'ADA MS",2027-03-10,2027-03-11,1,180,20',
      '  ',
      '3,Ada Lovelace,2027-03-10,2027-03-11,one,180,20',
    ];
    for (const [n, eol] of [
      [1, '\n'],
      [2, '\r\n'],
    ] as const) {
      const refused = await api(t, `/crew/invoices?invoice_number=ROWS-${n}&property_id=${PROPERTY}&currency=USD`, {
        method: 'POST',
        raw: rows.join(eol),
        headers: { 'content-type': 'text/csv' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toEqual([
        { field: '/rows/3/check_in_date', issue: 'must be a valid date' },
        { field: '/rows/7/nights', issue: 'must be integer' },
      ]);
    }
  });

  it('refuses a line number or an amount beyond what is stored and summed (JSON and CSV), naming the field; nothing is stored', async () => {
    const { t, email } = await airline();
    await hotelBookings(t, rosterOf(email, ['2027-03-10']));
    const good = (n: number) => line(n, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' });
    const bad = await post(t, {
      invoice_number: 'HUGE-1',
      property_id: PROPERTY,
      currency: 'USD',
      lines: [
        // invoice_lines.line_number is a Postgres integer.
        good(2147483648),
        // A rate whose room-nights overflow to Infinity.
        { ...good(2), nights: 2, nightly_rate: usd(1e308) },
        { ...good(3), taxes: usd(1e13), fees: [{ type: 'INCIDENTAL', amount: usd(1e13) }] },
        good(2147483647),
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: any) => d.field)).toEqual([
      '/lines/0/line_number',
      '/lines/1/nightly_rate/amount',
      '/lines/2/taxes/amount',
      '/lines/2/fees/0/amount/amount',
    ]);
    const csv = [
      'line_number,employee_id,check_in_date,check_out_date,nights,nightly_rate,taxes,no_show_fee',
      `${'9'.repeat(400)},E1,2027-03-10,2027-03-11,1,180,20,`,
      `2,E1,2027-03-10,2027-03-11,2,1${'0'.repeat(308)},20,`,
      `3,E1,2027-03-10,2027-03-11,1,180,20,10000000000000`,
    ].join('\n');
    const refused = await api(t, `/crew/invoices?invoice_number=HUGE-2&property_id=${PROPERTY}&currency=USD`, {
      method: 'POST',
      raw: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details.map((d: any) => d.field)).toEqual([
      '/rows/2/line_number',
      '/rows/3/nightly_rate',
      '/rows/4/no_show_fee',
    ]);
    const stored = await stack.database.db
      .selectFrom('invoices')
      .select('invoice_id')
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('an error after the invoice committed: a retry with the same Idempotency-Key learns its invoice_id (202), not "already posted"', async () => {
    const { t, email } = await airline();
    await hotelBookings(t, rosterOf(email, ['2027-03-10']));
    const body = {
      invoice_number: 'AFTER-1',
      property_id: PROPERTY,
      currency: 'USD',
      lines: [line(1, { check_in_date: '2027-03-10', check_out_date: '2027-03-11' })],
    };
    const headers = { 'idempotency-key': 'after-commit' };
    // The relay's kick is the last step past the commit.
    jest.spyOn(stack.relay, 'kick').mockImplementationOnce(() => {
      throw new Error('after the commit');
    });
    expect((await post(t, body, { headers })).status).toBe(500);
    const [stored, ...more] = await stack.database.db
      .selectFrom('invoices')
      .select('invoice_id')
      .where('airline_id', '=', t.airlineId)
      .execute();
    expect(more).toEqual([]);
    const retry = await post(t, body, { headers });
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([202, 'true']);
    expect(retry.body).toEqual({ invoice_id: stored!.invoice_id, status: 'RECONCILING' });
  });
});

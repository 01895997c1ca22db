import fc from 'fast-check';
import {
  classifyInvoiceLine,
  indexInvoiceBookings,
  invoiceLineIssues,
  matchInvoiceLines,
  NO_FX_RATES,
  nightsOf,
  normaliseGuestName,
  roomNights,
  type InvoiceBooking,
  type InvoiceLine,
} from '../src';
import { booking, BOOKINGS, CONTRACTS, eur, gbp, HOTEL, line } from './invoice-fixtures';

describe('normaliseGuestName', () => {
  test('the usual spellings of one name are equal', () => {
    const keys = [
      'SMITH/JOHN MR',
      'SMITH/JOHNMR',
      'Smith, John',
      'John Smith',
      'MR JOHN SMITH',
      'Mr. John  Smith',
      'jöhn smíth',
      'Capt John Smith',
    ].map(normaliseGuestName);
    expect(new Set(keys)).toEqual(new Set(['john smith']));
  });

  test('accents and special letters fold; apostrophes and hyphens join', () => {
    expect(normaliseGuestName("O'BRIEN/SEAN MR")).toBe(normaliseGuestName('Seán O’Brien'));
    expect(normaliseGuestName('MULLERLUDENSCHEIDT/HANS')).toBe(normaliseGuestName('Hans Müller-Lüdenscheidt'));
    expect(normaliseGuestName('Søren Øster')).toBe('oster soren');
    expect(normaliseGuestName('STRAßE/ANNA MRS')).toBe(normaliseGuestName('Anna Strasse'));
  });

  test('different people stay apart; a given name ending like a title keeps its letters', () => {
    expect(normaliseGuestName('SMITH/JANE MS')).not.toBe(normaliseGuestName('John Smith'));
    expect(normaliseGuestName('IVANOV/ALEXANDR')).toBe('alexandr ivanov');
    expect(normaliseGuestName('JONES/WILLIAMS')).toBe('jones williams');
    expect(normaliseGuestName('MR')).toBe('');
  });
});

describe('batches', () => {
  // The batch's cost is measured by `npm run bench:invoices`, never timed in a test.
  test('20k lines against 20k bookings, indexed once: every line matched, each night billed once', () => {
    const n = 20_000;
    const bookings: InvoiceBooking[] = [];
    const lines: InvoiceLine[] = [];
    for (let i = 0; i < n; i++) {
      // Two-night stays: 20k crew, each at the hotel once.
      const day = `2026-0${1 + (i % 9)}-${10 + (i % 10)}`;
      const out = `2026-0${1 + (i % 9)}-${12 + (i % 10)}`;
      bookings.push(booking({ booking_id: `b${i}`, employee_id: `E${i}`, check_in_date: day, check_out_date: out }));
      lines.push(
        line({
          line_number: i + 1,
          employee_id: `E${i}`,
          check_in_date: day,
          check_out_date: out,
          nights: 2,
          taxes: gbp(0),
        }),
      );
    }
    const index = indexInvoiceBookings(bookings);
    const r = matchInvoiceLines({ property_id: HOTEL, lines }, index, new Set(), CONTRACTS, NO_FX_RATES);
    expect(r.lines.every((l) => l.status === 'MATCHED')).toBe(true);
    expect(r.billed_keys).toHaveLength(n * 2);
    expect(new Set(r.billed_keys).size).toBe(n * 2);
    expect(r.disputed).toEqual([gbp(0)]);
  });

  test('classifyInvoiceLine runs one line against a shared index and billed set', () => {
    const index = indexInvoiceBookings(BOOKINGS);
    const billed = new Set<string>();
    const ctx = { property_id: HOTEL, index, billed, contracts: CONTRACTS, fx: NO_FX_RATES };
    const first = classifyInvoiceLine(line({}), ctx);
    first.billed_keys.forEach((k) => billed.add(k));
    expect(classifyInvoiceLine(line({ line_number: 2 }), ctx).status).toBe('DUPLICATE_LINE');
  });
});

describe('nightsOf', () => {
  test('the same nights as roomNights, across month ends, year ends and 29 February', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: -2, max: 70 }), (offset, length) => {
        const day = (n: number) => new Date(Date.UTC(2023, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
        expect(nightsOf(day(offset), day(offset + length))).toEqual(roomNights(day(offset), day(offset + length)));
      }),
    );
    expect(nightsOf('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29']);
    expect(nightsOf('2026-12-31', '2027-01-02')).toEqual(['2026-12-31', '2027-01-01']);
  });

  test('a date that is no calendar day, or a check-out with a time, is walked as text as before', () => {
    expect(nightsOf('2027-02-30', '2027-03-02')).toEqual(['2027-02-30', '2027-03-01']);
    expect(nightsOf('2027-03-01', '2027-03-02T10:00')).toEqual(['2027-03-01', '2027-03-02']);
    expect(nightsOf('2027-03-02', '2027-03-01')).toEqual([]);
    expect(nightsOf('not a date', '2027-03-01')).toEqual([]);
  });
});

describe('invoiceLineIssues', () => {
  test('a valid line has none', () => {
    expect(invoiceLineIssues(line({ fees: [{ type: 'INCIDENTAL', amount: gbp(3) }] }))).toEqual([]);
  });

  test('a line number Postgres cannot store or an amount whose sums overflow is a fault of its field', () => {
    const fields = invoiceLineIssues(
      line({
        line_number: 2_147_483_648,
        nights: 367,
        nightly_rate: gbp(1e308),
        taxes: gbp(1e12 + 1),
        fees: [{ type: 'INCIDENTAL', amount: gbp(Infinity) }],
      }),
      '/lines/0',
    ).map((i) => i.field);
    expect(fields).toEqual([
      '/lines/0/line_number',
      '/lines/0/nights',
      '/lines/0/nightly_rate',
      '/lines/0/taxes',
      '/lines/0/fees/0/amount',
    ]);
    // The largest of each is a line.
    expect(invoiceLineIssues(line({ line_number: 2_147_483_647, nightly_rate: gbp(1e12), nights: 366 }))).toEqual([]);
  });

  test('each fault names its field', () => {
    const fields = invoiceLineIssues(
      {
        line_number: 0,
        check_in_date: '2026-03-12',
        check_out_date: '2026-03-10',
        nights: -1,
        nightly_rate: gbp(120),
        taxes: { amount: 'x' },
        fees: [{ type: 'MINIBAR', amount: eur(3) }],
      },
      '/lines/0',
    ).map((i) => i.field);
    expect(fields).toEqual([
      '/lines/0/line_number',
      '/lines/0/guest_name',
      '/lines/0/check_out_date',
      '/lines/0/nights',
      '/lines/0/taxes',
      '/lines/0/fees/0/type',
      '/lines/0/nightly_rate/currency',
    ]);
  });
});

import type { DateSpan } from '@crew/contracts';
import fc from 'fast-check';
import {
  addDays,
  confirmationReadKey,
  invoiceBilledSpan,
  indexInvoiceBookings,
  invoiceLookupSpan,
  matchInvoiceLines,
  NO_FX_RATES,
  type InvoiceBooking,
  type InvoiceLine,
  unsettledConfirmationKeys,
} from '../src';
import { CONTRACTS, gbp, HOTEL } from './invoice-fixtures';

/*
 * An invoice's reconciliation reads the stays its lines can be matched to (by dates: invoiceLookupSpan; beyond them,
 * by the confirmation numbers those leave unsettled: unsettledConfirmationKeys) and the nights billed by earlier
 * invoices whose span meets its own (invoiceBilledSpan), not the hotel's whole history. Matched against what those reads give, every line must come
 * out exactly as matched against everything.
 */

describe('invoiceLookupSpan', () => {
  const l = (check_in_date: string, check_out_date: string) => ({ check_in_date, check_out_date });

  test('from the earliest check-in to the latest check-out', () => {
    expect(invoiceLookupSpan([l('2027-03-05', '2027-03-07'), l('2027-02-27', '2027-03-02')])).toEqual({
      from: '2027-02-27',
      to: '2027-03-07',
    });
  });

  test('a line of fees only (no night) ends the day after its check-in', () => {
    expect(invoiceLookupSpan([l('2027-03-05', '2027-03-06'), l('2027-03-09', '2027-03-09')])).toEqual({
      from: '2027-03-05',
      to: '2027-03-10',
    });
    // Check-out before check-in (refused at intake, but the rule holds): still the day after the check-in.
    expect(invoiceLookupSpan([l('2027-03-09', '2027-03-01')])).toEqual({ from: '2027-03-09', to: '2027-03-10' });
  });

  test('no span (everything is read) without lines or with a date that is not a calendar date', () => {
    expect(invoiceLookupSpan([])).toBeNull();
    expect(invoiceLookupSpan([l('2027-02-30', '2027-03-02')])).toBeNull();
    expect(invoiceLookupSpan([l('2027-03-01', '03/02/2027')])).toBeNull();
  });
});

describe('confirmationReadKey', () => {
  test('the digits: what upper-casing and dropping spaces and hyphens never change', () => {
    expect(confirmationReadKey('abc-12 3')).toBe('123');
    expect(confirmationReadKey('ABC123')).toBe('123');
    expect(confirmationReadKey('NONE')).toBe('');
  });

  test('two numbers the matching takes as one have one key', () => {
    const separators = fc.constantFrom(' ', '-', '\t', '\u00a0', '\u2003', '');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 2 }), fc.boolean(), separators), { maxLength: 8 }),
        (parts) => {
          // The same number written two ways: each part in either case, separators of any kind between.
          const a = parts.map(([p, , s]) => p + s).join('');
          const b = parts.map(([p, upper]) => (upper ? p.toUpperCase() : p.toLowerCase())).join('-');
          const normal = (c: string) => c.toUpperCase().replace(/[\s-]/g, '');
          fc.pre(normal(a) === normal(b));
          expect(confirmationReadKey(a)).toBe(confirmationReadKey(b));
        },
      ),
    );
  });
});

// ---- the reads against the whole history ----

const EPOCH = '2026-01-01';
const employees = ['E1', 'E2', 'E3'];
const confirmations = ['AB-12', 'ab12', 'CD 34', 'XY', null];

const arbStay = fc.record({
  day: fc.integer({ min: 0, max: 700 }),
  nights: fc.integer({ min: 0, max: 5 }),
  employee: fc.constantFrom(...employees),
  confirmation: fc.constantFrom(...confirmations),
  status: fc.constantFrom('CONFIRMED', 'CONFIRMED', 'CANCELLED'),
  // Cancelled after the deadline with a penalty of one or two nights (none: in time).
  penalty: fc.constantFrom(0, 120, 240),
});

const arbLine = fc.record({
  day: fc.integer({ min: 0, max: 720 }),
  nights: fc.integer({ min: 0, max: 4 }),
  employee: fc.constantFrom(...employees, 'E9'),
  confirmation: fc.constantFrom(...confirmations, 'AB12', 'ZZ 99'),
  noShow: fc.constantFrom(0, 0, 60, 120),
  lateCancel: fc.constantFrom(0, 0, 60, 120),
  rate: fc.constantFrom(120, 150),
});

type StayDraw = typeof arbStay extends fc.Arbitrary<infer T> ? T : never;
type LineDraw = typeof arbLine extends fc.Arbitrary<infer T> ? T : never;

function stays(raw: StayDraw[]): InvoiceBooking[] {
  return raw.map((s, i) => ({
    booking_id: `b${String(i).padStart(3, '0')}`,
    status: s.status,
    property_id: HOTEL,
    contract_id: 7,
    employee_id: s.employee,
    confirmation_number: s.confirmation,
    check_in_date: addDays(EPOCH, s.day),
    check_out_date: addDays(EPOCH, s.day + s.nights),
    cancellation_penalty: s.status === 'CANCELLED' && s.penalty > 0 ? gbp(s.penalty) : null,
  }));
}

function lines(raw: LineDraw[]): InvoiceLine[] {
  return raw.map((l, i) => ({
    line_number: i + 1,
    employee_id: l.employee,
    confirmation_number: l.confirmation,
    check_in_date: addDays(EPOCH, l.day),
    check_out_date: addDays(EPOCH, l.day + l.nights),
    nights: l.nights,
    nightly_rate: gbp(l.rate),
    taxes: gbp(10),
    fees: [
      ...(l.noShow > 0 ? [{ type: 'NO_SHOW' as const, amount: gbp(l.noShow) }] : []),
      ...(l.lateCancel > 0 ? [{ type: 'LATE_CANCEL' as const, amount: gbp(l.lateCancel) }] : []),
    ],
  }));
}

/**
 * What the two stays reads give: the stays overlapping the lookup span, then, beyond it, those whose confirmation
 * number has a key the first read leaves unsettled.
 */
function staysRead(
  all: readonly InvoiceBooking[],
  invoiceLines: InvoiceLine[],
  span: DateSpan | null,
): InvoiceBooking[] {
  if (span === null) return [...all];
  const overlapping = (s: InvoiceBooking) => s.check_out_date > span.from && s.check_in_date < span.to;
  const first = all.filter(overlapping);
  const keys = unsettledConfirmationKeys(invoiceLines, HOTEL, indexInvoiceBookings(first));
  const beyond = all.filter(
    (s) =>
      !overlapping(s) && s.confirmation_number != null && keys.includes(confirmationReadKey(s.confirmation_number)),
  );
  return [...first, ...beyond];
}

const meets = (a: DateSpan | null, b: DateSpan | null) =>
  a === null || b === null || (a.from <= b.to && a.to >= b.from);

test('matched against what the reads give, every line of every invoice comes out as against everything', () => {
  fc.assert(
    fc.property(
      fc.array(arbStay, { maxLength: 40 }),
      fc.array(fc.array(arbLine, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      (rawStays, rawInvoices) => {
        const all = stays(rawStays);
        // Everything read: each invoice against every stay and every night billed before it.
        const billedAll = new Set<string>();
        // Read as reconciliation reads now: each earlier invoice's keys kept with its billed span.
        const earlier: { span: DateSpan | null; keys: string[] }[] = [];
        for (const rawLines of rawInvoices) {
          const invoiceLines = lines(rawLines);
          const whole = matchInvoiceLines(
            { property_id: HOTEL, lines: invoiceLines },
            all,
            billedAll,
            CONTRACTS,
            NO_FX_RATES,
          );
          const lookup = invoiceLookupSpan(invoiceLines);
          const read = staysRead(all, invoiceLines, lookup);
          const span = invoiceBilledSpan(lookup, read);
          const billed = new Set(earlier.filter((e) => meets(e.span, span)).flatMap((e) => e.keys));
          const bounded = matchInvoiceLines(
            { property_id: HOTEL, lines: invoiceLines },
            read,
            billed,
            CONTRACTS,
            NO_FX_RATES,
          );
          expect(bounded.lines).toEqual(whole.lines);
          for (const k of whole.billed_keys) billedAll.add(k);
          earlier.push({ span, keys: bounded.billed_keys });
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('a booking cancelled after the deadline is paid at most its penalty, over every line of every invoice', () => {
  fc.assert(
    fc.property(
      fc.array(arbStay, { maxLength: 40 }),
      fc.array(fc.array(arbLine, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      (rawStays, rawInvoices) => {
        const all = stays(rawStays);
        const penalty = new Map(
          all.filter((s) => s.cancellation_penalty).map((s) => [s.booking_id, s.cancellation_penalty!.amount]),
        );
        const paid = new Map<string, number>();
        const billed = new Set<string>();
        for (const rawLines of rawInvoices) {
          const invoiceLines = lines(rawLines);
          const r = matchInvoiceLines({ property_id: HOTEL, lines: invoiceLines }, all, billed, CONTRACTS, NO_FX_RATES);
          r.lines.forEach((res, i) => {
            if (res.booking_id === null || !penalty.has(res.booking_id)) return;
            const l = invoiceLines[i]!;
            // What the line charges on the cancelled booking, whatever the hotel calls it (room-nights, a
            // late-cancellation or a no-show fee), less what the airline disputes of it.
            const fees = (l.fees ?? [])
              .filter((f) => f.type === 'LATE_CANCEL' || f.type === 'NO_SHOW')
              .reduce((t, f) => t + f.amount.amount, 0);
            const charged = l.nightly_rate.amount * l.nights + fees;
            const disputedWhole = res.findings.some((f) =>
              ['DUPLICATE_LINE', 'NO_BOOKING', 'CHARGED_AFTER_TIMELY_CANCEL', 'INCIDENTAL_NOT_COVERED'].includes(
                f.status,
              ),
            );
            const above = res.findings
              .filter((f) => f.status === 'RATE_MISMATCH' || f.status === 'NO_SHOW_CHARGED')
              .reduce((t, f) => t + f.disputed.amount, 0);
            paid.set(res.booking_id, (paid.get(res.booking_id) ?? 0) + (disputedWhole ? 0 : charged - above));
          });
          for (const k of r.billed_keys) billed.add(k);
        }
        for (const [bookingId, amount] of paid) expect(amount).toBeLessThanOrEqual(penalty.get(bookingId)! + 0.005);
      },
    ),
    { numRuns: 300 },
  );
});

test('a penalty charged in parts, on lines of any invoices and under any name, is paid whole: nothing disputed', () => {
  // A three-night stay cancelled after the deadline with a two-night penalty (GBP 240, one of the arbitrary lines'
  // room-nights is 120).
  const stay: InvoiceBooking = {
    booking_id: 'b-late',
    status: 'CANCELLED',
    property_id: HOTEL,
    contract_id: 7,
    employee_id: 'E1',
    check_in_date: '2026-03-10',
    check_out_date: '2026-03-13',
    cancellation_penalty: gbp(240),
  };
  const arbPart = fc.record({
    kind: fc.constantFrom('NIGHT', 'LATE_CANCEL', 'NO_SHOW'),
    amount: fc.integer({ min: 1, max: 24_000 }).map((cents) => cents / 100),
    invoice: fc.integer({ min: 0, max: 2 }),
  });
  fc.assert(
    fc.property(fc.array(arbPart, { minLength: 1, maxLength: 6 }), (parts) => {
      // Each part's share of the penalty: the parts scaled to add up to at most 240, in whole pennies.
      const total = parts.reduce((t, p) => t + p.amount, 0);
      const scale = total > 240 ? 240 / total : 1;
      const billed = new Set<string>();
      let nights = 0;
      for (let invoice = 0; invoice <= 2; invoice++) {
        const invoiceLines: InvoiceLine[] = parts
          .map((p, i) => ({ p, i }))
          .filter(({ p }) => p.invoice === invoice)
          .map(({ p, i }) => {
            const amount = Math.floor(p.amount * scale * 100) / 100;
            // A room-night line bills the stay's next night (each of its nights once).
            const night = p.kind === 'NIGHT' && nights < 3 ? addDays(stay.check_in_date, nights++) : null;
            return {
              line_number: i + 1,
              employee_id: 'E1',
              check_in_date: night ?? stay.check_in_date,
              check_out_date: night ? addDays(night, 1) : stay.check_in_date,
              nights: night ? 1 : 0,
              nightly_rate: gbp(night ? amount : 0),
              taxes: gbp(0),
              fees: night ? [] : [{ type: p.kind === 'NO_SHOW' ? 'NO_SHOW' : 'LATE_CANCEL', amount: gbp(amount) }],
            };
          });
        if (invoiceLines.length === 0) continue;
        const r = matchInvoiceLines(
          { property_id: HOTEL, lines: invoiceLines },
          [stay],
          billed,
          CONTRACTS,
          NO_FX_RATES,
        );
        for (const res of r.lines) {
          expect(res.booking_id).toBe('b-late');
          expect(res.disputed).toEqual(gbp(0));
          expect(['MATCHED', 'NO_SHOW_CHARGED']).toContain(res.status);
        }
        for (const k of r.billed_keys) billed.add(k);
      }
    }),
    { numRuns: 300 },
  );
});

import {
  fxTable,
  INVOICE_LINE_STATUSES,
  invoiceLineTotal,
  matchInvoiceLines,
  movedAwayStay,
  NO_FX_RATES,
  type InvoiceLine,
} from '../src';
import { booking, BOOKINGS, CONTRACT, CONTRACTS, eur, gbp, HOTEL, line, match, one } from './invoice-fixtures';

describe('classification: one status per line', () => {
  test('the statuses, in the order they are tried', () => {
    expect(INVOICE_LINE_STATUSES).toEqual([
      'DUPLICATE_LINE',
      'NO_BOOKING',
      'CHARGED_AFTER_TIMELY_CANCEL',
      'NO_SHOW_CHARGED',
      'INCIDENTAL_NOT_COVERED',
      'NIGHTS_MISMATCH',
      'RATE_MISMATCH',
      'MATCHED',
    ]);
  });

  test('MATCHED: the booked nights at the contracted rate; nothing disputed', () => {
    expect(one({})).toMatchObject({
      status: 'MATCHED',
      booking_id: 'b-smith',
      disputed: gbp(0),
      nights_billed: 2,
      billed_dates: ['2026-03-10', '2026-03-11'],
      billed_keys: ['b-smith|2026-03-10', 'b-smith|2026-03-11'],
      findings: [],
      needs_review: [],
    });
  });

  test('DUPLICATE_LINE: nights billed by an earlier line of the invoice; the whole line', () => {
    const r = match([line({}), line({ line_number: 2, taxes: gbp(30) })]).lines;
    expect(r.map((l) => l.status)).toEqual(['MATCHED', 'DUPLICATE_LINE']);
    expect(r[1]!.disputed).toEqual(gbp(270));
    // One night of the two already billed is enough.
    const partly = match([line({ check_out_date: '2026-03-11', nights: 1 }), line({ line_number: 2 })]).lines;
    expect(partly[1]).toMatchObject({ status: 'DUPLICATE_LINE', disputed: gbp(264) });
  });

  test('DUPLICATE_LINE: nights billed by an earlier invoice of the airline', () => {
    const first = match([line({})]);
    const again = match([line({})], { billed: new Set(first.billed_keys) }).lines[0]!;
    expect(again).toMatchObject({ status: 'DUPLICATE_LINE', disputed: gbp(264), booking_id: 'b-smith' });
  });

  test('NO_BOOKING: no booking of the guest at the hotel on those nights; the whole line', () => {
    expect(one({ employee_id: 'E99' })).toMatchObject({ status: 'NO_BOOKING', booking_id: null, disputed: gbp(264) });
    expect(one({ check_in_date: '2026-03-12', check_out_date: '2026-03-14' })).toMatchObject({ status: 'NO_BOOKING' });
    // Another hotel's booking does not match.
    const elsewhere = matchInvoiceLines(
      { property_id: 'LGW-OTHER', lines: [line({})] },
      BOOKINGS,
      new Set(),
      CONTRACTS,
      NO_FX_RATES,
    );
    expect(elsewhere.lines[0]!.status).toBe('NO_BOOKING');
  });

  test('CHARGED_AFTER_TIMELY_CANCEL: any charge on a booking cancelled in time; the whole line', () => {
    const fee = one({
      employee_id: 'E2',
      check_in_date: '2026-03-15',
      check_out_date: '2026-03-16',
      nights: 0,
      taxes: gbp(0),
      fees: [{ type: 'LATE_CANCEL', amount: gbp(120) }],
    });
    expect(fee).toMatchObject({ status: 'CHARGED_AFTER_TIMELY_CANCEL', booking_id: 'b-timely', disputed: gbp(120) });
    const night = one({ employee_id: 'E2', check_in_date: '2026-03-15', check_out_date: '2026-03-16', nights: 1 });
    expect(night).toMatchObject({ status: 'CHARGED_AFTER_TIMELY_CANCEL', disputed: gbp(144) });
    const nothing = one({
      employee_id: 'E2',
      check_in_date: '2026-03-15',
      check_out_date: '2026-03-16',
      nights: 0,
      taxes: gbp(0),
    });
    expect(nothing).toMatchObject({ status: 'MATCHED', disputed: gbp(0) });
  });

  test('NO_SHOW_CHARGED: a no-show fee; the part above the contract’s no_show_fee is disputed', () => {
    const noShow = (amount: number) =>
      one({
        employee_id: 'E5',
        check_in_date: '2026-03-25',
        check_out_date: '2026-03-27',
        nights: 0,
        taxes: gbp(0),
        fees: [{ type: 'NO_SHOW', amount: gbp(amount) }],
      });
    expect(noShow(200)).toMatchObject({ status: 'NO_SHOW_CHARGED', booking_id: 'b-noshow', disputed: gbp(80) });
    expect(noShow(120)).toMatchObject({ status: 'NO_SHOW_CHARGED', disputed: gbp(0) });
    // No no-show fee in the contract: the airline agreed to none, all of it is disputed.
    const none = new Map([['7', { ...CONTRACT, cancellation_terms: null }]]);
    expect(
      one(
        {
          employee_id: 'E5',
          check_in_date: '2026-03-25',
          check_out_date: '2026-03-27',
          nights: 0,
          taxes: gbp(0),
          fees: [{ type: 'NO_SHOW', amount: gbp(200) }],
        },
        { contracts: none },
      ),
    ).toMatchObject({ status: 'NO_SHOW_CHARGED', disputed: gbp(200) });
  });

  test('INCIDENTAL_NOT_COVERED: incidentals the contract does not cover; the whole line', () => {
    const l = { fees: [{ type: 'INCIDENTAL' as const, amount: gbp(15) }] };
    expect(one(l)).toMatchObject({ status: 'INCIDENTAL_NOT_COVERED', disputed: gbp(279) });
    const covered = new Map([['7', { ...CONTRACT, incidentals_covered: true }]]);
    expect(one(l, { contracts: covered })).toMatchObject({ status: 'MATCHED', disputed: gbp(0) });
  });

  test('NIGHTS_MISMATCH: nights beyond the booking, at the billed rate', () => {
    expect(one({ check_out_date: '2026-03-13', nights: 3, taxes: gbp(36) })).toMatchObject({
      status: 'NIGHTS_MISMATCH',
      disputed: gbp(120),
    });
    // More nights charged than the dates hold.
    expect(one({ nights: 3 })).toMatchObject({ status: 'NIGHTS_MISMATCH', disputed: gbp(120) });
  });

  test('RATE_MISMATCH: (billed − contracted) × nights', () => {
    expect(one({ nightly_rate: gbp(130) })).toMatchObject({ status: 'RATE_MISMATCH', disputed: gbp(20) });
    // Below the contract is not disputed.
    expect(one({ nightly_rate: gbp(110) })).toMatchObject({ status: 'MATCHED', disputed: gbp(0) });
  });

  test('RATE_MISMATCH: a rate period changing mid-stay is compared night by night', () => {
    const periods = new Map([
      [
        '7',
        {
          ...CONTRACT,
          rate_periods: [
            { effective_from: '2026-01-01', effective_to: '2026-03-10', rate: gbp(120) },
            { effective_from: '2026-03-11', effective_to: '2026-12-31', rate: gbp(125) },
          ],
        },
      ],
    ]);
    expect(one({ nightly_rate: gbp(125) }, { contracts: periods })).toMatchObject({
      status: 'RATE_MISMATCH',
      disputed: gbp(5),
    });
  });

  test('a booking cancelled after the deadline owes its recorded fee; more is RATE_MISMATCH', () => {
    const late = (amount: number) =>
      one({
        employee_id: 'E3',
        check_in_date: '2026-03-20',
        check_out_date: '2026-03-21',
        nights: 0,
        taxes: gbp(0),
        fees: [{ type: 'LATE_CANCEL', amount: gbp(amount) }],
      });
    expect(late(120)).toMatchObject({ status: 'MATCHED', booking_id: 'b-late', disputed: gbp(0) });
    expect(late(150)).toMatchObject({ status: 'RATE_MISMATCH', disputed: gbp(30) });
    // The same fee billed as the night itself.
    expect(
      one({ employee_id: 'E3', check_in_date: '2026-03-20', check_out_date: '2026-03-21', nights: 1 }).status,
    ).toBe('MATCHED');
  });
});

describe('a late-cancellation fee is paid once per booking', () => {
  const onLate = (over: Partial<InvoiceLine>) =>
    line({ employee_id: 'E3', check_in_date: '2026-03-20', check_out_date: '2026-03-21', taxes: gbp(0), ...over });
  const lateFee = [{ type: 'LATE_CANCEL' as const, amount: gbp(120) }];

  test('billed as a room-night, then again as a fee: the fee is a duplicate', () => {
    const r = match([onLate({ nights: 1 }), onLate({ line_number: 2, nights: 0, fees: lateFee })]).lines;
    expect(r.map((l) => [l.status, l.disputed])).toEqual([
      ['MATCHED', gbp(0)],
      ['DUPLICATE_LINE', gbp(120)],
    ]);
    expect(r[0]!.billed_keys).toContain('b-late|LATE_CANCEL');
    // The other way round too.
    const fee = match([onLate({ nights: 0, fees: lateFee }), onLate({ line_number: 2, nights: 1 })]).lines;
    expect(fee.map((l) => l.status)).toEqual(['MATCHED', 'DUPLICATE_LINE']);
  });

  // A three-night stay cancelled after the deadline with a one-night fee.
  const threeNights = [
    booking({
      booking_id: 'b-late3',
      employee_id: 'E8',
      status: 'CANCELLED',
      check_in_date: '2026-01-30',
      check_out_date: '2026-02-02',
      cancellation_penalty: gbp(120),
    }),
  ];
  const night = (line_number: number, check_in_date: string, check_out_date: string) =>
    line({ line_number, employee_id: 'E8', check_in_date, check_out_date, nights: 1, taxes: gbp(0) });
  const run = (lines: InvoiceLine[], billed: ReadonlySet<string> = new Set()) =>
    matchInvoiceLines({ property_id: HOTEL, lines }, threeNights, billed, CONTRACTS, NO_FX_RATES);

  test('billed as three one-night lines: the penalty once, the other nights disputed', () => {
    const r = run([
      night(1, '2026-01-30', '2026-01-31'),
      night(2, '2026-01-31', '2026-02-01'),
      night(3, '2026-02-01', '2026-02-02'),
    ]);
    expect(r.lines.map((l) => l.status)).toEqual(['MATCHED', 'DUPLICATE_LINE', 'DUPLICATE_LINE']);
    expect(r.disputed).toEqual([gbp(240)]);
  });

  test('split across two month-end invoices: the second invoice finds the penalty paid', () => {
    const jan = run([night(1, '2026-01-30', '2026-01-31'), night(2, '2026-01-31', '2026-02-01')]);
    expect(jan.lines.map((l) => l.status)).toEqual(['MATCHED', 'DUPLICATE_LINE']);
    const feb = run([night(1, '2026-02-01', '2026-02-02')], new Set(jan.billed_keys));
    expect(feb.lines[0]).toMatchObject({ status: 'DUPLICATE_LINE', disputed: gbp(120) });
  });
});

describe('a penalty of several nights is an amount paid over the lines that charge it', () => {
  // A three-night stay cancelled after the deadline with a two-night fee: GBP 240.
  const twoNightFee = [
    booking({
      booking_id: 'b-late2',
      employee_id: 'E8',
      status: 'CANCELLED',
      check_in_date: '2026-01-30',
      check_out_date: '2026-02-02',
      cancellation_penalty: gbp(240),
    }),
  ];
  const night = (line_number: number, check_in_date: string, check_out_date: string, rate = 120) =>
    line({
      line_number,
      employee_id: 'E8',
      check_in_date,
      check_out_date,
      nights: 1,
      nightly_rate: gbp(rate),
      taxes: gbp(0),
    });
  const fees = (line_number: number, ...charged: ['NO_SHOW' | 'LATE_CANCEL', number][]) =>
    line({
      line_number,
      employee_id: 'E8',
      check_in_date: '2026-01-30',
      check_out_date: '2026-01-30',
      nights: 0,
      taxes: gbp(0),
      fees: charged.map(([type, amount]) => ({ type, amount: gbp(amount) })),
    });
  const run = (lines: InvoiceLine[], billed: ReadonlySet<string> = new Set()) =>
    matchInvoiceLines({ property_id: HOTEL, lines }, twoNightFee, billed, CONTRACTS, NO_FX_RATES);
  const outcome = (r: ReturnType<typeof run>) => r.lines.map((l) => [l.status, l.disputed.amount]);

  test('two one-night lines pay it; a third line charging it again is a duplicate', () => {
    const r = run([
      night(1, '2026-01-30', '2026-01-31'),
      night(2, '2026-01-31', '2026-02-01'),
      night(3, '2026-02-01', '2026-02-02'),
    ]);
    expect(outcome(r)).toEqual([
      ['MATCHED', 0],
      ['MATCHED', 0],
      ['DUPLICATE_LINE', 120],
    ]);
    expect(r.lines[1]!.billed_keys).toContain('b-late2|LATE_CANCEL');
  });

  test('a line charging more than the penalty leaves: the part above it', () => {
    const r = run([night(1, '2026-01-30', '2026-01-31'), night(2, '2026-01-31', '2026-02-01', 150)]);
    expect(outcome(r)).toEqual([
      ['MATCHED', 0],
      ['RATE_MISMATCH', 30],
    ]);
  });

  test('whatever the fees are called: a late fee and a no-show fee share the penalty', () => {
    const r = run([fees(1, ['LATE_CANCEL', 100]), fees(2, ['NO_SHOW', 100]), fees(3, ['LATE_CANCEL', 100])]);
    expect(outcome(r)).toEqual([
      ['MATCHED', 0],
      ['NO_SHOW_CHARGED', 0],
      ['RATE_MISMATCH', 60],
    ]);
    // A no-show fee is allowed what is left after the line's late fee and the earlier lines.
    const oneLine = run([fees(1, ['LATE_CANCEL', 100]), fees(2, ['LATE_CANCEL', 100], ['NO_SHOW', 100])]);
    expect(oneLine.lines[1]!.findings).toEqual([{ status: 'NO_SHOW_CHARGED', disputed: gbp(60) }]);
  });

  test('split across two month-end invoices: the second invoice pays what the first left', () => {
    const jan = run([night(1, '2026-01-30', '2026-01-31')]);
    expect(outcome(jan)).toEqual([['MATCHED', 0]]);
    const feb = run([night(1, '2026-01-31', '2026-02-01'), fees(2, ['LATE_CANCEL', 20])], new Set(jan.billed_keys));
    expect(outcome(feb)).toEqual([
      ['MATCHED', 0],
      ['DUPLICATE_LINE', 20],
    ]);
    // 120 of 240 left: more than that is disputed.
    const dear = run([night(1, '2026-01-31', '2026-02-01', 130)], new Set(jan.billed_keys));
    expect(outcome(dear)).toEqual([['RATE_MISMATCH', 10]]);
    // Keys stored by an earlier release: the late-cancellation key alone says the penalty was paid.
    const before = run([night(1, '2026-01-31', '2026-02-01')], new Set(['b-late2|LATE_CANCEL']));
    expect(outcome(before)).toEqual([['DUPLICATE_LINE', 120]]);
  });

  test('billed in another currency: what is paid is kept in the penalty’s', () => {
    // 140 EUR = 120 GBP.
    const fx = fxTable([
      { currency: 'EUR', rate: 1.08, as_of: '2026-01-01' },
      { currency: 'GBP', rate: 1.26, as_of: '2026-01-01' },
    ]);
    const inEur = (n: number, checkIn: string, checkOut: string) => ({
      ...night(n, checkIn, checkOut),
      nightly_rate: eur(140),
      taxes: eur(0),
    });
    const jan = matchInvoiceLines(
      { property_id: HOTEL, lines: [inEur(1, '2026-01-30', '2026-01-31')] },
      twoNightFee,
      new Set(),
      CONTRACTS,
      fx,
    );
    expect(jan.lines[0]).toMatchObject({ status: 'MATCHED', disputed: eur(0) });
    expect(jan.billed_keys).toContain('b-late2|LATE_CANCEL:120');
    const feb = matchInvoiceLines(
      { property_id: HOTEL, lines: [inEur(1, '2026-01-31', '2026-02-01'), inEur(2, '2026-02-01', '2026-02-02')] },
      twoNightFee,
      new Set(jan.billed_keys),
      CONTRACTS,
      fx,
    );
    expect(feb.lines.map((l) => [l.status, l.disputed])).toEqual([
      ['MATCHED', eur(0)],
      ['DUPLICATE_LINE', eur(140)],
    ]);
  });
});

describe('on a booking cancelled after the deadline, a no-show fee is its penalty', () => {
  // b-late: cancelled late, penalty GBP 120; the contract's no-show fee is one night (GBP 120) too.
  const onLate = (over: Partial<InvoiceLine>) =>
    line({ employee_id: 'E3', check_in_date: '2026-03-20', check_out_date: '2026-03-21', taxes: gbp(0), ...over });
  const fee = (type: 'NO_SHOW' | 'LATE_CANCEL', amount = 120) => ({ type, amount: gbp(amount) });

  test('a late-cancellation fee, then a no-show fee: the no-show fee is a duplicate', () => {
    const r = match([
      onLate({ nights: 0, fees: [fee('LATE_CANCEL')] }),
      onLate({ line_number: 2, nights: 0, fees: [fee('NO_SHOW')] }),
    ]).lines;
    expect(r.map((l) => [l.status, l.disputed])).toEqual([
      ['MATCHED', gbp(0)],
      ['DUPLICATE_LINE', gbp(120)],
    ]);
  });

  test('a no-show fee, then the penalty as a fee or as the night: each later line is a duplicate', () => {
    const r = match([
      onLate({ nights: 0, fees: [fee('NO_SHOW')] }),
      onLate({ line_number: 2, nights: 0, fees: [fee('LATE_CANCEL')] }),
      onLate({ line_number: 3, nights: 1 }),
    ]).lines;
    expect(r.map((l) => [l.status, l.disputed])).toEqual([
      ['NO_SHOW_CHARGED', gbp(0)],
      ['DUPLICATE_LINE', gbp(120)],
      ['DUPLICATE_LINE', gbp(120)],
    ]);
    expect(r[0]!.billed_keys).toEqual(['b-late|LATE_CANCEL']);
  });

  test('on a later invoice: the penalty was paid', () => {
    const first = match([onLate({ nights: 0, fees: [fee('LATE_CANCEL')] })]);
    const again = match([onLate({ nights: 0, fees: [fee('NO_SHOW')] })], { billed: new Set(first.billed_keys) });
    expect(again.lines[0]).toMatchObject({ status: 'DUPLICATE_LINE', disputed: gbp(120) });
  });

  test('on one line with the night or a late fee: the part above the penalty is disputed', () => {
    // The no-show fee is allowed what the penalty leaves after the night: nothing.
    const withNight = one({ ...onLate({ nights: 1, fees: [fee('NO_SHOW')] }) });
    expect(withNight).toMatchObject({ status: 'NO_SHOW_CHARGED', disputed: gbp(120) });
    expect(withNight.findings).toEqual([{ status: 'NO_SHOW_CHARGED', disputed: gbp(120) }]);
    const withFee = one({ ...onLate({ nights: 0, fees: [fee('LATE_CANCEL'), fee('NO_SHOW', 50)] }) });
    expect(withFee).toMatchObject({ status: 'NO_SHOW_CHARGED', disputed: gbp(50) });
    // A late fee above the penalty is that rule's part; the no-show fee is all above it.
    const both = one({ ...onLate({ nights: 0, fees: [fee('LATE_CANCEL', 150), fee('NO_SHOW', 50)] }) });
    expect(both.findings).toEqual([
      { status: 'NO_SHOW_CHARGED', disputed: gbp(50) },
      { status: 'RATE_MISMATCH', disputed: gbp(30) },
    ]);
    expect(both.disputed).toEqual(gbp(80));
  });

  test('compared with the penalty, not the contract’s no-show fee', () => {
    // The contract allows a no-show GBP 300; the booking owes its penalty of GBP 120.
    const generous = new Map([
      [
        '7',
        {
          ...CONTRACT,
          cancellation_terms: {
            ...CONTRACT.cancellation_terms!,
            no_show_fee: { type: 'AMOUNT' as const, amount: gbp(300) },
          },
        },
      ],
    ]);
    expect(one({ ...onLate({ nights: 0, fees: [fee('NO_SHOW', 200)] }) }, { contracts: generous })).toMatchObject({
      status: 'NO_SHOW_CHARGED',
      disputed: gbp(80),
    });
    // Within the penalty: nothing is disputed, whatever the contract's no-show fee.
    expect(one({ ...onLate({ nights: 0, fees: [fee('NO_SHOW', 100)] }) })).toMatchObject({
      status: 'NO_SHOW_CHARGED',
      disputed: gbp(0),
    });
  });
});

describe('when two rules apply, the first names the line', () => {
  test('a duplicate over anything else', () => {
    const r = match([line({}), line({ line_number: 2, nightly_rate: gbp(150) })]).lines[1]!;
    expect(r.status).toBe('DUPLICATE_LINE');
    expect(r.disputed).toEqual(gbp(324));
  });

  test('a duplicate over an unmatched line (the same unknown guest billed twice)', () => {
    const r = match([line({ employee_id: 'E99' }), line({ line_number: 2, employee_id: 'E99' })]).lines;
    expect(r.map((l) => l.status)).toEqual(['NO_BOOKING', 'DUPLICATE_LINE']);
  });

  test('a charge after a timely cancel over a no-show fee', () => {
    const r = one({
      employee_id: 'E2',
      check_in_date: '2026-03-15',
      check_out_date: '2026-03-16',
      nights: 0,
      taxes: gbp(0),
      fees: [{ type: 'NO_SHOW', amount: gbp(120) }],
    });
    expect(r).toMatchObject({ status: 'CHARGED_AFTER_TIMELY_CANCEL', disputed: gbp(120) });
  });

  test('a no-show fee over an uncovered incidental: the whole line is disputed (the incidental’s rule)', () => {
    const r = one({
      employee_id: 'E5',
      check_in_date: '2026-03-25',
      check_out_date: '2026-03-27',
      nights: 0,
      taxes: gbp(0),
      fees: [
        { type: 'NO_SHOW', amount: gbp(200) },
        { type: 'INCIDENTAL', amount: gbp(10) },
      ],
    });
    expect(r.status).toBe('NO_SHOW_CHARGED');
    expect(r.findings.map((f) => f.status)).toEqual(['NO_SHOW_CHARGED', 'INCIDENTAL_NOT_COVERED']);
    expect(r.disputed).toEqual(gbp(210));
  });

  test('extra nights over a rate above the contract: both parts are disputed, once each', () => {
    const r = one({ check_out_date: '2026-03-13', nights: 3, nightly_rate: gbp(130) });
    expect(r.status).toBe('NIGHTS_MISMATCH');
    expect(r.findings).toEqual([
      { status: 'NIGHTS_MISMATCH', disputed: gbp(130) },
      { status: 'RATE_MISMATCH', disputed: gbp(20) },
    ]);
    expect(r.disputed).toEqual(gbp(150));
  });
});

describe('matching a line to its booking', () => {
  test('by the name however the hotel writes it', () => {
    for (const guest_name of ['SMITH/JOHN MR', 'Smith, John', 'MR JOHN SMITH', 'john smith'])
      expect(one({ employee_id: null, guest_name })).toMatchObject({ status: 'MATCHED', booking_id: 'b-smith' });
  });

  test('by confirmation number first, whatever the guest field says', () => {
    expect(one({ employee_id: 'E99', confirmation_number: 'abc-123' })).toMatchObject({ booking_id: 'b-smith' });
    // An unknown confirmation number falls back to the guest.
    expect(one({ confirmation_number: 'ZZZ' })).toMatchObject({ booking_id: 'b-smith', status: 'MATCHED' });
  });

  test('a stay split across two month-end invoices is billed once, night by night', () => {
    const jan = match([
      line({ employee_id: 'E4', check_in_date: '2026-01-30', check_out_date: '2026-02-01', taxes: gbp(0) }),
    ]);
    expect(jan.lines[0]).toMatchObject({
      status: 'MATCHED',
      booking_id: 'b-split',
      billed_dates: ['2026-01-30', '2026-01-31'],
    });
    const billed = new Set(jan.billed_keys);
    const feb = match(
      [line({ employee_id: 'E4', check_in_date: '2026-02-01', check_out_date: '2026-02-02', nights: 1 })],
      { billed },
    );
    expect(feb.lines[0]).toMatchObject({ status: 'MATCHED', booking_id: 'b-split', billed_dates: ['2026-02-01'] });
    // The February line written with the whole stay's dates bills the night not billed yet.
    const whole = match(
      [line({ employee_id: 'E4', check_in_date: '2026-01-30', check_out_date: '2026-02-02', nights: 1 })],
      {
        billed,
      },
    );
    expect(whole.lines[0]).toMatchObject({ status: 'MATCHED', billed_dates: ['2026-02-01'] });
    // January's line sent again in February is a duplicate.
    const again = match(
      [line({ employee_id: 'E4', check_in_date: '2026-01-30', check_out_date: '2026-02-01', taxes: gbp(0) })],
      {
        billed,
      },
    );
    expect(again.lines[0]).toMatchObject({ status: 'DUPLICATE_LINE', disputed: gbp(240) });
  });

  test('a rebooked stay: a line of room-nights goes to the live booking, a line of fees to the cancelled one', () => {
    const bookings = [
      booking({ booking_id: 'old', employee_id: 'E7', status: 'CANCELLED', cancellation_penalty: gbp(120) }),
      booking({ booking_id: 'new', employee_id: 'E7' }),
    ];
    const run = (l: InvoiceLine) =>
      matchInvoiceLines({ property_id: HOTEL, lines: [l] }, bookings, new Set(), CONTRACTS, NO_FX_RATES).lines[0]!;
    expect(run(line({ employee_id: 'E7' })).booking_id).toBe('new');
    expect(
      run(line({ employee_id: 'E7', nights: 0, taxes: gbp(0), fees: [{ type: 'LATE_CANCEL', amount: gbp(120) }] }))
        .booking_id,
    ).toBe('old');
  });
});

describe('FX: the billed rate in the contract’s currency, to half a minor unit', () => {
  // USD per unit: 1 EUR = 1.08 USD, 1 GBP = 1.26 USD, so 140 EUR = 120 GBP.
  const FX = fxTable([
    { currency: 'EUR', rate: 1.08, as_of: '2026-01-01' },
    { currency: 'GBP', rate: 1.26, as_of: '2026-01-01' },
  ]);

  test('a rate billed in another currency equal to the contract at that day’s rate is MATCHED', () => {
    expect(one({ nightly_rate: eur(140), taxes: eur(28) }, { fx: FX })).toMatchObject({
      status: 'MATCHED',
      disputed: eur(0),
    });
    // Within half a penny once converted.
    expect(one({ nightly_rate: eur(140.005), taxes: eur(0) }, { fx: FX }).status).toBe('MATCHED');
  });

  test('above it: RATE_MISMATCH, disputed in the line’s currency', () => {
    expect(one({ nightly_rate: eur(141), taxes: eur(0) }, { fx: FX })).toMatchObject({
      status: 'RATE_MISMATCH',
      disputed: eur(2),
    });
  });

  test('without a rate for the currency the night cannot be compared: a person checks the line', () => {
    const r = one({ nightly_rate: eur(141), taxes: eur(0) });
    expect(r.status).toBe('MATCHED');
    expect(r.needs_review).toEqual([
      'no exchange rate for EUR is set (to compare the rate of 2026-03-10 with the contract)',
      'no exchange rate for EUR is set (to compare the rate of 2026-03-11 with the contract)',
    ]);
  });

  test('without a rate, no allowance or penalty is read 1:1: nothing is disputed of it, a person checks', () => {
    const noShow = one({
      employee_id: 'E5',
      check_in_date: '2026-03-25',
      check_out_date: '2026-03-27',
      nights: 0,
      nightly_rate: eur(0),
      taxes: eur(0),
      fees: [{ type: 'NO_SHOW', amount: eur(200) }],
    });
    expect(noShow).toMatchObject({ status: 'NO_SHOW_CHARGED', disputed: eur(0) });
    expect(noShow.findings).toEqual([{ status: 'NO_SHOW_CHARGED', disputed: eur(0) }]);
    expect(noShow.needs_review).toEqual(['no exchange rate for GBP is set (to read 120.00 GBP in EUR)']);
    const late = one({
      employee_id: 'E3',
      check_in_date: '2026-03-20',
      check_out_date: '2026-03-21',
      nights: 0,
      nightly_rate: eur(0),
      taxes: eur(0),
      fees: [{ type: 'LATE_CANCEL', amount: eur(200) }],
    });
    expect(late).toMatchObject({ status: 'MATCHED', booking_id: 'b-late', disputed: eur(0) });
    expect(late.needs_review).toEqual(['no exchange rate for GBP is set (to read 120.00 GBP in EUR)']);
    // A whole line is not summed across currencies either (intake refuses such a line; the rule holds regardless).
    const mixed = one({ employee_id: 'E99', nightly_rate: eur(140), taxes: gbp(24) });
    expect(mixed).toMatchObject({ status: 'NO_BOOKING', disputed: eur(280) });
    expect(mixed.needs_review).toEqual(['no exchange rate for GBP is set (to read 24.00 GBP in EUR)']);
    // With the rate, both are compared (140 EUR = 120 GBP).
    expect(
      one(
        {
          employee_id: 'E3',
          check_in_date: '2026-03-20',
          check_out_date: '2026-03-21',
          nights: 0,
          nightly_rate: eur(0),
          taxes: eur(0),
          fees: [{ type: 'LATE_CANCEL', amount: eur(200) }],
        },
        { fx: FX },
      ),
    ).toMatchObject({ status: 'RATE_MISMATCH', disputed: eur(60) });
  });

  test('half a minor unit of the currency: a yen is the smallest unit', () => {
    const yen = new Map([
      [
        '7',
        {
          ...CONTRACT,
          rate_periods: [
            { effective_from: '2026-01-01', effective_to: '2026-12-31', rate: { amount: 15000, currency: 'JPY' } },
          ],
        },
      ],
    ]);
    const jpy = (amount: number) => ({ amount, currency: 'JPY' });
    expect(one({ nightly_rate: jpy(15000.4), taxes: jpy(0) }, { contracts: yen }).status).toBe('MATCHED');
    expect(one({ nightly_rate: jpy(15001), taxes: jpy(0) }, { contracts: yen })).toMatchObject({
      status: 'RATE_MISMATCH',
      disputed: jpy(2),
    });
  });
});

describe('invoiceLineTotal', () => {
  test("a line's room-nights at the nightly rate, its taxes and every fee", () => {
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const base = { nightly_rate: usd(180), nights: 2, taxes: usd(36) };
    expect(invoiceLineTotal(base)).toBe(396);
    expect(
      invoiceLineTotal({
        ...base,
        fees: [
          { type: 'NO_SHOW', amount: usd(50) },
          { type: 'INCIDENTAL', amount: usd(12.5) },
        ],
      }),
    ).toBe(458.5);
  });
});

describe('a stay moved to another hotel on the same booking (a roster’s move)', () => {
  const NEW_HOTEL = 'LHR-OTHER';
  // The booking names the new hotel; the old hotel's room, cancelled after its deadline, is its moved-away stay.
  const moved = movedAwayStay(
    { booking_id: 'b-moved', airline_id: 'a-1' },
    'AMEND:task-1',
    { property_id: HOTEL, check_in_date: '2026-03-10', check_out_date: '2026-03-11', confirmation_number: 'OLD-1' },
    { cancellation_penalty: gbp(120) },
  );
  const stays = [
    booking({ booking_id: 'b-moved', employee_id: 'E9', property_id: NEW_HOTEL, check_out_date: '2026-03-11' }),
    // As the old hotel's invoice reads it (db billableStays): cancelled there, with the fee its cancellation cost.
    booking({
      booking_id: moved.booking_id,
      employee_id: 'E9',
      property_id: moved.property_id,
      status: 'CANCELLED',
      confirmation_number: moved.confirmation_number,
      check_in_date: moved.check_in_date,
      check_out_date: moved.check_out_date,
      contract_id: moved.contract_id,
      cancellation_penalty: moved.cancellation_penalty,
    }),
  ];
  const night = line({ employee_id: 'E9', check_out_date: '2026-03-11', nights: 1, taxes: gbp(0) });
  const lateFee = { ...night, nights: 0, fees: [{ type: 'LATE_CANCEL' as const, amount: gbp(120) }] };
  const at = (property: string, lines: InvoiceLine[]) =>
    matchInvoiceLines({ property_id: property, lines }, stays, new Set(), CONTRACTS, NO_FX_RATES).lines;

  test('movedAwayStay: the old room, the move’s ref and the fee its cancellation recorded (none in time)', () => {
    expect(moved).toEqual({
      booking_id: 'b-moved',
      move_ref: 'AMEND:task-1',
      airline_id: 'a-1',
      property_id: HOTEL,
      confirmation_number: 'OLD-1',
      check_in_date: '2026-03-10',
      check_out_date: '2026-03-11',
      contract_id: null,
      contracted_rate: null,
      cancellation_penalty: gbp(120),
    });
    const inTime = movedAwayStay({ booking_id: 'b', airline_id: 'a' }, 'r', moved, {});
    expect(inTime.cancellation_penalty).toBeNull();
  });

  test('the old hotel’s late fee matches the stay there, by guest or by its number; the new hotel’s night the stay there', () => {
    expect(at(HOTEL, [lateFee])[0]).toMatchObject({ status: 'MATCHED', booking_id: 'b-moved', disputed: gbp(0) });
    const byNumber = { ...lateFee, employee_id: null, confirmation_number: 'OLD-1' };
    expect(at(HOTEL, [byNumber])[0]).toMatchObject({ status: 'MATCHED', booking_id: 'b-moved' });
    expect(at(NEW_HOTEL, [night])[0]).toMatchObject({ status: 'MATCHED', booking_id: 'b-moved', disputed: gbp(0) });
    // The new hotel's stay is live: a late fee there is no fee it is owed.
    expect(at(NEW_HOTEL, [lateFee])[0]).toMatchObject({ status: 'RATE_MISMATCH', disputed: gbp(120) });
  });
});

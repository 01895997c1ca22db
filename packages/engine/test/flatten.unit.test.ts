import { flattenRoster, layoverKey, legKey, pairingSignature } from '../src';
import { bookingsFor, crew, duty, layover, leg, p1, pairing, run, submission, ts } from './fixtures';

describe('flattenRoster: row order', () => {
  it('numbers every leg and layover of every crew member: pairing -> crew -> duty period -> legs, then layover', () => {
    const flat = flattenRoster(
      submission([
        p1(),
        pairing(
          'P2',
          [crew('E3')],
          [
            duty(1, '2026-12-12', [
              leg(1, 'DH', 'LHR', 'MAD', ts('2026-12-12', '09:00'), ts('2026-12-12', '12:00', '+01:00')),
            ]),
          ],
        ),
      ]),
    );
    expect(flat.rowCount).toBe(9);
    // Only DH legs and booking_required layovers are kept, with their place in the full sequence.
    expect(flat.deadheads.map((r) => [r.employee_id, r.pairing_number, r.row])).toEqual([
      ['E1', 'P1', 2],
      ['E2', 'P1', 6],
      ['E3', 'P2', 9],
    ]);
    expect(flat.layovers.map((r) => [r.employee_id, r.row])).toEqual([
      ['E1', 3],
      ['E2', 7],
    ]);
    expect(flat.auditEvents).toEqual([]);
  });

  it('keys legs on employee_id + pairing_number + duty_date + leg_sequence and layovers on employee_id + pairing_number + duty_period_num', () => {
    const flat = flattenRoster(submission([p1()]));
    expect(flat.deadheads[0]!.key).toBe(legKey('E1', 'P1', '2026-12-10', 2));
    expect(flat.layovers[0]!.key).toBe(layoverKey('E1', 'P1', 1));
    expect(legKey('A|B', 'C', '2026-12-10', 1)).not.toBe(legKey('A', 'B|C', '2026-12-10', 1));
  });

  it('does not keep a layover with booking_required false, nor a DH leg with booking_required false', () => {
    const flat = flattenRoster(
      submission([p1([crew('E1')], { dh: { booking_required: false }, lay: { booking_required: false } })]),
    );
    expect(flat.deadheads).toEqual([]);
    expect(flat.layovers).toEqual([]);
    expect(flat.rowCount).toBe(4);
  });

  it('uses expected_* times of a DH leg as the times to fly, keeping the scheduled ones', () => {
    const flat = flattenRoster(
      submission([
        p1([crew('E1')], {
          dh: {
            expected_dep_time_local: ts('2026-12-10', '12:30', '+01:00'),
            expected_arr_time_local: ts('2026-12-10', '13:40', '+01:00'),
          },
        }),
      ]),
    );
    expect(flat.deadheads[0]).toMatchObject({
      dep_time_local: '2026-12-10T12:30:00+01:00',
      arr_time_local: '2026-12-10T13:40:00+01:00',
      scheduled_dep_time_local: '2026-12-10T12:00:00+01:00',
    });
  });
});

describe('flattenRoster: grouping drops (spec rule 6)', () => {
  it('drops a leg whose duty_date disagrees with the local date of dep_time_local: no row kept, no audit event, no item', () => {
    const result = run(
      submission([
        p1([crew('E1')], {
          dh: {
            dep_time_local: ts('2026-12-11', '00:30', '+01:00'),
            arr_time_local: ts('2026-12-11', '01:30', '+01:00'),
          },
        }),
      ]),
    );
    expect(result.flat.deadheads).toEqual([]);
    expect(result.auditEvents).toEqual([]);
    expect(result.actionItems.filter((i) => i.type === 'FLIGHT')).toEqual([]);
    // It still has its row number: the layover after it is row 3.
    expect(result.flat.layovers[0]!.row).toBe(3);
  });

  it('drops a leg whose duty_date disagrees with the date of expected_dep_time_local', () => {
    const flat = flattenRoster(
      submission([p1([crew('E1')], { dh: { expected_dep_time_local: ts('2026-12-09', '23:50', '+01:00') } })]),
    );
    expect(flat.deadheads).toEqual([]);
    expect(flat.auditEvents).toEqual([]);
  });

  it('takes the date written in the local timestamp, not the UTC date', () => {
    // 23:30 at -05:00 is 04:30 UTC the next day; the local date matches duty_date.
    const flat = flattenRoster(
      submission([
        pairing(
          'P9',
          [crew('E1')],
          [
            duty(1, '2026-12-10', [
              leg(1, 'DH', 'JFK', 'MIA', ts('2026-12-10', '23:30', '-05:00'), ts('2026-12-11', '02:30', '-05:00')),
            ]),
          ],
        ),
      ]),
    );
    expect(flat.deadheads).toHaveLength(1);
  });
});

describe('flattenRoster: duplicates and impossible data (DESIGN 6)', () => {
  it('the same leg key twice gives one DUPLICATE_ROW audit event and the first row wins', () => {
    const p = pairing(
      'P5',
      [crew('E1')],
      [
        duty(1, '2026-12-10', [
          leg(1, 'DH', 'LHR', 'CDG', ts('2026-12-10', '08:00'), ts('2026-12-10', '10:00', '+01:00')),
          leg(1, 'DH', 'LHR', 'AMS', ts('2026-12-10', '09:00'), ts('2026-12-10', '11:00', '+01:00')),
        ]),
      ],
    );
    const flat = flattenRoster(submission([p]));
    expect(flat.deadheads.map((r) => [r.to_airport, r.row])).toEqual([['CDG', 1]]);
    expect(flat.auditEvents).toHaveLength(1);
    expect(flat.auditEvents[0]).toMatchObject({
      classification: 'DUPLICATE_ROW',
      anchors: { employee_id: 'E1', pairing_number: 'P5', duty_date: '2026-12-10' },
      source_rows: { day1_row: null, day2_row: 2 },
      details: { first_row: 1 },
    });
  });

  it('a pairing sent twice repeats every key of its crew: one DUPLICATE_ROW per repeated row, the first pairing wins', () => {
    const flat = flattenRoster(submission([p1([crew('E1')]), p1([crew('E1')], { dh: { to_airport: 'MUC' } })]));
    expect(flat.deadheads.map((r) => r.to_airport)).toEqual(['FRA']);
    expect(flat.auditEvents.map((e) => [e.classification, e.source_rows.day2_row, e.details.first_row])).toEqual([
      ['DUPLICATE_ROW', 5, 1],
      ['DUPLICATE_ROW', 6, 2],
      ['DUPLICATE_ROW', 7, 3],
      ['DUPLICATE_ROW', 8, 4],
    ]);
    expect(flat.pairings).toHaveLength(1);
  });

  it('the same crew member listed twice in a pairing repeats its keys', () => {
    const flat = flattenRoster(submission([p1([crew('E1'), crew('E1')])]));
    expect(flat.deadheads).toHaveLength(1);
    expect(flat.layovers).toHaveLength(1);
    expect(flat.auditEvents.map((e) => e.classification)).toEqual([
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
    ]);
  });

  it('finds a repeated key in a long pairing too (40 legs)', () => {
    const days = Array.from({ length: 20 }, (_, i) => `2026-12-${String(i + 1).padStart(2, '0')}`);
    const duties = days.map((date, i) =>
      duty(i + 1, date, [
        leg(1, 'DH', 'LHR', 'CDG', ts(date, '08:00'), ts(date, '10:00', '+01:00')),
        leg(2, 'DH', 'CDG', 'LHR', ts(date, '11:00', '+01:00'), ts(date, '11:30')),
      ]),
    );
    duties[19]!.legs[1]!.leg_sequence = 1;
    const flat = flattenRoster(submission([pairing('P8', [crew('E1'), crew('E2')], duties)]));
    expect(
      flat.auditEvents.map((e) => [
        e.classification,
        e.anchors.employee_id,
        e.source_rows.day2_row,
        e.details.first_row,
      ]),
    ).toEqual([
      ['DUPLICATE_ROW', 'E1', 40, 39],
      ['DUPLICATE_ROW', 'E2', 80, 79],
    ]);
    expect(flat.deadheads).toHaveLength(78);
  });

  it('the same layover key twice (duty_period_num repeated) gives a DUPLICATE_ROW', () => {
    const p = pairing(
      'P6',
      [crew('E1')],
      [
        duty(1, '2026-12-10', [], layover('FRA', ts('2026-12-10', '20:00'), ts('2026-12-11', '07:00'))),
        duty(1, '2026-12-11', [], layover('MUC', ts('2026-12-11', '20:00'), ts('2026-12-12', '07:00'))),
      ],
    );
    const flat = flattenRoster(submission([p]));
    expect(flat.layovers.map((l) => l.station)).toEqual(['FRA']);
    expect(flat.auditEvents.map((e) => [e.classification, e.source_rows.day2_row])).toEqual([['DUPLICATE_ROW', 2]]);
  });

  it('arrival before departure (compared as instants) is a DATA_QUALITY_FLAG and the row is skipped', () => {
    // 10:30+02:00 is 08:30Z, before the 09:00Z departure, although "10:30" reads later.
    const flat = flattenRoster(
      submission([
        p1([crew('E1')], {
          dh: { dep_time_local: ts('2026-12-10', '09:00'), arr_time_local: ts('2026-12-10', '10:30', '+02:00') },
        }),
      ]),
    );
    expect(flat.deadheads).toEqual([]);
    expect(flat.auditEvents).toHaveLength(1);
    expect(flat.auditEvents[0]).toMatchObject({
      classification: 'DATA_QUALITY_FLAG',
      source_rows: { day2_row: 2 },
      details: { reason: 'arrival before departure' },
    });
    expect(flat.flaggedKeys).toEqual([legKey('E1', 'P1', '2026-12-10', 2)]);
  });

  it('an arrival that reads earlier but is later in absolute time is not flagged', () => {
    // Departs 23:00-05:00 (04:00Z), arrives 06:00+01:00 next day (05:00Z).
    const p = pairing(
      'P7',
      [crew('E1')],
      [
        duty(1, '2026-12-10', [
          leg(1, 'DH', 'JFK', 'LHR', ts('2026-12-10', '23:00', '-05:00'), ts('2026-12-11', '05:00', '+00:00')),
        ]),
      ],
    );
    const flat = flattenRoster(submission([p]));
    expect(flat.auditEvents).toEqual([]);
    expect(flat.deadheads).toHaveLength(1);
  });

  it('a layover checking out before it checks in is a DATA_QUALITY_FLAG and the row is skipped', () => {
    const flat = flattenRoster(
      submission([p1([crew('E1')], { lay: { checkout_time_local: ts('2026-12-10', '13:00', '+01:00') } })]),
    );
    expect(flat.layovers).toEqual([]);
    expect(flat.auditEvents.map((e) => [e.classification, e.source_rows.day2_row, e.details.reason])).toEqual([
      ['DATA_QUALITY_FLAG', 3, 'checkout before check-in'],
    ]);
  });

  it('an unknown activity code is a DATA_QUALITY_FLAG', () => {
    const flat = flattenRoster(submission([p1([crew('E1')], { dh: { activity_code: 'XX' as 'DH' } })]));
    expect(flat.deadheads).toEqual([]);
    expect(flat.auditEvents.map((e) => [e.classification, e.details.reason])).toEqual([
      ['DATA_QUALITY_FLAG', 'unknown activity_code XX'],
    ]);
  });

  it('a flagged row leaves its key alone: no cancellation of the previous leg or of the booked hotel, and the previous row is kept', () => {
    const day1 = submission([p1([crew('E1')])]);
    const day2 = submission([
      p1([crew('E1')], {
        dh: { arr_time_local: ts('2026-12-10', '11:00', '+01:00') },
        lay: { checkout_time_local: ts('2026-12-10', '13:00', '+01:00') },
      }),
    ]);
    const result = run(day2, { previous: day1, ...bookingsFor(flattenRoster(day1)) });
    expect(result.auditEvents.map((e) => e.classification)).toEqual(['DATA_QUALITY_FLAG', 'DATA_QUALITY_FLAG']);
    expect(result.actionItems).toEqual([]);
    expect(result.nextState.deadheads.map((r) => r.arr_time_local)).toEqual(['2026-12-10T13:10:00+01:00']);
  });
});

describe('flattenRoster: pairing summaries', () => {
  it('summarises each pairing: number, crew, dates, rows, and a signature that ignores the crew list', () => {
    const flat = flattenRoster(submission([p1()]));
    expect(flat.pairings).toEqual([
      {
        pairing_number: 'P1',
        signature: expect.any(String),
        crew: ['E1', 'E2'],
        first_date: '2026-12-10',
        last_date: '2026-12-11',
        first_row: 1,
        last_row: 8,
      },
    ]);
    expect(pairingSignature(p1([crew('E7')]))).toBe(flat.pairings[0]!.signature);
  });

  it('changes the signature when anything but the crew changes, and not with JSON key order', () => {
    const base = pairingSignature(p1());
    expect(pairingSignature(p1(undefined, { dh: { dep_time_local: ts('2026-12-10', '12:05', '+01:00') } }))).not.toBe(
      base,
    );
    expect(pairingSignature(p1(undefined, { lay: { station: 'MUC' } }))).not.toBe(base);
    expect(pairingSignature(p1(undefined, { dh: { aircraft_tail: 'G-ABCD' } }))).not.toBe(base);
    const reordered = JSON.parse(
      JSON.stringify(p1(), (_k, v: unknown) =>
        v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
      ),
    );
    expect(pairingSignature(reordered)).toBe(base);
  });
});

import { diffRoster, flattenRoster, itemKey, layoverKey, legKey, priorityFor, rosterState, SUBTYPE_OF } from '../src';
import { bookingsFor, crew, p1, run, runAfter, SETTINGS, submission, ts, WINDOW } from './fixtures';

const summary = (r: ReturnType<typeof run>) =>
  r.actionItems.map((i) => [i.classification, i.type, i.subtype, i.anchors.employee_id, i.booking_id]);

describe('swaps on an unchanged pairing', () => {
  it('SWAP_OUT for the member removed (one per layover / DH row, CANCEL, linked to the booking) and SWAP_IN for the member added (NEW_BOOKING), instead of cancel/new items', () => {
    const day1 = submission([p1([crew('E1'), crew('E2')])]);
    const day2 = submission([p1([crew('E3'), crew('E2')])]);
    const result = runAfter(day1, day2);
    expect(summary(result)).toEqual([
      ['SWAP_OUT', 'FLIGHT', 'CANCEL', 'E1', `F-${legKey('E1', 'P1', '2026-12-10', 2)}`],
      ['SWAP_OUT', 'HOTEL', 'CANCEL', 'E1', `H-${layoverKey('E1', 'P1', 1)}`],
      ['SWAP_IN', 'FLIGHT', 'NEW_BOOKING', 'E3', null],
      ['SWAP_IN', 'HOTEL', 'NEW_BOOKING', 'E3', null],
    ]);
    expect(result.actionItems[0]!.details.swap).toEqual({ removed: ['E1'], added: ['E3'] });
    expect(result.actionItems[2]!.item_key).toBe(itemKey('SWAP_IN', legKey('E3', 'P1', '2026-12-10', 2)));
    expect(result.actionItems[2]!.details).toMatchObject({
      from_airport: 'CDG',
      to_airport: 'FRA',
      traveller_email: 'e3@crew.example.com',
    });
  });

  it('is not a swap when the pairing itself changed too: plain cancel / new items', () => {
    const day1 = submission([p1([crew('E1')])]);
    const day2 = submission([p1([crew('E3')], { lay: { checkout_time_local: ts('2026-12-11', '07:30', '+01:00') } })]);
    expect(summary(runAfter(day1, day2)).map((s) => s[0])).toEqual([
      'DEADHEAD_CANCELLED',
      'LAYOVER_CANCELLED',
      'NEW_DEADHEAD',
      'NEW_LAYOVER',
    ]);
  });

  it('a swapped-out member whose booking has manual_override gets no SWAP_OUT for it', () => {
    const day1 = submission([p1([crew('E1')])]);
    const booked = bookingsFor(flattenRoster(day1));
    booked.hotelBookings[0]!.manual_override = true;
    const result = run(submission([p1([crew('E3')])]), { previous: day1, ...booked });
    expect(summary(result).map((s) => `${s[0]}:${s[1]}:${s[3]}`)).toEqual([
      'SWAP_OUT:FLIGHT:E1',
      'SWAP_IN:FLIGHT:E3',
      'SWAP_IN:HOTEL:E3',
    ]);
  });
});

describe('UNCHANGED and resubmission', () => {
  it('re-sending a byte-identical roster yields no action items', () => {
    const roster = submission([p1()]);
    const copy = JSON.parse(JSON.stringify(roster));
    expect(runAfter(roster, copy).actionItems).toEqual([]);
  });

  it('emits UNCHANGED (subtype MODIFY, linked to the booking) per unchanged row with a booking only when emit_unchanged is on', () => {
    const roster = submission([p1([crew('E1')])]);
    expect(runAfter(roster, roster).actionItems).toEqual([]);
    const result = runAfter(roster, roster, { settings: { emit_unchanged: true } });
    expect(summary(result)).toEqual([
      ['UNCHANGED', 'FLIGHT', 'MODIFY', 'E1', `F-${legKey('E1', 'P1', '2026-12-10', 2)}`],
      ['UNCHANGED', 'HOTEL', 'MODIFY', 'E1', `H-${layoverKey('E1', 'P1', 1)}`],
    ]);
    // No booking, no UNCHANGED: the layover is NEW and the deadhead, already known, waits for its booking.
    expect(summary(run(roster, { previous: roster, settings: { emit_unchanged: true } })).map((s) => s[0])).toEqual([
      'NEW_LAYOVER',
    ]);
  });
});

describe('subtypes, source, keys and order', () => {
  it('maps NEW_* and SWAP_IN to NEW_BOOKING, *_CHANGE and LAYOVER_EXTENDED to MODIFY, *_CANCELLED and SWAP_OUT to CANCEL', () => {
    expect(SUBTYPE_OF).toEqual({
      NEW_LAYOVER: 'NEW_BOOKING',
      NEW_DEADHEAD: 'NEW_BOOKING',
      SWAP_IN: 'NEW_BOOKING',
      LAYOVER_DATE_CHANGE: 'MODIFY',
      LAYOVER_CITY_CHANGE: 'MODIFY',
      LAYOVER_EXTENDED: 'MODIFY',
      DEADHEAD_TIME_CHANGE: 'MODIFY',
      UNCHANGED: 'MODIFY',
      LAYOVER_CANCELLED: 'CANCEL',
      DEADHEAD_CANCELLED: 'CANCEL',
      SWAP_OUT: 'CANCEL',
    });
    expect(new Set(run(submission([p1()])).actionItems.map((i) => i.source))).toEqual(new Set(['SCHEDULE_DIFF']));
  });

  it('sorts items by pairing_number, employee_id, duty_date, type, item_key whatever the submission order', () => {
    const a = p1([crew('E2'), crew('E1')]);
    const b = { ...p1([crew('E1')]), pairing_number: 'P0' };
    const items = run(submission([a, b])).actionItems;
    expect(items.map((i) => `${i.anchors.pairing_number}/${i.anchors.employee_id}/${i.type}`)).toEqual([
      'P0/E1/FLIGHT',
      'P0/E1/HOTEL',
      'P1/E1/FLIGHT',
      'P1/E1/HOTEL',
      'P1/E2/FLIGHT',
      'P1/E2/HOTEL',
    ]);
    expect(new Set(items.map((i) => i.item_key)).size).toBe(items.length);
  });

  it('passes the audit events of the submission through', () => {
    const roster = submission([p1([crew('E1'), crew('E1')])]);
    expect(run(roster).auditEvents.map((e) => e.classification)).toEqual([
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
      'DUPLICATE_ROW',
    ]);
  });

  it('rejects a processedAt that is not an ISO timestamp', () => {
    const flat = flattenRoster(submission([p1()]));
    expect(() =>
      diffRoster({
        current: flat,
        previous: rosterState(flat),
        hotelBookings: [],
        flightBookings: [],
        window: WINDOW,
        settings: SETTINGS,
        processedAt: 'yesterday',
      }),
    ).toThrow(/processedAt/);
  });
});

describe('priority', () => {
  const at = '2026-12-01T00:00:00Z';
  const plus = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
  const H = 3_600_000;

  it('is P1 under 24 h, P2 under 72 h, P3 under 7 days, else P4; a past event is P1', () => {
    expect(priorityFor(plus(-H), at)).toBe('P1');
    expect(priorityFor(plus(0), at)).toBe('P1');
    expect(priorityFor(plus(24 * H - 1), at)).toBe('P1');
    expect(priorityFor(plus(24 * H), at)).toBe('P2');
    expect(priorityFor(plus(72 * H - 1), at)).toBe('P2');
    expect(priorityFor(plus(72 * H), at)).toBe('P3');
    expect(priorityFor(plus(7 * 24 * H - 1), at)).toBe('P3');
    expect(priorityFor(plus(7 * 24 * H), at)).toBe('P4');
  });

  it('compares instants, offsets included', () => {
    // 2026-12-02T01:00+02:00 is 2026-12-01T23:00Z: 23 h after processing.
    expect(priorityFor('2026-12-02T01:00:00+02:00', at)).toBe('P1');
  });

  it('is computed from the check-in of a layover and the departure of a deadhead', () => {
    // Check-in 2026-12-10T13:00Z, departure 2026-12-10T11:00Z; processed 2026-12-09T12:00Z.
    const items = run(submission([p1([crew('E1')])]), { processedAt: '2026-12-09T12:00:00Z' }).actionItems;
    expect(items.map((i) => [i.type, i.priority, i.event_at])).toEqual([
      ['FLIGHT', 'P1', '2026-12-10T11:00:00.000Z'],
      ['HOTEL', 'P2', '2026-12-10T13:00:00.000Z'],
    ]);
  });

  it('a change is as urgent as the sooner of the old and the new event', () => {
    const day1 = submission([p1([crew('E1')])]);
    const later = submission([
      p1([crew('E1')], {
        dh: {
          dep_time_local: ts('2026-12-10', '23:00', '+01:00'),
          arr_time_local: ts('2026-12-10', '23:50', '+01:00'),
        },
      }),
    ]);
    const [item] = runAfter(day1, later, { processedAt: '2026-12-09T12:00:00Z' }).actionItems;
    expect([item!.classification, item!.priority, item!.event_at]).toEqual([
      'DEADHEAD_TIME_CHANGE',
      'P1',
      '2026-12-10T11:00:00.000Z',
    ]);
  });
});

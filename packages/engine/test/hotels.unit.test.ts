import { layoverKey, type HotelBookingActual } from '../src';
import { crew, p1, run, submission, ts } from './fixtures';

/** E1's booked FRA stay of P1 (matching the reference roster), with changes. */
function booking(over: Partial<HotelBookingActual> = {}): HotelBookingActual {
  return {
    booking_id: 'HB1',
    employee_id: 'E1',
    pairing_number: 'P1',
    duty_period_num: 1,
    station: 'FRA',
    checkin_time_local: ts('2026-12-10', '14:00', '+01:00'),
    checkout_time_local: ts('2026-12-11', '07:00', '+01:00'),
    status: 'CONFIRMED',
    manual_override: false,
    ...over,
  };
}

const hotelItems = (r: ReturnType<typeof run>) => r.actionItems.filter((i) => i.type === 'HOTEL');
const oneE1 = submission([p1([crew('E1')])]);

describe('hotel layovers against booking actuals', () => {
  it('NEW_LAYOVER when the layover has no booking, with what a booking needs', () => {
    const items = hotelItems(run(oneE1));
    expect(items).toEqual([
      {
        item_key: `NEW_LAYOVER:${layoverKey('E1', 'P1', 1)}`,
        source: 'SCHEDULE_DIFF',
        type: 'HOTEL',
        subtype: 'NEW_BOOKING',
        classification: 'NEW_LAYOVER',
        priority: 'P4',
        anchors: { employee_id: 'E1', pairing_number: 'P1', duty_date: '2026-12-10' },
        source_rows: { day1_row: null, day2_row: 3 },
        booking_id: null,
        event_at: '2026-12-10T13:00:00.000Z',
        message: expect.stringContaining('FRA'),
        details: {
          row_key: layoverKey('E1', 'P1', 1),
          duty_period_num: 1,
          station: 'FRA',
          checkin_time_local: '2026-12-10T14:00:00+01:00',
          checkout_time_local: '2026-12-11T07:00:00+01:00',
          traveller_email: 'e1@crew.example.com',
          name: 'Crew E1',
          rank: 'FA',
          home_base: 'LHR',
        },
      },
    ]);
  });

  it('is diffed against the bookings, not against the previous roster', () => {
    // Same roster yesterday, but no booking was made: the layover is still NEW.
    expect(hotelItems(run(oneE1, { previous: oneE1 })).map((i) => [i.classification, i.source_rows])).toEqual([
      ['NEW_LAYOVER', { day1_row: 3, day2_row: 3 }],
    ]);
    // A matching booking and no previous roster: nothing to do.
    expect(hotelItems(run(oneE1, { hotelBookings: [booking()] }))).toEqual([]);
  });

  it('LAYOVER_CITY_CHANGE when the station differs from the booking, with the booked stay as previous', () => {
    const [item] = hotelItems(run(oneE1, { hotelBookings: [booking({ station: 'MUC' })] }));
    expect(item).toMatchObject({
      classification: 'LAYOVER_CITY_CHANGE',
      subtype: 'MODIFY',
      booking_id: 'HB1',
      details: { station: 'FRA', previous: { station: 'MUC' } },
    });
  });

  it('LAYOVER_EXTENDED when check-in is the same and check-out is later', () => {
    const [item] = hotelItems(
      run(oneE1, { hotelBookings: [booking({ checkout_time_local: ts('2026-12-11', '05:00', '+01:00') })] }),
    );
    expect(item).toMatchObject({ classification: 'LAYOVER_EXTENDED', subtype: 'MODIFY', booking_id: 'HB1' });
  });

  it('LAYOVER_DATE_CHANGE when the check-in date or time changes, or check-out moves earlier', () => {
    const checkinDate = hotelItems(
      run(oneE1, { hotelBookings: [booking({ checkin_time_local: ts('2026-12-09', '14:00', '+01:00') })] }),
    );
    const checkinTime = hotelItems(
      run(oneE1, { hotelBookings: [booking({ checkin_time_local: ts('2026-12-10', '15:00', '+01:00') })] }),
    );
    const shorter = hotelItems(
      run(oneE1, { hotelBookings: [booking({ checkout_time_local: ts('2026-12-11', '09:00', '+01:00') })] }),
    );
    for (const items of [checkinDate, checkinTime, shorter])
      expect(items.map((i) => [i.classification, i.subtype])).toEqual([['LAYOVER_DATE_CHANGE', 'MODIFY']]);
  });

  it('compares instants: the same stay written with another offset is unchanged', () => {
    const items = hotelItems(
      run(oneE1, {
        hotelBookings: [
          booking({ checkin_time_local: '2026-12-10T13:00:00Z', checkout_time_local: '2026-12-11T06:00:00+00:00' }),
        ],
      }),
    );
    expect(items).toEqual([]);
  });

  it('LAYOVER_CANCELLED for a live booking in the window whose layover is gone', () => {
    const roster = submission([p1([crew('E1')])]);
    delete roster.pairings[0]!.duty_periods[0]!.layover;
    const items = hotelItems(run(roster, { previous: oneE1, hotelBookings: [booking()] }));
    expect(items).toEqual([
      expect.objectContaining({
        classification: 'LAYOVER_CANCELLED',
        subtype: 'CANCEL',
        booking_id: 'HB1',
        anchors: { employee_id: 'E1', pairing_number: 'P1', duty_date: '2026-12-10' },
        source_rows: { day1_row: 3, day2_row: null },
      }),
    ]);
  });

  it('LAYOVER_CANCELLED when the layover no longer needs a booking (booking_required false)', () => {
    const roster = submission([p1([crew('E1')], { lay: { booking_required: false } })]);
    expect(hotelItems(run(roster, { hotelBookings: [booking()] })).map((i) => i.classification)).toEqual([
      'LAYOVER_CANCELLED',
    ]);
  });

  it('cancels only stays whose checkout is on or after processedAt (UTC date) minus cancellation_lookback_days', () => {
    const empty = submission([p1([crew('E2')])]);
    const gone = [booking()]; // checks out 2026-12-11
    const cancelled = (processedAt: string, lookback: number) =>
      hotelItems(
        run(empty, { hotelBookings: gone, processedAt, settings: { cancellation_lookback_days: lookback } }),
      ).filter((i) => i.classification === 'LAYOVER_CANCELLED').length;
    expect(cancelled('2026-12-11T23:00:00Z', 0)).toBe(1);
    expect(cancelled('2026-12-12T00:30:00+02:00', 0)).toBe(1); // still 2026-12-11 in UTC
    expect(cancelled('2026-12-12T01:00:00Z', 0)).toBe(0);
    expect(cancelled('2026-12-12T01:00:00Z', 1)).toBe(1);
    expect(cancelled('2026-12-13T01:00:00Z', 1)).toBe(0);
  });

  it('leaves bookings and layovers dated outside the window alone', () => {
    const window = { start: '2026-12-11', end: '2026-12-31' };
    // Booking dated (checked in) before the window, no layover: not cancelled.
    expect(hotelItems(run(submission([p1([crew('E2')])], window), { hotelBookings: [booking()], window }))).toEqual([]);
    // Layover before the window: no NEW_LAYOVER.
    expect(hotelItems(run(submission([p1([crew('E1')])], window), { window }))).toEqual([]);
    // Layover inside, its booking outside: neither is touched.
    const inside = submission(
      [p1([crew('E1')], { lay: { checkin_time_local: ts('2026-12-11', '01:00', '+01:00') } })],
      window,
    );
    expect(hotelItems(run(inside, { hotelBookings: [booking()], window }))).toEqual([]);
    // Booking inside, layover moved outside: the layover still exists, so no cancel.
    const movedOut = submission([p1([crew('E1')])], window);
    expect(
      hotelItems(
        run(movedOut, {
          hotelBookings: [booking({ checkin_time_local: ts('2026-12-11', '01:00', '+01:00') })],
          window,
        }),
      ),
    ).toEqual([]);
  });

  it('never modifies or cancels a booking with manual_override', () => {
    expect(hotelItems(run(oneE1, { hotelBookings: [booking({ station: 'MUC', manual_override: true })] }))).toEqual([]);
    expect(
      hotelItems(run(submission([p1([crew('E2')])]), { hotelBookings: [booking({ manual_override: true })] })).filter(
        (i) => i.anchors.employee_id === 'E1',
      ),
    ).toEqual([]);
  });

  it('never re-creates a CANCELLED booking: a layover whose booking is CANCELLED yields no item, whatever changed', () => {
    expect(hotelItems(run(oneE1, { hotelBookings: [booking({ status: 'CANCELLED' })] }))).toEqual([]);
    expect(hotelItems(run(oneE1, { hotelBookings: [booking({ status: 'CANCELLED', station: 'MUC' })] }))).toEqual([]);
  });

  it('uses the live booking when a key also has a cancelled one', () => {
    const items = hotelItems(
      run(oneE1, {
        hotelBookings: [
          booking({ booking_id: 'HB0', status: 'CANCELLED' }),
          booking({ booking_id: 'HB2', station: 'MUC' }),
        ],
      }),
    );
    expect(items.map((i) => [i.classification, i.booking_id])).toEqual([['LAYOVER_CITY_CHANGE', 'HB2']]);
  });

  it('ignores bookings without a full layover key (e.g. injected ones)', () => {
    expect(
      hotelItems(run(submission([p1([crew('E2')])]), { hotelBookings: [booking({ duty_period_num: null })] })).filter(
        (i) => i.anchors.employee_id === 'E1',
      ),
    ).toEqual([]);
  });
});

import { flattenRoster, legKey, type FlightBookingActual } from '../src';
import { bookingsFor, crew, duty, leg, p1, pairing, run, runAfter, submission, ts } from './fixtures';

const flightItems = (r: ReturnType<typeof run>) => r.actionItems.filter((i) => i.type === 'FLIGHT');
const oneE1 = submission([p1([crew('E1')])]);
const dhKey = legKey('E1', 'P1', '2026-12-10', 2);

function flightBooking(over: Partial<FlightBookingActual> = {}): FlightBookingActual {
  return {
    booking_id: 'FB1',
    employee_id: 'E1',
    pairing_number: 'P1',
    duty_date: '2026-12-10',
    leg_sequence: 2,
    from_airport: 'CDG',
    to_airport: 'FRA',
    flight_number: 'XY102',
    dep_time_local: ts('2026-12-10', '12:00', '+01:00'),
    arr_time_local: ts('2026-12-10', '13:10', '+01:00'),
    status: 'CONFIRMED',
    manual_override: false,
    ...over,
  };
}

describe('deadhead legs against the previous submission', () => {
  it('NEW_DEADHEAD for a DH leg the previous submission did not have, on exactly its own route (not the home base)', () => {
    const items = flightItems(run(oneE1));
    expect(items).toEqual([
      {
        item_key: `NEW_DEADHEAD:${dhKey}`,
        source: 'SCHEDULE_DIFF',
        type: 'FLIGHT',
        subtype: 'NEW_BOOKING',
        classification: 'NEW_DEADHEAD',
        priority: 'P4',
        anchors: { employee_id: 'E1', pairing_number: 'P1', duty_date: '2026-12-10' },
        source_rows: { day1_row: null, day2_row: 2 },
        booking_id: null,
        event_at: '2026-12-10T11:00:00.000Z',
        message: expect.stringContaining('CDG->FRA'),
        details: {
          row_key: dhKey,
          duty_period_num: 1,
          leg_sequence: 2,
          from_airport: 'CDG',
          to_airport: 'FRA',
          flight_number: 'XY102',
          dep_time_local: '2026-12-10T12:00:00+01:00',
          arr_time_local: '2026-12-10T13:10:00+01:00',
          scheduled_dep_time_local: '2026-12-10T12:00:00+01:00',
          scheduled_arr_time_local: '2026-12-10T13:10:00+01:00',
          traveller_email: 'e1@crew.example.com',
          name: 'Crew E1',
          rank: 'FA',
          home_base: 'LHR',
        },
      },
    ]);
  });

  it('only DH legs give FLIGHT items (FLT, TRG, RSV... do not)', () => {
    const p = pairing(
      'P3',
      [crew('E1')],
      [
        duty(1, '2026-12-10', [
          leg(1, 'FLT', 'LHR', 'CDG', ts('2026-12-10', '08:00'), ts('2026-12-10', '10:00', '+01:00')),
          leg(2, 'TRG', 'CDG', 'CDG', ts('2026-12-10', '11:00', '+01:00'), ts('2026-12-10', '15:00', '+01:00')),
        ]),
      ],
    );
    expect(flightItems(run(submission([p])))).toEqual([]);
  });

  it('DEADHEAD_TIME_CHANGE when only the times changed, linked to the booking, with the old times', () => {
    const day2 = submission([
      p1([crew('E1')], {
        dh: {
          dep_time_local: ts('2026-12-10', '12:45', '+01:00'),
          arr_time_local: ts('2026-12-10', '13:55', '+01:00'),
        },
      }),
    ]);
    const items = flightItems(runAfter(oneE1, day2));
    expect(items).toEqual([
      expect.objectContaining({
        classification: 'DEADHEAD_TIME_CHANGE',
        subtype: 'MODIFY',
        booking_id: `F-${dhKey}`,
        source_rows: { day1_row: 2, day2_row: 2 },
        details: expect.objectContaining({
          dep_time_local: '2026-12-10T12:45:00+01:00',
          previous: {
            from_airport: 'CDG',
            to_airport: 'FRA',
            flight_number: 'XY102',
            dep_time_local: '2026-12-10T12:00:00+01:00',
            arr_time_local: '2026-12-10T13:10:00+01:00',
          },
        }),
      }),
    ]);
  });

  it('a change of expected_* times is a time change (they are the times to fly)', () => {
    const day2 = submission([
      p1([crew('E1')], {
        dh: {
          expected_dep_time_local: ts('2026-12-10', '12:20', '+01:00'),
          expected_arr_time_local: ts('2026-12-10', '13:30', '+01:00'),
        },
      }),
    ]);
    expect(flightItems(runAfter(oneE1, day2)).map((i) => i.classification)).toEqual(['DEADHEAD_TIME_CHANGE']);
  });

  it.each([
    ['to_airport', { to_airport: 'MUC' }],
    ['from_airport', { from_airport: 'ORY' }],
    ['flight_number', { flight_number: 'LH999' }],
  ])('a changed %s cancels the old leg and books the new one (DEADHEAD_CANCELLED + NEW_DEADHEAD)', (_field, change) => {
    const items = flightItems(runAfter(oneE1, submission([p1([crew('E1')], { dh: change })])));
    expect(items.map((i) => [i.classification, i.subtype, i.booking_id, i.details.row_key])).toEqual([
      ['DEADHEAD_CANCELLED', 'CANCEL', `F-${dhKey}`, dhKey],
      ['NEW_DEADHEAD', 'NEW_BOOKING', null, dhKey],
    ]);
    expect(items[1]!.details).toMatchObject(change);
  });

  it('a changed key field (leg_sequence) cancels the old key and books the new key', () => {
    const items = flightItems(runAfter(oneE1, submission([p1([crew('E1')], { dh: { leg_sequence: 3 } })])));
    expect(items.map((i) => [i.classification, i.details.row_key])).toEqual([
      ['DEADHEAD_CANCELLED', dhKey],
      ['NEW_DEADHEAD', legKey('E1', 'P1', '2026-12-10', 3)],
    ]);
  });

  it('DEADHEAD_CANCELLED when the key is gone, with the booking and the previous row', () => {
    const day2 = submission([p1([crew('E1')], { dh: { activity_code: 'FLT' } })]);
    expect(flightItems(runAfter(oneE1, day2))).toEqual([
      expect.objectContaining({
        classification: 'DEADHEAD_CANCELLED',
        subtype: 'CANCEL',
        booking_id: `F-${dhKey}`,
        source_rows: { day1_row: 2, day2_row: null },
      }),
    ]);
  });

  it('DEADHEAD_CANCELLED also without a booking (the new deadhead may still be awaiting review)', () => {
    const day2 = submission([p1([crew('E1')], { dh: { activity_code: 'FLT' } })]);
    expect(flightItems(run(day2, { previous: oneE1 })).map((i) => [i.classification, i.booking_id])).toEqual([
      ['DEADHEAD_CANCELLED', null],
    ]);
  });

  it('never modifies or cancels a booking with manual_override', () => {
    const moved = submission([p1([crew('E1')], { dh: { dep_time_local: ts('2026-12-10', '12:45', '+01:00') } })]);
    const rerouted = submission([p1([crew('E1')], { dh: { to_airport: 'MUC' } })]);
    const gone = submission([p1([crew('E1')], { dh: { activity_code: 'FLT' } })]);
    for (const day2 of [moved, rerouted, gone])
      expect(
        flightItems(run(day2, { previous: oneE1, flightBookings: [flightBooking({ manual_override: true })] })),
      ).toEqual([]);
  });

  it('never re-creates a CANCELLED booking, whatever changed', () => {
    const moved = submission([p1([crew('E1')], { dh: { dep_time_local: ts('2026-12-10', '12:45', '+01:00') } })]);
    const cancelledBooking = [flightBooking({ status: 'CANCELLED' })];
    // The pairing comes back after being dropped (the previous roster did not have it): no NEW_DEADHEAD.
    expect(flightItems(run(oneE1, { previous: null, flightBookings: cancelledBooking }))).toEqual([]);
    expect(flightItems(run(moved, { previous: oneE1, flightBookings: cancelledBooking }))).toEqual([]);
  });

  it('does not add a deadhead that a live booking already covers', () => {
    expect(flightItems(run(oneE1, { flightBookings: [flightBooking()] }))).toEqual([]);
  });

  it('leaves legs dated outside the window alone and carries them into the next state', () => {
    const window = { start: '2026-12-11', end: '2026-12-31' };
    const day2 = submission([p1([crew('E1')], { dh: { to_airport: 'MUC' } })], window);
    const result = run(day2, { previous: oneE1, window });
    expect(flightItems(result)).toEqual([]);
    expect(result.nextState.deadheads.map((r) => r.to_airport)).toEqual(['FRA']);
  });

  it('the next state holds the current rows inside the window and the previous rows outside it', () => {
    const window = { start: '2026-12-01', end: '2026-12-10' };
    const outside = pairing(
      'P4',
      [crew('E1')],
      [
        duty(1, '2026-12-20', [
          leg(1, 'DH', 'LHR', 'MAD', ts('2026-12-20', '09:00'), ts('2026-12-20', '12:00', '+01:00')),
        ]),
      ],
    );
    const previous = submission([p1([crew('E1')]), outside]);
    const current = submission([p1([crew('E1')], { dh: { to_airport: 'MUC' } })]);
    const result = run(current, { previous, window });
    expect(result.nextState.deadheads.map((r) => [r.pairing_number, r.to_airport])).toEqual([
      ['P1', 'MUC'],
      ['P4', 'MAD'],
    ]);
    expect(result.nextState.pairings.map((p) => p.pairing_number)).toEqual(['P1', 'P4']);
    expect(result.nextState.layovers.map((l) => l.row)).toEqual([3]);
  });

  it('uses the booked departure for the priority of a cancellation', () => {
    const gone = submission([p1([crew('E1')], { dh: { activity_code: 'FLT' } })]);
    // Booked departure 2026-12-02 10:00Z, 30 h after processing; the roster's leg is days later.
    const items = flightItems(
      run(gone, {
        previous: oneE1,
        flightBookings: [flightBooking({ dep_time_local: '2026-12-02T10:00:00Z' })],
        processedAt: '2026-12-01T04:00:00Z',
      }),
    );
    expect(items.map((i) => [i.classification, i.priority, i.event_at])).toEqual([
      ['DEADHEAD_CANCELLED', 'P2', '2026-12-02T10:00:00.000Z'],
    ]);
  });

  it('rows kept by bookingsFor match exactly: re-sending the same roster gives nothing', () => {
    const flat = flattenRoster(oneE1);
    expect(run(oneE1, { previous: oneE1, ...bookingsFor(flat) }).actionItems).toEqual([]);
  });
});

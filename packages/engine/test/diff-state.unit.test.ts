import { diffStateOf, requestedBookingsByKey, requestedBookingKey, type WindowBookingRow } from '../src';

const row = (over: Partial<WindowBookingRow>): WindowBookingRow => ({
  booking_id: 'b1',
  status: 'CONFIRMED',
  manual_override: false,
  pending_cancel: false,
  retry_count: 0,
  traveller_email: 'a@x.test',
  employee_id: 'E1',
  pairing_number: 'P1',
  duty_date: '2027-03-01',
  duty_period_num: 1,
  leg_sequence: null,
  flight_number: null,
  station: 'ORD',
  checkin_time_local: '2027-03-01T20:00:00-06:00',
  checkout_time_local: '2027-03-02T08:00:00-06:00',
  from_airport: null,
  to_airport: null,
  dep_time_local: null,
  arr_time_local: null,
  ...over,
});

describe('diffStateOf', () => {
  it('counts a booking whose cancellation awaits review as cancelled for the diff, and keeps its stored status for the plan', () => {
    const s = diffStateOf(
      null,
      [row({ booking_id: 'h1', status: 'NEEDS_REVIEW', pending_cancel: true, retry_count: 2 })],
      [],
    );
    expect(s.hotelBookings[0]!.status).toBe('CANCELLED');
    expect(s.statusById.get('h1')).toBe('NEEDS_REVIEW');
    expect(s.retryCounts.get('h1')).toBe(2);
  });

  it('maps missing stay and leg fields to empty strings', () => {
    const s = diffStateOf(
      null,
      [row({ station: null, checkin_time_local: null })],
      [row({ booking_id: 'f1', leg_sequence: 2, flight_number: 'XX1' })],
    );
    expect(s.hotelBookings[0]).toMatchObject({ station: '', checkin_time_local: '' });
    expect(s.flightBookings[0]).toMatchObject({
      booking_id: 'f1',
      from_airport: '',
      to_airport: '',
      dep_time_local: '',
      arr_time_local: '',
      leg_sequence: 2,
      flight_number: 'XX1',
    });
  });
});

it('requestedBookingsByKey groups the requested bookings by type, traveller (lower case) and date', () => {
  const m = requestedBookingsByKey([
    {
      booking_id: 'r1',
      type: 'HOTEL',
      status: 'CONFIRMED',
      traveller_email: 'A@x.test',
      pairing_number: null,
      duty_date: '2027-03-01',
    },
    {
      booking_id: 'r2',
      type: 'HOTEL',
      status: 'PENDING',
      traveller_email: 'a@x.test',
      pairing_number: 'P1',
      duty_date: '2027-03-01',
    },
  ]);
  expect(m.get(requestedBookingKey('HOTEL', 'a@x.test', '2027-03-01'))!.map((b) => b.booking_id)).toEqual(['r1', 'r2']);
});

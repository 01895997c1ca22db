import {
  diffAgainst,
  diffStateOf,
  flattenRoster,
  requestedBookingsByKey,
  requestedBookingKey,
  returnedHolds,
  withKeptHolds,
  type HeldBooking,
  type StoredCancellation,
  type WindowBookingRow,
} from '../src';
import type { Layover } from '@crew/contracts';
import { crew, p1, PROCESSED_AT, submission, ts, WINDOW } from './fixtures';

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

describe('a held cancellation the roster brings back (returnedHolds, withKeptHolds)', () => {
  const flatOf = (lay?: Partial<Layover>) => flattenRoster(submission([p1([crew('E1')], lay ? { lay } : {})]));
  const booked = flatOf().layovers[0]!;
  /** The booking whose cancellation is held: CONFIRMED, pending_cancel, on the stay first rostered. */
  const heldRow = row({
    booking_id: 'h1',
    pending_cancel: true,
    employee_id: 'E1',
    pairing_number: 'P1',
    duty_period_num: 1,
    duty_date: '2026-12-10',
    station: booked.station,
    checkin_time_local: booked.checkin_time_local,
    checkout_time_local: booked.checkout_time_local,
  });
  const cancellation = (hold: StoredCancellation['hold']): StoredCancellation => ({
    ref: 'ref-1',
    action_id: 'a1',
    deadline: null,
    penalty: null,
    penalty_avoided: null,
    message: '',
    hold,
  });
  const HELD = cancellation({ status: 'HELD', hold_until: '2026-11-01T00:30:00.000Z' });
  const held = (c: StoredCancellation = HELD): HeldBooking => ({
    booking_id: 'h1',
    employee_id: 'E1',
    pairing_number: 'P1',
    duty_period_num: 1,
    station: heldRow.station,
    checkin_time_local: heldRow.checkin_time_local,
    checkout_time_local: heldRow.checkout_time_local,
    cancellation: c,
  });
  const state = diffStateOf(null, [heldRow], []);
  const hotelItems = (flat: ReturnType<typeof flatOf>, s = state) =>
    diffAgainst(flat, s, { emitUnchanged: false, policy: { cancellation_lookback_days: 0 } }, WINDOW, PROCESSED_AT)
      .actionItems.filter((i) => i.type === 'HOTEL')
      .map((i) => `${i.classification}:${i.booking_id}`);

  const moved = flatOf({ checkin_time_local: ts('2026-12-10', '17:00', '+01:00') });
  const elsewhere = flatOf({ station: 'MUC' });

  it('the same stay back: withdrawn, and the booking stays as it was (no item)', () => {
    const [r] = returnedHolds([held()], flatOf().layovers, state.hotelBookings, WINDOW, PROCESSED_AT);
    expect(r).toMatchObject({ booking_id: 'h1', ref: 'ref-1' });
    expect(r!.message).toContain('the booking stays as it was');
    expect(hotelItems(flatOf(), withKeptHolds(state, new Set(['h1'])))).toEqual([]);
  });

  it('another stay back: withdrawn, and the diff changes the live booking (the amend rules), where it saw it cancelled', () => {
    for (const flat of [moved, elsewhere]) {
      const [r] = returnedHolds([held()], flat.layovers, state.hotelBookings, WINDOW, PROCESSED_AT);
      expect(r!.message).toContain('the roster brought the layover back with another stay');
      // Seen cancelled (pending_cancel), the booking was skipped by rule 10: no item, the old stay kept.
      expect(hotelItems(flat)).toEqual([]);
    }
    const kept = withKeptHolds(state, new Set(['h1']));
    expect(kept.hotelBookings[0]!.status).toBe('CONFIRMED');
    expect(hotelItems(moved, kept)).toEqual(['LAYOVER_DATE_CHANGE:h1']);
    expect(hotelItems(elsewhere, kept)).toEqual(['LAYOVER_CITY_CHANGE:h1']);
  });

  it('nothing withdrawn when the layover is not back, the hold already ended, or the diff does not reconcile it', () => {
    const none = (h: HeldBooking, flat = moved, diffed = state.hotelBookings, window = WINDOW) =>
      returnedHolds([h], flat.layovers, diffed, window, PROCESSED_AT);
    expect(none(held(), flattenRoster(submission([p1([crew('E2')])])))).toEqual([]);
    expect(none(held(cancellation({ status: 'RELEASED', at: PROCESSED_AT })))).toEqual([]);
    expect(none(held(cancellation({ status: 'KEPT', at: PROCESSED_AT })))).toEqual([]);
    // The diff does not read the booking, or the stay is dated outside its window: the hold runs out.
    expect(none(held(), moved, [])).toEqual([]);
    expect(none(held(), moved, state.hotelBookings, { start: '2026-12-11', end: '2026-12-31' })).toEqual([]);
    // withKeptHolds without kept bookings is the state itself.
    expect(withKeptHolds(state, new Set())).toBe(state);
  });
});

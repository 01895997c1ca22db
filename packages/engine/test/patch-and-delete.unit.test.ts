/** The booking lifecycle of a PATCH or DELETE by the airline (spec 3.2, 4.4). */
import fc from 'fast-check';
import {
  awaitsHotelAnswer,
  awaitsOwnSeatAnswer,
  DEFAULT_CHECK_IN,
  DEFAULT_CHECK_OUT,
  deleteNeedsSupplierCall,
  holdsReservation,
  ownSeatOutcomeUnknown,
  patchBlockIssue,
  patchPlan,
  taskInFlight,
  type PatchedBooking,
} from '../src';
import { status, HOTEL } from './lifecycle-fixtures';

describe('PATCH and DELETE', () => {
  const hotelBooking = (over: Partial<PatchedBooking> = {}): PatchedBooking => ({
    type: 'HOTEL',
    status: 'CONFIRMED',
    hotel: { property_id: 'GDS-FRA-1' },
    booked_by: 'old@x',
    station: 'FRA',
    checkin_time_local: '2026-12-10T14:00:00+01:00',
    checkout_time_local: '2026-12-12T10:00:00+01:00',
    ...over,
  });

  test('the block must match the booking type', () => {
    expect(patchBlockIssue('FLIGHT', { hotel: {} })).toEqual({
      field: '/hotel',
      issue: 'does not match a FLIGHT booking',
    });
    expect(patchBlockIssue('HOTEL', { flight: {} })).toEqual({
      field: '/flight',
      issue: 'does not match a HOTEL booking',
    });
    expect(patchBlockIssue('HOTEL', { hotel: {} })).toBeNull();
    // Both blocks: the one that does not match is named, whichever type the booking is.
    expect(patchBlockIssue('HOTEL', { hotel: {}, flight: {} })).toEqual({
      field: '/flight',
      issue: 'does not match a HOTEL booking',
    });
    expect(patchBlockIssue('FLIGHT', { hotel: {}, flight: {} })).toEqual({
      field: '/hotel',
      issue: 'does not match a FLIGHT booking',
    });
  });

  test('no block: only the override changes', () => {
    expect(patchPlan(hotelBooking(), {}, 'me@x', HOTEL, null)).toEqual({ kind: 'OVERRIDE_ONLY' });
  });

  test('hotel dates: an amend of the same booking, keeping times and offsets', () => {
    expect(patchPlan(hotelBooking(), { hotel: { check_out_date: '2026-12-13' } }, 'me@x', HOTEL, null)).toEqual({
      kind: 'AMEND',
      operation: 'AMEND',
      changes: {
        checkin_time_local: '2026-12-10T14:00:00+01:00',
        checkout_time_local: '2026-12-13T10:00:00+01:00',
        duty_date: '2026-12-10',
      },
    });
  });

  test('a booking without times gets the default stay times, at UTC', () => {
    const plan = patchPlan(
      hotelBooking({ checkin_time_local: null, checkout_time_local: null }),
      { hotel: { check_in_date: '2026-12-10', check_out_date: '2026-12-11' } },
      'me@x',
      HOTEL,
      null,
    );
    expect(plan).toMatchObject({
      kind: 'AMEND',
      changes: {
        checkin_time_local: `2026-12-10T${DEFAULT_CHECK_IN}:00+00:00`,
        checkout_time_local: `2026-12-11T${DEFAULT_CHECK_OUT}:00+00:00`,
      },
    });
  });

  test('check-out not after check-in is invalid; a cancelled booking or one holding no room cannot be amended', () => {
    expect(patchPlan(hotelBooking(), { hotel: { check_out_date: '2026-12-10' } }, 'me@x', HOTEL, null)).toMatchObject({
      kind: 'INVALID',
      field: '/hotel/check_out_date',
    });
    expect(
      patchPlan(
        hotelBooking({ status: 'CANCELLED' }),
        { hotel: { check_out_date: '2026-12-13' } },
        'me@x',
        HOTEL,
        null,
      ),
    ).toMatchObject({ kind: 'CONFLICT' });
    for (const s of ['FAILED', 'NEEDS_REVIEW'] as const)
      expect(
        patchPlan(hotelBooking({ status: s }), { hotel: { check_out_date: '2026-12-13' } }, 'me@x', HOTEL, null),
      ).toMatchObject({ kind: 'CONFLICT' });
  });

  test("another property: cancel-and-rebook, at the station hotel's contract and channel when it is the configured one", () => {
    const configured = { ...HOTEL, property_id: 'NEW' };
    expect(patchPlan(hotelBooking(), { hotel: { property_id: 'NEW' } }, 'me@x', configured, 'booker@x')).toEqual({
      kind: 'REBOOK',
      changes: {
        checkin_time_local: '2026-12-10T14:00:00+01:00',
        checkout_time_local: '2026-12-12T10:00:00+01:00',
        duty_date: '2026-12-10',
        hotel: {
          property_id: 'NEW',
          contract_id: 10,
          contracted_rate: { amount: 120, currency: 'EUR' },
          handler_type: 'DIRECT',
          hotel_config_id: 7,
          name: 'Airport Hotel FRA',
        },
        booked_by: 'booker@x',
      },
    });
    // A property the station has not configured: just the property, under the booking's own booker when the airline has none.
    expect(
      patchPlan(hotelBooking({ status: 'FAILED' }), { hotel: { property_id: 'ELSE' } }, 'me@x', HOTEL, null),
    ).toMatchObject({
      kind: 'REBOOK',
      changes: { hotel: { property_id: 'ELSE' }, booked_by: 'old@x' },
    });
  });

  test('any flight change is cancel-and-rebook: a chosen option under the caller, a search under the booking account it had', () => {
    const f: PatchedBooking = { ...hotelBooking(), type: 'FLIGHT', hotel: null };
    expect(patchPlan(f, { flight: { flight_option_id: 'OPT' } }, 'me@x', undefined, null)).toEqual({
      kind: 'REBOOK',
      changes: { flight: { flight_option_id: 'OPT' }, booked_by: 'me@x' },
    });
    expect(patchPlan(f, { flight: { desired_arrival_by: '2026-12-10T12:00:00Z' } }, 'me@x', undefined, null)).toEqual({
      kind: 'REBOOK',
      changes: {
        flight: { constraints: { depart_after: null, arrive_by: '2026-12-10T12:00:00Z', cabin_class: null } },
        booked_by: 'old@x',
      },
    });
  });

  test('PATCH is never gated by a status other than CANCELLED for a rebook (property)', () => {
    fc.assert(
      fc.property(status, (s) => {
        const plan = patchPlan(hotelBooking({ status: s }), { hotel: { property_id: 'NEW' } }, 'me@x', HOTEL, null);
        expect(plan.kind).toBe(s === 'CANCELLED' ? 'CONFLICT' : 'REBOOK');
      }),
    );
  });

  test('DELETE calls the supplier unless the booking is already CANCELLED', () => {
    fc.assert(fc.property(status, (s) => expect(deleteNeedsSupplierCall(s)).toBe(s !== 'CANCELLED')));
  });

  test('a task is in flight while PENDING, unless a DIRECT hotel only has to answer its rooming list', () => {
    expect(taskInFlight({ status: 'PENDING', hotel: null })).toBe(true);
    expect(taskInFlight({ status: 'PENDING', hotel: { rooming_status: 'SENT' } })).toBe(false);
    expect(taskInFlight({ status: 'PENDING', hotel: { rooming_status: 'CONFIRMED' } })).toBe(true);
    expect(taskInFlight({ status: 'CONFIRMED', hotel: null })).toBe(false);
    expect(awaitsHotelAnswer({ rooming_status: 'QUEUED' })).toBe(true);
    expect(awaitsHotelAnswer(null)).toBe(false);
  });

  test("a deadhead waiting for the airline's own system to call back is not in flight", () => {
    const requested = { supplier: 'OWN_AIRLINE', supplier_status: 'REQUESTED', request_reference: 'bk-1' };
    expect(taskInFlight({ status: 'PENDING', hotel: null, flight: requested })).toBe(false);
    // Answered (the callback's resume runs), or another supplier's order: in flight.
    expect(
      taskInFlight({ status: 'PENDING', hotel: null, flight: { ...requested, supplier_status: 'CONFIRMED' } }),
    ).toBe(true);
    expect(taskInFlight({ status: 'PENDING', hotel: null, flight: { ...requested, supplier: 'DUFFEL' } })).toBe(true);
    expect(awaitsOwnSeatAnswer({ ...requested, pnr: 'XX0001' })).toBe(false);
    expect(awaitsOwnSeatAnswer({ supplier: 'OWN_AIRLINE', supplier_status: 'REQUESTED' })).toBe(false);
    expect(awaitsOwnSeatAnswer(null)).toBe(false);
  });

  test('a crew-seat request without an answer read is one whose outcome is unknown; any answer or a PNR settles that', () => {
    const sent = { supplier: 'OWN_AIRLINE', request_reference: 'bk-1' };
    expect(ownSeatOutcomeUnknown(sent)).toBe(true);
    for (const supplier_status of ['REQUESTED', 'REFUSED', 'CONFIRMED', 'CANCELLED'])
      expect(ownSeatOutcomeUnknown({ ...sent, supplier_status })).toBe(false);
    expect(ownSeatOutcomeUnknown({ ...sent, pnr: 'XX0001' })).toBe(false);
    expect(ownSeatOutcomeUnknown({ ...sent, supplier: 'DUFFEL' })).toBe(false);
    expect(ownSeatOutcomeUnknown({ supplier: 'OWN_AIRLINE' })).toBe(false);
    expect(ownSeatOutcomeUnknown(null)).toBe(false);
  });

  test('only CONFIRMED and MODIFIED hold a reservation', () => {
    fc.assert(fc.property(status, (s) => expect(holdsReservation(s)).toBe(s === 'CONFIRMED' || s === 'MODIFIED')));
  });
});

/** The booking lifecycle of an airline's request (spec 2.7, 4.2, 4.4): what it is checked for and decided. */
import fc from 'fast-check';
import {
  awaitsManualBooking,
  cancellationTarget,
  CANCELLING_CLASSIFICATIONS,
  dateOfBirthIssue,
  decideRequest,
  flightTravellerIssue,
  isCancellingRequest,
  manualOverrideOf,
  NO_BOOKER,
  NO_DOB,
  requestBookedBy,
  requestDisposition,
  requestIssues,
  requestPriority,
  requestSource,
  requestSubtype,
} from '../src';
import { decisionArb, policy } from './lifecycle-fixtures';

describe("an airline's request", () => {
  const flight = { action_id: 'a', type: 'FLIGHT' as const, classification: 'NEW_DEADHEAD', traveller_email: 't@x' };

  test('a flight commit is booked under the caller, even without a booking account or the deadhead lever', () => {
    expect(decideRequest({ ...flight, kind: 'commit' }, policy({ crew_booker_email: null }))).toMatchObject({
      action: 'AUTO_BOOK',
      auto_eligible: true,
    });
    expect(requestBookedBy('FLIGHT', 'commit', 'me@x', 'booker@x')).toBe('me@x');
    expect(requestBookedBy('FLIGHT', 'injection', 'me@x', 'booker@x')).toBe('booker@x');
    expect(requestBookedBy('HOTEL', 'commit', 'me@x', null)).toBeNull();
  });

  test('an injected flight is gated by the booking account only, not by the deadhead lever', () => {
    expect(decideRequest({ ...flight, kind: 'injection' }, policy())).toMatchObject({ action: 'AUTO_BOOK' });
    expect(decideRequest({ ...flight, kind: 'injection' }, policy({ crew_booker_email: null }))).toEqual({
      action: 'REVIEW',
      auto_eligible: false,
      reason: NO_BOOKER,
      recommended_action: null,
      flight_options_url: null,
    });
  });

  test('a hotel request goes through the policy: the configured hotel and its contract, or review', () => {
    const stay = {
      action_id: 'a',
      kind: 'injection' as const,
      type: 'HOTEL' as const,
      classification: 'NEW_LAYOVER',
      traveller_email: 't@x',
      station: 'FRA',
      checkin_time_local: '2026-12-10T15:00:00+01:00',
      checkout_time_local: '2026-12-11T11:00:00+01:00',
    };
    expect(decideRequest(stay, policy())).toMatchObject({
      action: 'AUTO_BOOK',
      hotel: { property_id: 'GDS-FRA-1', contract_id: 10 },
    });
    expect(decideRequest({ ...stay, property_id: 'OTHER' }, policy())).toMatchObject({ action: 'REVIEW' });
    expect(decideRequest(stay, policy({ crew_booker_email: null }))).toMatchObject({
      action: 'REVIEW',
      reason: NO_BOOKER,
    });
  });

  test('cancelling classifications make CANCEL items; every other one a NEW_BOOKING', () => {
    for (const c of CANCELLING_CLASSIFICATIONS) {
      expect(isCancellingRequest(c)).toBe(true);
      expect(requestSubtype(c)).toBe('CANCEL');
    }
    expect(requestSubtype('NEW_LAYOVER')).toBe('NEW_BOOKING');
  });

  test('defaults: P2, AIRLINE_INJECTED unless an irop_ref makes it IROP, manual_override true unless false', () => {
    expect(requestPriority(undefined)).toBe('P2');
    expect(requestPriority('P1')).toBe('P1');
    expect(requestSource(undefined, null)).toBe('AIRLINE_INJECTED');
    expect(requestSource(undefined, 'IR-1')).toBe('IROP');
    expect(requestSource('AIRLINE_INJECTED', 'IR-1')).toBe('AIRLINE_INJECTED');
    expect(manualOverrideOf(undefined)).toBe(true);
    expect(manualOverrideOf(false)).toBe(false);
  });

  test('the injected item is PENDING_REVIEW at once only when held for review', () => {
    fc.assert(
      fc.property(decisionArb, (d) =>
        expect(requestDisposition(d)).toBe(d.action === 'REVIEW' ? 'PENDING_REVIEW' : null),
      ),
    );
    expect(requestDisposition(null)).toBeNull();
  });

  test('a flight booking needs a date of birth; a cancellation or a hotel does not', () => {
    expect(dateOfBirthIssue('FLIGHT', 'NEW_DEADHEAD', null)).toBe(NO_DOB);
    expect(dateOfBirthIssue('FLIGHT', 'NEW_DEADHEAD', '1980-01-01')).toBeNull();
    expect(dateOfBirthIssue('FLIGHT', 'DEADHEAD_CANCELLED', null)).toBeNull();
    expect(dateOfBirthIssue('HOTEL', 'NEW_LAYOVER', null)).toBeNull();
    expect(flightTravellerIssue(undefined)).toBe(NO_DOB);
    expect(flightTravellerIssue('1980-01-01')).toBeNull();
  });

  test('a booking left for a person with nothing reserved is fulfilled by a request', () => {
    expect(awaitsManualBooking({ status: 'NEEDS_REVIEW', hotel: null, flight: { flight_option_id: null } })).toBe(true);
    expect(awaitsManualBooking({ status: 'NEEDS_REVIEW', hotel: { supplier_ref: 'R' }, flight: null })).toBe(false);
    expect(awaitsManualBooking({ status: 'CONFIRMED', hotel: null, flight: null })).toBe(false);
  });

  test('a cancellation lets go a booking not already on its way out first, and one held or awaiting a person otherwise', () => {
    const booked = (id: string, pending_cancel: boolean) =>
      ({ id, status: 'CONFIRMED', hotel: { supplier_ref: id }, flight: null, pending_cancel }) as const;
    const left = (id: string, pending_cancel: boolean) =>
      ({ id, status: 'NEEDS_REVIEW', hotel: null, flight: null, pending_cancel }) as const;
    expect(cancellationTarget([])).toBeUndefined();
    // Newest first: the live booking, not the older one whose roster cancellation is held.
    expect(cancellationTarget([booked('new', false), booked('held', true)])?.id).toBe('new');
    expect(cancellationTarget([booked('held', true), booked('new', false)])?.id).toBe('new');
    // One left for a person still comes before a booking already on its way out.
    expect(cancellationTarget([booked('held', true), left('waiting', false)])?.id).toBe('waiting');
    expect(cancellationTarget([left('waiting', false), booked('live', false)])?.id).toBe('live');
    // Only bookings on their way out: the request carries out their cancellation.
    expect(cancellationTarget([left('a', true), booked('held', true)])?.id).toBe('held');
  });
});

describe('requestIssues', () => {
  const anchors = { traveller_email: 't@x' };
  test('num_nights beside check_out_date must agree with the dates, as in a PATCH; it is never below 1', () => {
    const hotel = (h: Record<string, unknown>) =>
      requestIssues(
        { type: 'HOTEL', classification: 'NEW_LAYOVER', anchors, hotel: { city: 'FRA', ...h } } as never,
        false,
      );
    expect(hotel({ check_in_date: '2026-12-10', check_out_date: '2026-12-12', num_nights: 3 })).toEqual([
      { field: '/hotel/num_nights', issue: 'disagrees with the dates: 2026-12-10 to 2026-12-12 is not 3 night(s)' },
    ]);
    expect(hotel({ check_in_date: '2026-12-10', check_out_date: '2026-12-12', num_nights: 2 })).toEqual([]);
    expect(hotel({ check_in_date: '2026-12-10', num_nights: -1 })).toEqual([
      { field: '/hotel/num_nights', issue: 'must be at least 1' },
    ]);
    // The same rule in a commit (POST /crew/bookings/request) and in a PATCH.
    expect(
      requestIssues(
        {
          type: 'HOTEL',
          classification: 'NEW_LAYOVER',
          anchors,
          hotel: { city: 'FRA', check_in_date: '2026-12-10', check_out_date: '2026-12-11', num_nights: 2 },
        } as never,
        true,
      ).map((i) => i.field),
    ).toEqual(['/hotel/num_nights']);
  });
  test('the block its type needs and no other; irop_ref for IROP; a hotel city or property and a later check-out', () => {
    expect(requestIssues({ type: 'HOTEL', classification: 'NEW_LAYOVER', anchors } as never, false)).toEqual([
      { field: '/hotel', issue: 'is required when type is HOTEL' },
    ]);
    expect(
      requestIssues(
        {
          type: 'HOTEL',
          classification: 'NEW_LAYOVER',
          source: 'IROP',
          anchors,
          hotel: { check_in_date: '2026-12-10', check_out_date: '2026-12-10' },
        } as never,
        false,
      ).map((i) => i.field),
    ).toEqual(['/irop_ref', '/hotel/city', '/hotel/check_out_date']);
    expect(
      requestIssues(
        {
          type: 'HOTEL',
          classification: 'NEW_LAYOVER',
          anchors,
          hotel: { city: 'FRA', check_in_date: '2026-12-10', num_nights: 1 },
        } as never,
        false,
      ),
    ).toEqual([]);
  });

  test('a flight needs its route and date, unless a commit names an option; a cancellation needs only a date', () => {
    const flight = (f: object, commit: boolean, classification = 'NEW_DEADHEAD', dutyDate?: string) =>
      requestIssues(
        { type: 'FLIGHT', classification, anchors: { ...anchors, duty_date: dutyDate }, flight: f } as never,
        commit,
      ).map((i) => `${i.field} ${i.issue}`);
    expect(flight({}, false)).toEqual([
      '/flight/from_airport is required',
      '/flight/to_airport is required',
      '/flight/depart_date is required',
    ]);
    expect(flight({}, true)).toEqual([
      '/flight/from_airport is required without flight_option_id',
      '/flight/to_airport is required without flight_option_id',
      '/flight/depart_date is required without flight_option_id',
    ]);
    expect(flight({ flight_option_id: 'O' }, true)).toEqual([]);
    // The date finds the booking to cancel: the flight's, the anchors' or a committed offer's.
    expect(flight({}, false, 'DEADHEAD_CANCELLED')).toEqual([
      '/flight/depart_date or anchors.duty_date is required to find the booking to cancel',
    ]);
    expect(flight({}, false, 'IROP_HOTEL_CANCEL')).toEqual([
      '/flight/depart_date or anchors.duty_date is required to find the booking to cancel',
    ]);
    expect(flight({ depart_date: '2026-12-10' }, false, 'DEADHEAD_CANCELLED')).toEqual([]);
    expect(flight({}, false, 'DEADHEAD_CANCELLED', '2026-12-10')).toEqual([]);
    expect(flight({ flight_option_id: 'O' }, true, 'DEADHEAD_CANCELLED')).toEqual([]);
    expect(flight({ from_airport: 'FRA', to_airport: 'FRA', depart_date: '2026-12-10' }, false)).toEqual([
      '/flight/to_airport must differ from from_airport',
    ]);
  });
});

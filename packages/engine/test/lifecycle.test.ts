/**
 * The booking lifecycle (spec 2.3-2.5, 3.2, 4.4): what an airline's request becomes, the status and task a
 * decision starts, PATCH and DELETE, a supplier failure's outcome, retries and task identity.
 */
import fc from 'fast-check';
import { BOOKING_STATUSES, flightOptionsUrl } from '@crew/contracts';
import {
  amendedStatus,
  automaticRetryApplies,
  awaitsHotelAnswer,
  awaitsManualBooking,
  bookingStatusOf,
  CANCELLING_CLASSIFICATIONS,
  dateOfBirthIssue,
  decideRequest,
  DEFAULT_CHECK_IN,
  DEFAULT_CHECK_OUT,
  deleteNeedsSupplierCall,
  flightTravellerIssue,
  holdsReservation,
  hotelBlockOf,
  internalErrorOutcome,
  isCancellingRequest,
  isCurrentTask,
  manualOverrideOf,
  NO_BOOKER,
  NO_DOB,
  NO_FX_RATES,
  patchBlockIssue,
  patchPlan,
  requestBlocks,
  requestBookedBy,
  requestDisposition,
  requestDutyDate,
  requestIssues,
  requestPriority,
  requestSource,
  requestSubtype,
  reservationOutcome,
  retryable,
  retryRefusal,
  supplierErrorOutcome,
  supplierReference,
  taskIdentity,
  taskInFlight,
  taskOperation,
  taskOperationOf,
  taskRefOf,
  ticketingOutcome,
  urgentEvents,
  type Decision,
  type PatchedBooking,
  type PolicyContext,
  type StationHotel,
} from '../src';

const status = fc.constantFrom(...BOOKING_STATUSES);
const decisionArb: fc.Arbitrary<Decision> = fc.record({
  action: fc.constantFrom('AUTO_BOOK', 'AUTO_MODIFY', 'AUTO_CANCEL', 'REVIEW', 'NONE'),
  auto_eligible: fc.boolean(),
  reason: fc.option(fc.string()),
  recommended_action: fc.constant(null),
  flight_options_url: fc.constant(null),
});

const HOTEL: StationHotel = {
  hotel_config_id: 7,
  station: 'FRA',
  property_id: 'GDS-FRA-1',
  handler_type: 'DIRECT',
  name: 'Airport Hotel FRA',
  terms: { policy: 'STANDARD', standard_check_in_time: '15:00', standard_check_out_time: '11:00' },
  contracts: [
    {
      contract_id: 10,
      contract_from: '2026-12-01',
      contract_to: '2026-12-31',
      automated_booking_enabled: true,
      rate_periods: [
        { effective_from: '2026-12-01', effective_to: '2026-12-31', rate: { amount: 120, currency: 'EUR' } },
      ],
    },
  ],
};

function policy(over: Partial<PolicyContext> = {}): PolicyContext {
  return {
    settings: {
      deadhead_auto_booking: false,
      booking_modification: true,
      swap_execution: true,
      cancellation_execution: true,
    },
    crew_booker_email: 'booker@airline.example.com',
    cancellation_lookback_days: 0,
    hotels: new Map([['FRA', HOTEL]]),
    travellerHasDob: () => true,
    processedAt: '2026-12-05T10:00:00Z',
    flightOptionsUrl,
    ...over,
  };
}

describe('a decision starts a booking and its task', () => {
  test('an automatic decision leaves the booking PENDING with its task; review or nothing waits for a person', () => {
    fc.assert(
      fc.property(decisionArb, (d) => {
        const op = taskOperationOf(d);
        expect(bookingStatusOf(d)).toBe(op ? 'PENDING' : 'NEEDS_REVIEW');
        expect(op === null).toBe(d.action === 'REVIEW' || d.action === 'NONE');
      }),
    );
    expect(taskOperationOf({ action: 'AUTO_BOOK' } as Decision)).toBe('BOOK');
    expect(taskOperationOf({ action: 'AUTO_MODIFY' } as Decision)).toBe('AMEND');
    expect(taskOperationOf({ action: 'AUTO_CANCEL' } as Decision)).toBe('CANCEL');
  });

  test("the hotel block names the chosen hotel, its channel and the contract's rate", () => {
    expect(
      hotelBlockOf({
        hotel_config_id: 7,
        property_id: 'P',
        handler_type: 'GDS',
        name: 'N',
        contract_id: 10,
        rate: { amount: 1, currency: 'EUR' },
      }),
    ).toEqual({
      property_id: 'P',
      name: 'N',
      handler_type: 'GDS',
      hotel_config_id: 7,
      contract_id: 10,
      contracted_rate: { amount: 1, currency: 'EUR' },
    });
  });
});

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
});

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

  test('only CONFIRMED and MODIFIED hold a reservation', () => {
    fc.assert(fc.property(status, (s) => expect(holdsReservation(s)).toBe(s === 'CONFIRMED' || s === 'MODIFIED')));
  });
});

describe("a task's end and its retries", () => {
  test('a transient supplier failure is FAILED (retryable), a refusal NEEDS_REVIEW', () => {
    expect(supplierErrorOutcome({ transient: true, code: 'SUPPLIER_TIMEOUT', message: 'slow' })).toEqual({
      status: 'FAILED',
      reason: 'SUPPLIER_TIMEOUT: slow',
    });
    expect(supplierErrorOutcome({ transient: false, code: 'NO_AVAILABILITY', message: 'full' })).toEqual({
      status: 'NEEDS_REVIEW',
      reason: 'supplier refused (NO_AVAILABILITY): full',
    });
    fc.assert(
      fc.property(fc.boolean(), fc.string(), fc.string(), (transient, code, message) =>
        expect(supplierErrorOutcome({ transient, code, message }).status).toBe(transient ? 'FAILED' : 'NEEDS_REVIEW'),
      ),
    );
    expect(internalErrorOutcome('boom')).toEqual({ status: 'FAILED', reason: 'internal error: boom' });
  });

  test('a manual retry: FAILED only, while retries are left', () => {
    expect(retryRefusal({ status: 'CONFIRMED', retry_count: 0 }, 3)).toBe(
      'Only a FAILED booking can be retried; this one is CONFIRMED',
    );
    expect(retryRefusal({ status: 'FAILED', retry_count: 3 }, 3)).toBe('The booking has used its 3 retries');
    expect(retryRefusal({ status: 'FAILED', retry_count: 2 }, 3)).toBeNull();
    fc.assert(
      fc.property(status, fc.nat(10), fc.nat(10), (s, count, max) =>
        expect(retryable({ status: s, retry_count: count }, max)).toBe(s === 'FAILED' && count < max),
      ),
    );
  });

  test('a job is the current task only while PENDING with the same task and attempt; an automatic retry only while FAILED one attempt later', () => {
    fc.assert(
      fc.property(
        status,
        fc.nat(5),
        fc.nat(7),
        fc.option(fc.constantFrom('BOOK-1', 'AMEND-2')),
        fc.option(fc.constantFrom('BOOK-1', 'AMEND-2')),
        (s, count, attempt, bookingRef, jobRef) => {
          const b = { status: s, retry_count: count, task_ref: bookingRef };
          const job = { attempt, ref: jobRef };
          expect(isCurrentTask(b, job)).toBe(s === 'PENDING' && bookingRef === jobRef && attempt === count + 1);
          expect(automaticRetryApplies(b, job)).toBe(s === 'FAILED' && bookingRef === jobRef && attempt === count + 2);
        },
      ),
    );
  });

  test("a task's operation is its own field; a row without it names it in its ref", () => {
    expect(taskOperation({ task_operation: 'AMEND', task_ref: 'BOOK-1' })).toBe('AMEND');
    expect(taskOperation({ task_operation: null, task_ref: taskRefOf('CANCEL', 'x-y') })).toBe('CANCEL');
    expect(taskOperation({ task_ref: null })).toBe('BOOK');
    fc.assert(
      fc.property(fc.constantFrom('BOOK', 'AMEND', 'CANCEL' as const), fc.uuid(), (op, id) =>
        expect(taskOperation({ task_ref: taskRefOf(op, id) })).toBe(op),
      ),
    );
  });
});

describe('supplier idempotency references', () => {
  test('the forms every supplier already holds', () => {
    expect(supplierReference('book', 'B')).toBe('bk-B');
    expect(supplierReference('book', 'B', 'T')).toBe('bk-B-T');
    expect(supplierReference('cancel', 'B')).toBe('cx-B');
    expect(supplierReference('cancel', 'B', 'T')).toBe('cx-B-T');
    expect(supplierReference('amend', 'B', 'T')).toBe('am-T');
  });

  test('distinct tasks of a booking never share a reference; the same task always has the same one', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.uuid(),
        fc.uuid(),
        fc.constantFrom('book', 'cancel', 'amend' as const),
        (b, t1, t2, step) => {
          expect(supplierReference(step, b, t1)).toBe(supplierReference(step, b, t1));
          if (t1 !== t2) expect(supplierReference(step, b, t1)).not.toBe(supplierReference(step, b, t2));
          if (step !== 'amend') expect(supplierReference(step, b)).not.toBe(supplierReference(step, b, t1));
        },
      ),
    );
  });

  test("a task's identity: its job's ref, else its action item, else the booking", () => {
    expect(taskIdentity({ ref: 'R', action_id: 'A' }, 'B')).toBe('R');
    expect(taskIdentity({ ref: null, action_id: 'A' }, 'B')).toBe('A');
    expect(taskIdentity({}, 'B')).toBe('B');
  });
});

describe('what a request books and what a supplier answer makes of it', () => {
  const auto = {
    action: 'AUTO_BOOK',
    auto_eligible: true,
    reason: null,
    recommended_action: null,
    flight_options_url: null,
  } as Decision;

  test("a request's date: the stay's check-in; a flight's body date, else its anchors', else the offer's local departure date", () => {
    expect(requestDutyDate('HOTEL', { check_in_date: '2026-12-10' }, '2026-01-01', null, null)).toBe('2026-12-10');
    expect(requestDutyDate('FLIGHT', null, '2026-12-11', '2026-12-12', '2026-12-13T08:00:00-05:00')).toBe('2026-12-11');
    expect(requestDutyDate('FLIGHT', null, undefined, '2026-12-12', '2026-12-13T08:00:00-05:00')).toBe('2026-12-12');
    expect(requestDutyDate('FLIGHT', null, undefined, undefined, '2026-12-13T23:00:00-05:00')).toBe('2026-12-13');
  });

  test("a request's blocks: the chosen hotel, else the pinned property; a flight's option or constraints", () => {
    const chosen = {
      ...auto,
      hotel: {
        hotel_config_id: 7,
        property_id: 'P',
        handler_type: 'GDS' as const,
        name: null,
        contract_id: 1,
        rate: { amount: 1, currency: 'EUR' },
      },
    };
    expect(requestBlocks('HOTEL', chosen, 'X', undefined).hotel).toMatchObject({ property_id: 'P', contract_id: 1 });
    expect(requestBlocks('HOTEL', auto, 'X', undefined)).toEqual({ hotel: { property_id: 'X' }, flight: null });
    expect(requestBlocks('HOTEL', auto, undefined, undefined)).toEqual({ hotel: null, flight: null });
    expect(
      requestBlocks('FLIGHT', auto, undefined, { flight_option_id: 'O', arrive_by: '2026-12-10T12:00:00Z' }),
    ).toEqual({
      hotel: null,
      flight: {
        flight_option_id: 'O',
        constraints: { depart_after: null, arrive_by: '2026-12-10T12:00:00Z', cabin_class: null },
      },
    });
  });

  test('a reserved room: booked at the contracted rate; a different price is held under STRICT and flagged under LOOSE', () => {
    const eur = (amount: number) => ({ amount, currency: 'EUR' });
    expect(reservationOutcome(eur(100), eur(100), '2026-12-10', 'STRICT', NO_FX_RATES, 'CONFIRMED')).toEqual({
      status: 'CONFIRMED',
      reason: null,
      rate_flag: null,
    });
    expect(reservationOutcome(null, eur(130), '2026-12-10', 'STRICT', NO_FX_RATES, 'MODIFIED')).toEqual({
      status: 'MODIFIED',
      reason: null,
      rate_flag: null,
    });
    const strict = reservationOutcome(eur(100), eur(130), '2026-12-10', 'STRICT', NO_FX_RATES, 'CONFIRMED');
    expect(strict.status).toBe('NEEDS_REVIEW');
    expect(strict.reason).toMatch(/^rate mismatch: /);
    const loose = reservationOutcome(eur(100), eur(130), '2026-12-10', 'LOOSE', NO_FX_RATES, 'CONFIRMED');
    expect(loose).toEqual({ status: 'CONFIRMED', reason: loose.rate_flag, rate_flag: strict.rate_flag });
  });

  test('a ticket above the ceiling is held for review unless the airline chose it', () => {
    const fare = { amount: 900, currency: 'EUR' };
    const ceiling = { amount: 500, currency: 'EUR' };
    expect(ticketingOutcome(false, fare, '2026-12-10T08:00:00+01:00', ceiling, NO_FX_RATES)).toMatchObject({
      status: 'NEEDS_REVIEW',
      reason: expect.stringMatching(/^at ticketing: fare /),
    });
    expect(ticketingOutcome(true, fare, '2026-12-10T08:00:00+01:00', ceiling, NO_FX_RATES)).toEqual({
      status: 'CONFIRMED',
      reason: null,
    });
    expect(ticketingOutcome(false, fare, '2026-12-10T08:00:00+01:00', null, NO_FX_RATES)).toEqual({
      status: 'CONFIRMED',
      reason: null,
    });
  });

  test('a rebooked flight change is MODIFIED; any other end stands', () => {
    fc.assert(
      fc.property(fc.constantFrom('CONFIRMED', 'NEEDS_REVIEW', 'FAILED', 'CANCELLED'), (s) =>
        expect(amendedStatus(s)).toBe(s === 'CONFIRMED' ? 'MODIFIED' : s),
      ),
    );
  });
});

describe('urgentEvents', () => {
  test("only a P1 task's webhook events go first; a task without a priority is not urgent", () => {
    expect(['P1', 'P2', 'P3', 'P4', null, undefined].map((p) => urgentEvents(p as never))).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('requestIssues', () => {
  const anchors = { traveller_email: 't@x' };
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

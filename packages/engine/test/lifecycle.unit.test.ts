/**
 * The booking lifecycle (spec 2.3-2.5, 3.2, 4.4): the status and task a decision starts, what a request books and
 * a supplier failure's outcome, retries and task identity. An airline's request is in airline-requests.test.ts,
 * PATCH and DELETE in patch-and-delete.test.ts.
 */
import fc from 'fast-check';
import {
  amendedStatus,
  automaticRetryApplies,
  bookingStatusOf,
  hotelBlockOf,
  internalErrorOutcome,
  isCurrentTask,
  NO_FX_RATES,
  requestBlocks,
  requestDutyDate,
  reservationOutcome,
  retryable,
  retryRefusal,
  roomingStayMovedAway,
  supplierErrorOutcome,
  supplierRoomMovedAway,
  withoutRoomingRow,
  withoutSupplierRoom,
  supplierReference,
  taskIdentity,
  taskOperation,
  taskOperationOf,
  taskRefOf,
  ticketingOutcome,
  urgentEvents,
  type Decision,
} from '../src';
import { status, decisionArb } from './lifecycle-fixtures';

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

describe('a supplier’s room a move to a DIRECT hotel leaves behind', () => {
  const moved = {
    property_id: 'CREWINN-LHR',
    handler_type: 'DIRECT' as const,
    hotel_config_id: 9,
    contract_id: 3,
    supplier: 'SANDBOX' as const,
    supplier_ref: 'HR-1',
    supplier_status: 'CONFIRMED' as const,
    confirmation_number: 'HR-1',
    check_in_date: '2027-03-19',
    check_out_date: '2027-03-20',
    nights: 1,
    nightly_rate: { amount: 180, currency: 'USD' },
    total_price: { amount: 180, currency: 'USD' },
  };

  test('an AMEND of a stay now at a DIRECT hotel whose block still names a supplier’s room: that room', () => {
    expect(supplierRoomMovedAway(moved, 'AMEND')).toEqual({ supplier: 'SANDBOX', supplier_ref: 'HR-1' });
    expect(supplierRoomMovedAway(moved, 'BOOK')).toBeNull();
    expect(supplierRoomMovedAway(moved, 'CANCEL')).toBeNull();
    expect(supplierRoomMovedAway({ ...moved, handler_type: 'GDS' }, 'AMEND')).toBeNull();
    const { supplier_ref: _ref, ...noRoom } = moved;
    expect(supplierRoomMovedAway(noRoom, 'AMEND')).toBeNull();
    expect(supplierRoomMovedAway(null, 'AMEND')).toBeNull();
  });

  test('once it is cancelled the block is the DIRECT hotel’s stay alone', () => {
    expect(withoutSupplierRoom(moved)).toEqual({
      property_id: 'CREWINN-LHR',
      handler_type: 'DIRECT',
      hotel_config_id: 9,
      contract_id: 3,
    });
  });
});

describe('a stay moved from a DIRECT hotel to a supplier’s hotel', () => {
  /** The merged block: GDS-LHR-001 now, with the rooming-list row of the stay as Crew Inn JFK holds it. */
  const moved = {
    property_id: 'GDS-LHR-001',
    handler_type: 'GDS' as const,
    hotel_config_id: 12,
    contract_id: 4,
    rooming_ref: 'RL-1',
    rooming_status: 'CONFIRMED' as const,
    rooming_marking: 'NEW' as const,
    rooming_list_id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
    rooming_list_version: 1,
    confirmation_number: 'JFK-1',
    hotel_confirmed_at: '2027-03-13T12:00:00.000Z',
  };

  test('a change (not a cancellation) of a block that names a supplier’s hotel but carries a rooming-list row', () => {
    expect(roomingStayMovedAway(moved, 'AMEND')).toBe(true);
    expect(roomingStayMovedAway(moved, 'BOOK')).toBe(true);
    expect(roomingStayMovedAway(moved, 'CANCEL')).toBe(false);
    expect(roomingStayMovedAway({ ...moved, handler_type: 'DIRECT' }, 'AMEND')).toBe(false);
    expect(roomingStayMovedAway(withoutRoomingRow(moved), 'AMEND')).toBe(false);
    expect(roomingStayMovedAway(null, 'AMEND')).toBe(false);
  });

  test('once the old hotel is told, the block is the supplier’s hotel’s stay alone', () => {
    expect(withoutRoomingRow(moved)).toEqual({
      property_id: 'GDS-LHR-001',
      handler_type: 'GDS',
      hotel_config_id: 12,
      contract_id: 4,
    });
  });
});

import fc from 'fast-check';
import {
  carrierOf,
  fareConditionsFit,
  movedFareFlag,
  flightRoute,
  nextSupplierApplies,
  orderMayExist,
  bookTaskReference,
  latestOrderReference,
  lostOrderReference,
  replacesEarlierOrder,
  strayOrderMessage,
  strayOrderPlan,
  retailOffers,
  supplierSettingIssues,
} from '../src';

describe('which supplier books a deadhead', () => {
  it('reads the carrier of a flight number', () => {
    expect(carrierOf('BA117')).toBe('BA');
    expect(carrierOf('u2 1234')).toBe('U2');
    expect(carrierOf('BA117A')).toBe('BA');
    expect(carrierOf('')).toBeNull();
    expect(carrierOf(null)).toBeNull();
    expect(carrierOf('BRITISH')).toBeNull();
  });

  it("sends a leg on the airline's own metal to its own system, else to a person; never when the airline has no setting", () => {
    expect(flightRoute('BA117', { carrier: 'BA', configured: true, ownAirline: true })).toBe('OWN_AIRLINE');
    expect(flightRoute('BA117', { carrier: 'BA', configured: true, ownAirline: false })).toBe('BOOK_IN_OWN_SYSTEM');
    expect(flightRoute('BA117', { carrier: 'BA', configured: false, ownAirline: false })).toBe('ORDER');
    expect(flightRoute('AA100', { carrier: 'BA', configured: true, ownAirline: true })).toBe('ORDER');
  });

  it('tries the next supplier on no offers or a refusal, never after a transient (possibly ordered) failure', () => {
    expect(nextSupplierApplies({ kind: 'NO_OFFERS' })).toBe(true);
    expect(nextSupplierApplies({ kind: 'ERROR', transient: false })).toBe(true);
    expect(nextSupplierApplies({ kind: 'ERROR', transient: true })).toBe(false);
  });

  it("drops the airline's own flights (marketed or operated) from a retail supplier's offers", () => {
    const offers = [
      { airline_code: 'BA' },
      { airline_code: 'AA', operating_airline_code: 'BA' },
      { airline_code: 'AA' },
      { airline_code: 'aa', operating_airline_code: 'IB' },
    ];
    expect(retailOffers(offers, 'ba', true)).toEqual([
      { airline_code: 'AA' },
      { airline_code: 'aa', operating_airline_code: 'IB' },
    ]);
    expect(retailOffers(offers, 'BA', false)).toEqual(offers);
  });

  it('looks an earlier order up on any second attempt, and only then', () => {
    expect(orderMayExist({ attemptsStarted: 1, retry_count: 0, last_error: null })).toBe(false);
    expect(orderMayExist({ attemptsStarted: 2, retry_count: 0, last_error: null })).toBe(true);
    expect(orderMayExist({ attemptsStarted: 1, retry_count: 1, last_error: null })).toBe(true);
    expect(orderMayExist({ attemptsStarted: 1, retry_count: 0, last_error: 'SUPPLIER_TIMEOUT' })).toBe(true);
  });

  it("names the reference of a booking's latest order: the first booking's until a task recorded one of its own", () => {
    expect(latestOrderReference({ booking_id: 'b1', order_reference: null })).toBe('bk-b1');
    expect(latestOrderReference({ booking_id: 'b1', order_reference: 'bk-b1-AMEND-x' })).toBe('bk-b1-AMEND-x');
  });

  it('books under bk-<booking> until an order reference is recorded, then under the task’s own; replaces only another’s', () => {
    const first = { booking_id: 'b1', order_reference: null };
    expect(bookTaskReference(first, 'BOOK-a')).toBe('bk-b1');
    expect(replacesEarlierOrder(first, 'bk-b1')).toBe(false);
    const lost = { booking_id: 'b1', order_reference: 'bk-b1' };
    expect(bookTaskReference(lost, 'BOOK-p')).toBe('bk-b1-BOOK-p');
    expect(replacesEarlierOrder(lost, 'bk-b1-BOOK-p')).toBe(true);
    // A later attempt of that task, once it recorded its reference: its own order is looked up, not replaced.
    const recorded = { booking_id: 'b1', order_reference: 'bk-b1-BOOK-p' };
    expect(bookTaskReference(recorded, 'BOOK-p')).toBe('bk-b1-BOOK-p');
    expect(replacesEarlierOrder(recorded, 'bk-b1-BOOK-p')).toBe(false);
    // A cancel-and-rebook replaces the first booking's order.
    expect(replacesEarlierOrder(first, 'bk-b1-AMEND-x')).toBe(true);
  });

  it('a FAILED or NEEDS_REVIEW booking after a BOOK or AMEND may hold an order outstanding; nothing else does', () => {
    const b = { booking_id: 'b1', order_reference: null };
    expect(lostOrderReference({ ...b, status: 'FAILED', task_operation: 'BOOK' })).toBe('bk-b1');
    expect(
      lostOrderReference({ ...b, order_reference: 'bk-b1-AMEND-x', status: 'FAILED', task_operation: 'AMEND' }),
    ).toBe('bk-b1-AMEND-x');
    // A roster's (or an injection's) review written over a BOOK whose call is still in flight: the person's choice
    // must not order under the same bk-b1 (Duffel has no idempotency: a second paid room).
    expect(lostOrderReference({ ...b, status: 'NEEDS_REVIEW', task_operation: 'BOOK' })).toBe('bk-b1');
    expect(lostOrderReference({ ...b, status: 'FAILED', task_operation: 'CANCEL' })).toBeNull();
    expect(lostOrderReference({ ...b, status: 'NEEDS_REVIEW', task_operation: 'CANCEL' })).toBeNull();
    expect(lostOrderReference({ ...b, status: 'NEEDS_REVIEW', task_operation: null })).toBeNull();
    for (const status of ['CONFIRMED', 'PENDING'])
      expect(lostOrderReference({ ...b, status, task_operation: 'BOOK' })).toBeNull();
  });

  it('keeps only offers that state the condition the rule asks for (property)', () => {
    const offer = fc.record({
      refundable: fc.option(fc.boolean(), { nil: undefined }),
      changeable: fc.option(fc.boolean(), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(offer), (offers) => {
        expect(fareConditionsFit(offers, 'ANY')).toEqual(offers);
        const refundable = fareConditionsFit(offers, 'REFUNDABLE');
        expect(refundable.every((o) => o.refundable === true)).toBe(true);
        expect(refundable).toHaveLength(offers.filter((o) => o.refundable === true).length);
        expect(fareConditionsFit(offers, 'CHANGEABLE').every((o) => o.changeable === true)).toBe(true);
      }),
    );
  });
});

describe('a fare that moved between the choice and the order', () => {
  it('is flagged only when the amount (to the cent) or the currency differs', () => {
    expect(movedFareFlag({ amount: 100, currency: 'GBP' }, { amount: 100.004, currency: 'GBP' })).toBeNull();
    expect(movedFareFlag(undefined, { amount: 100, currency: 'GBP' })).toBeNull();
    expect(movedFareFlag({ amount: 100, currency: 'GBP' }, { amount: 140, currency: 'GBP' })).toBe(
      'fare moved from 100.00 GBP to 140.00 GBP at ordering',
    );
    expect(movedFareFlag({ amount: 100, currency: 'GBP' }, { amount: 100, currency: 'USD' })).toContain(
      'to 100.00 USD',
    );
  });
});

describe('a supplier setting that cannot be stored', () => {
  const base = {
    flights: ['SANDBOX'],
    hotels: ['SANDBOX'],
    duffelToken: false,
    ownAirline: false,
    production: false,
    sandboxAllowed: false,
  };
  it('names each supplier given without its settings, by its place in the list', () => {
    expect(
      supplierSettingIssues({ ...base, flights: ['OWN_AIRLINE', 'DUFFEL'], hotels: ['DUFFEL'] }).map((i) => i.field),
    ).toEqual(['/flights/0', '/flights/1', '/hotels/0']);
    expect(
      supplierSettingIssues({ ...base, flights: ['OWN_AIRLINE', 'DUFFEL'], duffelToken: true, ownAirline: true }),
    ).toEqual([]);
  });
  it('refuses SANDBOX in production unless the deployment allows it', () => {
    expect(supplierSettingIssues({ ...base, production: true }).map((i) => i.field)).toEqual([
      '/flights/0',
      '/hotels/0',
    ]);
    expect(supplierSettingIssues({ ...base, production: true, sandboxAllowed: true })).toEqual([]);
  });
});

describe('the order a failed call made, after a person recorded a PNR', () => {
  it('is cancelled unless none was made, it is cancelled already, or it is the very ticket recorded', () => {
    expect(strayOrderPlan(null, 'QX7H2K')).toBe('NONE');
    expect(strayOrderPlan({ status: 'CANCELLED', pnr: 'AB1234' }, 'QX7H2K')).toBe('NONE');
    expect(strayOrderPlan({ status: 'CONFIRMED', pnr: 'AB1234' }, 'QX7H2K')).toBe('CANCEL');
    expect(strayOrderPlan({ status: 'CONFIRMED' }, 'QX7H2K')).toBe('CANCEL');
    expect(strayOrderPlan({ status: 'CONFIRMED', pnr: '' }, '')).toBe('CANCEL');
    expect(strayOrderPlan({ status: 'CONFIRMED', pnr: 'qx7h2k ' }, 'QX7H2K')).toBe('KEEP');
  });

  it('says which ticket, where, and what a person must do when it stays live', () => {
    const order = { reference: 'bk-b1', supplier: 'DUFFEL', supplier_ref: 'ord_1' };
    expect(strayOrderMessage('CANCELLED', order, 'QX7H2K')).toBe(
      'the ticket the failed order made under bk-b1 (DUFFEL ord_1) cancelled at the supplier (the booking keeps PNR QX7H2K)',
    );
    expect(strayOrderMessage('NOT_CANCELLED', order, 'QX7H2K', 'REFUSED: flown')).toBe(
      'the ticket the failed order made under bk-b1 (DUFFEL ord_1) is still live: the supplier refused its cancellation (REFUSED: flown); cancel it there (the booking keeps PNR QX7H2K)',
    );
    expect(strayOrderMessage('KEPT', order, 'QX7H2K')).toContain('is the one recorded: kept');
    expect(
      strayOrderMessage('UNKNOWN', { reference: 'bk-b1', supplier: 'OWN_AIRLINE' }, 'QX7H2K', 'REJECTED: signature'),
    ).toBe(
      'OWN_AIRLINE did not say what the failed order under bk-b1 made (REJECTED: signature): cancel it there if it was ticketed (the booking keeps PNR QX7H2K)',
    );
    expect(strayOrderMessage('NONE', { reference: 'bk-b1', supplier: 'SANDBOX' }, 'QX7H2K')).toBe(
      'no ticket was found under bk-b1: the failed order made none (the booking keeps PNR QX7H2K)',
    );
  });
});

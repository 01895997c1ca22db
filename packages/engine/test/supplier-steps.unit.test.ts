import { rebookAfterCancel, supplierPlan } from '../src';

describe('supplierPlan: how a booking task is carried out at the supplier', () => {
  it('a flight change is cancel-and-rebook; a stay is amended in place', () => {
    expect(supplierPlan('FLIGHT', 'AMEND')).toBe('CANCEL_AND_REBOOK');
    expect(supplierPlan('HOTEL', 'AMEND')).toBe('AMEND');
  });

  it('a booking is booked and a cancellation cancelled, whatever the type', () => {
    for (const type of ['HOTEL', 'FLIGHT'] as const) {
      expect(supplierPlan(type, 'BOOK')).toBe('BOOK');
      expect(supplierPlan(type, 'CANCEL')).toBe('CANCEL');
    }
  });

  it('the new ticket is issued only once the old one is cancelled', () => {
    expect(rebookAfterCancel({ status: 'CANCELLED' })).toBe(true);
    expect(rebookAfterCancel({ status: 'FAILED' })).toBe(false);
    expect(rebookAfterCancel({ status: 'NEEDS_REVIEW' })).toBe(false);
  });
});

import {
  availableActions,
  decideReviewAction,
  REVIEW_ACTIONS,
  reviewStatusOf,
  type ReviewAction,
  type ReviewBooking,
  type ReviewItem,
} from '../src';
import { booking, BY, CTX, hotelBooking, hotelItem, item, NOW, room, ticket } from './review-fixtures';

describe('decideReviewAction', () => {
  test('BOOK_FLIGHT_OPTION on a BOOK_MANUALLY deadhead: resolved, recommendation cleared, its booking booked', () => {
    const d = decideReviewAction(
      item(),
      booking(),
      'BOOK_FLIGHT_OPTION',
      { ...BY, flight_option_id: 'off_1' },
      NOW,
      CTX,
    );
    expect(d).toEqual({
      kind: 'ACCEPTED',
      action: 'BOOK_FLIGHT_OPTION',
      item: {
        review_status: 'RESOLVED',
        action_taken: 'BOOK_FLIGHT_OPTION',
        action_taken_at: NOW,
        action_taken_by: 'desk@airline.test',
        recommended_action: null,
        flight_options_url: null,
      },
      operation: {
        kind: 'BOOK_FLIGHT_OPTION',
        booking_id: 'b-1',
        flight_option_id: 'off_1',
        replaces_reservation: false,
        manual_override: true,
      },
    });
  });

  test('a second act on a resolved item is not available (409)', () => {
    const first = decideReviewAction(
      item(),
      booking(),
      'RECORD_PNR',
      { ...BY, pnr: 'abc123', ticket_id: 'T1' },
      NOW,
      CTX,
    );
    expect(first).toMatchObject({
      kind: 'ACCEPTED',
      operation: { kind: 'RECORD_PNR', pnr: 'ABC123', ticket_id: 'T1' },
    });
    const after = { ...item(), ...(first.kind === 'ACCEPTED' ? first.item : {}) } as ReviewItem;
    expect(reviewStatusOf(after)).toBe('RESOLVED');
    for (const action of REVIEW_ACTIONS) {
      const again = decideReviewAction(
        after,
        booking(),
        action,
        { ...BY, flight_option_id: 'off_2', assignee: 'a' },
        NOW,
        CTX,
      );
      expect(again).toMatchObject({ kind: 'NOT_AVAILABLE', available: [] });
    }
  });

  test('an action the state does not allow is 409 even with its inputs missing', () => {
    expect(decideReviewAction(item(), booking(), 'ACCEPT_PRICE', {}, NOW, CTX)).toMatchObject({
      kind: 'NOT_AVAILABLE',
      available: ['BOOK_FLIGHT_OPTION', 'RECORD_PNR', 'DISMISS', 'ASSIGN'],
    });
    expect(decideReviewAction(item(), booking(), 'NOPE' as ReviewAction, BY, NOW, CTX)).toMatchObject({
      kind: 'NOT_AVAILABLE',
    });
  });

  test('missing inputs are 422, naming the field', () => {
    const cases: [ReviewItem, ReviewBooking, ReviewAction, object, string][] = [
      [item(), booking(), 'BOOK_FLIGHT_OPTION', BY, '/flight_option_id'],
      [item(), booking(), 'BOOK_FLIGHT_OPTION', { ...BY, flight_option_id: '  ' }, '/flight_option_id'],
      [item(), booking(), 'RECORD_PNR', { ...BY, ticket_id: 'T1' }, '/pnr'],
      [item(), booking(), 'RECORD_PNR', { ...BY, pnr: 'ABC123' }, '/ticket_id'],
      [item(), booking(), 'ASSIGN', BY, '/assignee'],
      [item(), booking(), 'DISMISS', {}, '/acting_user'],
    ];
    for (const [i, b, action, input, field] of cases)
      expect(decideReviewAction(i, b, action, input, NOW, CTX)).toEqual({
        kind: 'MISSING_INPUT',
        field,
        issue: 'is required',
      });
  });

  test('BOOK_HOTEL without a property_id books the hotel contracted at the station; without one contracted it is 422', () => {
    const contracted = { ...CTX, contracted_property_id: 'GDS-JFK-001' };
    expect(decideReviewAction(hotelItem(), hotelBooking(), 'BOOK_HOTEL', BY, NOW, contracted)).toMatchObject({
      kind: 'ACCEPTED',
      item: { review_status: 'RESOLVED', action_taken: 'BOOK_HOTEL' },
      operation: { kind: 'BOOK_HOTEL', booking_id: 'b-1', property_id: 'GDS-JFK-001', manual_override: true },
    });
    // A property the person names wins over the contracted one.
    expect(
      decideReviewAction(hotelItem(), hotelBooking(), 'BOOK_HOTEL', { ...BY, property_id: ' P9 ' }, NOW, contracted),
    ).toMatchObject({ operation: { property_id: 'P9' } });
    for (const ctx of [CTX, { ...CTX, contracted_property_id: null }, { ...CTX, contracted_property_id: ' ' }])
      expect(decideReviewAction(hotelItem(), hotelBooking(), 'BOOK_HOTEL', BY, NOW, ctx)).toEqual({
        kind: 'MISSING_INPUT',
        field: '/property_id',
        issue: 'is required: no hotel is contracted at the booking’s station',
      });
  });

  test('ASSIGN sets the assignee and nothing else: the item stays OPEN, no action taken', () => {
    const d = decideReviewAction(item(), booking(), 'ASSIGN', { ...BY, assignee: 'ana@airline.test' }, NOW, CTX);
    expect(d).toEqual({
      kind: 'ACCEPTED',
      action: 'ASSIGN',
      item: { review_status: 'OPEN', assignee: 'ana@airline.test' },
      operation: null,
    });
    const assigned = { ...item(), assignee: 'ana@airline.test' };
    expect(reviewStatusOf(assigned)).toBe('OPEN');
    expect(availableActions(assigned, booking(), CTX)).toContain('BOOK_FLIGHT_OPTION');
  });

  test('DISMISS: DISMISSED, keeping the disposition and the recommendation; no booking operation', () => {
    const d = decideReviewAction(item(), booking(), 'DISMISS', { ...BY, reason: 'booked by phone' }, NOW, CTX);
    expect(d).toEqual({
      kind: 'ACCEPTED',
      action: 'DISMISS',
      item: {
        review_status: 'DISMISSED',
        action_taken: 'DISMISS',
        action_taken_at: NOW,
        action_taken_by: 'desk@airline.test',
      },
      operation: null,
    });
  });

  test('the operations: accept a price, accept a change, retry, cancel, rebook over a held ticket', () => {
    const priced = hotelBooking({ task_operation: 'AMEND', hotel: { ...room, rate_flag: 'differs' } });
    expect(decideReviewAction(hotelItem(), priced, 'ACCEPT_PRICE', BY, NOW, CTX)).toMatchObject({
      operation: { kind: 'ACCEPT_PRICE', booking_id: 'b-1', status: 'MODIFIED' },
    });
    const fare = booking({ task_operation: 'BOOK', flight: ticket });
    expect(
      decideReviewAction(item(), fare, 'BOOK_FLIGHT_OPTION', { ...BY, flight_option_id: 'o' }, NOW, CTX),
    ).toMatchObject({ operation: { kind: 'BOOK_FLIGHT_OPTION', booking_id: 'b-1', replaces_reservation: true } });
    const changed = booking({ task_operation: 'BOOK', flight: { ...ticket, airline_change_id: 'oac_1' } });
    expect(
      decideReviewAction(item({ recommended_action: 'ACCEPT_CHANGE' }), changed, 'ACCEPT_CHANGE', BY, NOW, CTX),
    ).toMatchObject({
      item: { review_status: 'RESOLVED', recommended_action: null },
      operation: { kind: 'ACCEPT_CHANGE', booking_id: 'b-1', airline_change_id: 'oac_1' },
    });
    const failed = booking({ status: 'FAILED', task_operation: 'BOOK', retry_count: 2 });
    expect(decideReviewAction(item({ disposition: 'FAILED' }), failed, 'RETRY', BY, NOW, CTX)).toMatchObject({
      operation: { kind: 'RETRY', booking_id: 'b-1' },
    });
    expect(
      decideReviewAction(item({ disposition: 'FAILED' }), { ...failed, retry_count: 3 }, 'RETRY', BY, NOW, CTX),
    ).toMatchObject({ kind: 'NOT_AVAILABLE' });
    const drop = hotelItem({ subtype: 'CANCEL', classification: 'LAYOVER_CANCELLED' });
    expect(
      decideReviewAction(
        drop,
        hotelBooking({ hotel: room }),
        'CANCEL_BOOKING',
        { ...BY, reason: ' crew off ' },
        NOW,
        CTX,
      ),
    ).toMatchObject({ operation: { kind: 'CANCEL', booking_id: 'b-1', reason: 'crew off', manual_override: true } });
  });

  test('action_taken_at is the instant passed in, in UTC', () => {
    const d = decideReviewAction(item(), booking(), 'DISMISS', BY, '2027-03-10T10:20:00+02:00', CTX);
    expect(d).toMatchObject({ item: { action_taken_at: '2027-03-10T08:20:00.000Z' } });
  });
});

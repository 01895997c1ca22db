import type { ReviewBooking, ReviewContext, ReviewItem } from '../src';

/** Builders of the review rules' inputs: a BOOK_MANUALLY deadhead held for review, and variations. */
export const CREATED = '2027-03-10T08:00:00.000Z';
export const NOW = '2027-03-10T08:20:00.000Z';
export const CTX: ReviewContext = { max_retries: 3 };
export const BY = { acting_user: 'desk@airline.test' };

export function item(over: Partial<ReviewItem> = {}): ReviewItem {
  return {
    type: 'FLIGHT',
    subtype: 'NEW_BOOKING',
    classification: 'NEW_DEADHEAD',
    priority: 'P2',
    disposition: 'PENDING_REVIEW',
    recommended_action: 'BOOK_MANUALLY',
    booking_id: 'b-1',
    created_at: CREATED,
    disposition_at: CREATED,
    review_status: null,
    action_taken: null,
    action_taken_at: null,
    action_taken_by: null,
    assignee: null,
    ...over,
  };
}

export function booking(over: Partial<ReviewBooking> = {}): ReviewBooking {
  return {
    booking_id: 'b-1',
    type: 'FLIGHT',
    status: 'NEEDS_REVIEW',
    retry_count: 0,
    task_operation: null,
    hotel: null,
    flight: {},
    ...over,
  };
}

export const hotelItem = (over: Partial<ReviewItem> = {}) =>
  item({ type: 'HOTEL', classification: 'NEW_LAYOVER', recommended_action: null, ...over });
export const hotelBooking = (over: Partial<ReviewBooking> = {}) =>
  booking({ type: 'HOTEL', flight: null, hotel: {}, ...over });
export const ticket = { supplier_ref: 'ORD-1', supplier_status: 'CONFIRMED' as const };
export const room = { supplier_ref: 'HR-1', supplier_status: 'CONFIRMED' as const };

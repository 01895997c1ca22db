import {
  DEFAULT_REVIEW_SETTINGS,
  reviewSettingsOf,
  reviewStateOf,
  settleBooking,
  storedReviewStateOf,
  type StoredReviewItem,
} from '../src';
import { CREATED, item } from './review-fixtures';

/** What the writers of an action item store of the review rules: its review_status and due_by. */

const EVENT = '2027-03-10T14:00:00.000Z';

function stored(over: Partial<StoredReviewItem> = {}): StoredReviewItem {
  return {
    ...item({ disposition: null, recommended_action: null }),
    created_at: new Date(CREATED),
    disposition_at: null,
    review_status: null,
    event_at: new Date(EVENT),
    review_settings: null,
    ...over,
  };
}

describe('reviewSettingsOf', () => {
  test('no stored row: the defaults', () => {
    expect(reviewSettingsOf(null)).toEqual(DEFAULT_REVIEW_SETTINGS);
    expect(reviewSettingsOf(undefined)).toEqual(DEFAULT_REVIEW_SETTINGS);
  });

  test('a stored row as it is, its targets keyed P1..P3 only', () => {
    expect(
      reviewSettingsOf({ lead_time_minutes: 60, due_soon_minutes: 10, priority_targets_minutes: { P1: 2, P4: 9 } }),
    ).toEqual({ lead_time_minutes: 60, due_soon_minutes: 10, priority_targets_minutes: { P1: 2 } });
  });
});

describe('reviewStateOf', () => {
  test('an item left for a person: OPEN, due by the earlier of its event less the lead time and its review target', () => {
    // P2: created 08:00 + 30 minutes is earlier than 14:00 - 240 minutes.
    expect(reviewStateOf(item(), EVENT, DEFAULT_REVIEW_SETTINGS)).toEqual({
      review_status: 'OPEN',
      due_by: '2027-03-10T08:30:00.000Z',
    });
    expect(reviewStateOf(item({ priority: 'P4' }), EVENT, DEFAULT_REVIEW_SETTINGS)).toEqual({
      review_status: 'OPEN',
      due_by: '2027-03-10T10:00:00.000Z',
    });
  });

  test('an item whose booking task runs, or that the engine booked: no review status, no due_by', () => {
    for (const disposition of [null, 'AUTO_BOOKED', 'AUTO_CANCELLED'] as const)
      expect(reviewStateOf(item({ disposition, recommended_action: null }), EVENT, DEFAULT_REVIEW_SETTINGS)).toEqual({
        review_status: null,
        due_by: null,
      });
  });
});

describe('storedReviewStateOf (a disposition just written)', () => {
  test('a task ending FAILED or held for review opens the item, with the airline’s stored settings', () => {
    const settings = { lead_time_minutes: 90, due_soon_minutes: 30, priority_targets_minutes: { P2: 600 } };
    for (const disposition of ['FAILED', 'PENDING_REVIEW'])
      expect(storedReviewStateOf(stored({ disposition, review_settings: settings }))).toEqual({
        review_status: 'OPEN',
        due_by: '2027-03-10T12:30:00.000Z',
      });
  });

  test('an automatic end after the item was OPEN resolves it; an item no person needed stays without one', () => {
    for (const disposition of ['AUTO_BOOKED', 'AUTO_CANCELLED']) {
      expect(storedReviewStateOf(stored({ disposition, review_status: 'OPEN' }))).toEqual({
        review_status: 'RESOLVED',
        due_by: null,
      });
      expect(storedReviewStateOf(stored({ disposition }))).toEqual({ review_status: null, due_by: null });
    }
  });

  test('a task that ends back in review after a person’s action opens the item again', () => {
    const acted = {
      review_status: 'RESOLVED',
      action_taken: 'RETRY',
      action_taken_at: new Date('2027-03-10T09:00:00Z'),
      action_taken_by: 'desk@airline.test',
    };
    expect(
      storedReviewStateOf(
        stored({ ...acted, disposition: 'FAILED', disposition_at: new Date('2027-03-10T09:05:00Z') }),
      ),
    ).toEqual({ review_status: 'OPEN', due_by: '2027-03-10T08:30:00.000Z' });
    expect(
      storedReviewStateOf(
        stored({ ...acted, disposition: 'AUTO_BOOKED', disposition_at: new Date('2027-03-10T09:05:00Z') }),
      ),
    ).toEqual({ review_status: 'RESOLVED', due_by: null });
  });
});

test('a booking task’s settlement carries the review rules its item’s write follows', () => {
  const s = settleBooking(
    { status: 'NEEDS_REVIEW', reason: 'rate mismatch' },
    { actor: 'engine', actionId: 'a-1', urgency: { task: null, orItem: false } },
  );
  expect(s.review).toBe(storedReviewStateOf);
});

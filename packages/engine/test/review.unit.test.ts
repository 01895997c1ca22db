import fc from 'fast-check';
import { MAX_REVIEW_MINUTES } from '@crew/contracts';
import {
  DEFAULT_REVIEW_SETTINGS,
  dueBy,
  dueSoon,
  instantOf,
  mergeReviewSettings,
  resolvedByPerson,
  REVIEW_ACTIONS,
  reviewStatusOf,
  type DueSoonFacts,
  type ReviewItem,
  type ReviewSettings,
} from '../src';
import { CREATED, item } from './review-fixtures';

const MIN = 60_000;

describe('the fixed set of review actions', () => {
  test('is exactly the nine actions, in order', () => {
    expect(REVIEW_ACTIONS).toEqual([
      'BOOK_FLIGHT_OPTION',
      'BOOK_HOTEL',
      'ACCEPT_PRICE',
      'ACCEPT_CHANGE',
      'RECORD_PNR',
      'RETRY',
      'CANCEL_BOOKING',
      'DISMISS',
      'ASSIGN',
    ]);
  });
});

describe('mergeReviewSettings', () => {
  test('defaults: 240 minutes lead time, 30 due soon, targets P1 5, P2 30, P3 60', () => {
    expect(mergeReviewSettings(null, {})).toEqual({
      ok: true,
      settings: { lead_time_minutes: 240, due_soon_minutes: 30, priority_targets_minutes: { P1: 5, P2: 30, P3: 60 } },
    });
  });

  test('an omitted field keeps its value; targets merge per priority', () => {
    const stored: ReviewSettings = {
      lead_time_minutes: 120,
      due_soon_minutes: 15,
      priority_targets_minutes: { P1: 10, P2: 45, P3: 90 },
    };
    expect(mergeReviewSettings(stored, { due_soon_minutes: 0, priority_targets_minutes: { P2: 20 } })).toEqual({
      ok: true,
      settings: { lead_time_minutes: 120, due_soon_minutes: 0, priority_targets_minutes: { P1: 10, P2: 20, P3: 90 } },
    });
    // The stored settings are not changed in place.
    expect(stored.priority_targets_minutes.P2).toBe(45);
  });

  test('minutes must be integers of 0 or more; targets only for P1..P3; every fault is named', () => {
    const r = mergeReviewSettings(DEFAULT_REVIEW_SETTINGS, {
      lead_time_minutes: -1,
      due_soon_minutes: 2.5,
      priority_targets_minutes: { P4: 10, P1: '5', X: 1 },
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues.map((i) => i.field).sort()).toEqual([
      '/due_soon_minutes',
      '/lead_time_minutes',
      '/priority_targets_minutes/P1',
      '/priority_targets_minutes/P4',
      '/priority_targets_minutes/X',
    ]);
    expect(mergeReviewSettings(null, { priority_targets_minutes: [5] })).toMatchObject({
      ok: false,
      issues: [{ field: '/priority_targets_minutes' }],
    });
    expect(mergeReviewSettings(null, { lead_time_minutes: Number.POSITIVE_INFINITY }).ok).toBe(false);
    expect(mergeReviewSettings(null, { lead_time_minutes: null }).ok).toBe(false);
  });

  test('minutes are at most 366 days: a longer setting would date items past any valid instant', () => {
    expect(mergeReviewSettings(null, { lead_time_minutes: MAX_REVIEW_MINUTES }).ok).toBe(true);
    const r = mergeReviewSettings(null, {
      lead_time_minutes: 2.5817750453719707e110,
      priority_targets_minutes: { P2: MAX_REVIEW_MINUTES + 1 },
    });
    expect(!r.ok && r.issues.map((i) => i.field).sort()).toEqual([
      '/lead_time_minutes',
      '/priority_targets_minutes/P2',
    ]);
  });
});

describe('reviewStatusOf', () => {
  test('OPEN while a person must act: PENDING_REVIEW, FAILED, or an unsettled BOOK_MANUALLY', () => {
    expect(reviewStatusOf(item())).toBe('OPEN');
    expect(reviewStatusOf(item({ disposition: 'FAILED', recommended_action: null }))).toBe('OPEN');
    expect(reviewStatusOf(item({ disposition: null }))).toBe('OPEN');
    expect(reviewStatusOf(item({ disposition: 'PENDING_REVIEW', recommended_action: null, type: 'HOTEL' }))).toBe(
      'OPEN',
    );
  });

  test('RESOLVED once a later roster’s item took the booking over; DISMISSED stays; an item no person needed stays null', () => {
    const by = { superseded_by: 'later-item' };
    expect(reviewStatusOf(item(by))).toBe('RESOLVED');
    expect(reviewStatusOf(item({ ...by, disposition: 'FAILED', recommended_action: null }))).toBe('RESOLVED');
    expect(dueBy(item(by), '2027-03-10T09:00:00Z', DEFAULT_REVIEW_SETTINGS)).toBeNull();
    const dismissed = { action_taken: 'DISMISS' as const, action_taken_at: '2027-03-10T08:10:00.000Z' };
    expect(reviewStatusOf(item({ ...by, ...dismissed, action_taken_by: 'desk@airline.test' }))).toBe('DISMISSED');
    expect(reviewStatusOf(item({ ...by, disposition: 'AUTO_BOOKED', recommended_action: null }))).toBeNull();
  });

  test('null when no person was ever needed', () => {
    expect(reviewStatusOf(item({ disposition: 'AUTO_BOOKED', recommended_action: null }))).toBeNull();
    expect(reviewStatusOf(item({ disposition: 'AUTO_CANCELLED', recommended_action: null }))).toBeNull();
    expect(reviewStatusOf(item({ disposition: null, recommended_action: null }))).toBeNull();
  });

  test("RESOLVED after a person's action; DISMISSED after dismissal, keeping the disposition", () => {
    const acted = { action_taken_at: '2027-03-10T08:10:00.000Z', action_taken_by: 'desk@airline.test' };
    expect(reviewStatusOf(item({ ...acted, action_taken: 'BOOK_FLIGHT_OPTION' }))).toBe('RESOLVED');
    expect(reviewStatusOf(item({ ...acted, action_taken: 'DISMISS' }))).toBe('DISMISSED');
    expect(reviewStatusOf(item({ ...acted, action_taken: 'BOOK_FLIGHT_OPTION', disposition: 'AUTO_BOOKED' }))).toBe(
      'RESOLVED',
    );
  });

  test('an action whose outcome lands back in review opens the item again', () => {
    const i = item({
      action_taken: 'BOOK_FLIGHT_OPTION',
      action_taken_at: '2027-03-10T08:10:00.000Z',
      action_taken_by: 'desk@airline.test',
      disposition_at: '2027-03-10T08:11:00.000Z',
    });
    expect(reviewStatusOf(i)).toBe('OPEN');
  });

  test('ASSIGN is no action taken: the item stays OPEN', () => {
    expect(reviewStatusOf(item({ assignee: 'ana@airline.test' }))).toBe('OPEN');
  });

  test('an item that needed a person and settled by itself reads RESOLVED (it never goes back to null)', () => {
    expect(reviewStatusOf(item({ disposition: 'AUTO_BOOKED', recommended_action: null, review_status: 'OPEN' }))).toBe(
      'RESOLVED',
    );
    // A BOOK_MANUALLY deadhead the airline committed through POST /crew/bookings/request.
    expect(reviewStatusOf(item({ disposition: 'AUTO_BOOKED' }))).toBe('RESOLVED');
  });

  test('resolvedByPerson: a person resolved it (not a dismissal, not by itself)', () => {
    const acted = { action_taken_at: '2027-03-10T08:10:00.000Z', action_taken_by: 'desk@airline.test' };
    expect(resolvedByPerson(item({ ...acted, action_taken: 'BOOK_FLIGHT_OPTION', disposition: 'AUTO_BOOKED' }))).toBe(
      true,
    );
    expect(resolvedByPerson(item({ ...acted, action_taken: 'DISMISS' }))).toBe(false);
    expect(resolvedByPerson(item({ disposition: 'AUTO_BOOKED' }))).toBe(false);
  });
});

// ---- due_by, derived from its definition ----

const priorityArb = fc.constantFrom('P1', 'P2', 'P3', 'P4' as const);
const createdMsArb = fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') });
const settingsArb: fc.Arbitrary<ReviewSettings> = fc.record({
  lead_time_minutes: fc.integer({ min: 0, max: 2000 }),
  due_soon_minutes: fc.integer({ min: 0, max: 600 }),
  priority_targets_minutes: fc.record(
    {
      P1: fc.integer({ min: 0, max: 600 }),
      P2: fc.integer({ min: 0, max: 600 }),
      P3: fc.integer({ min: 0, max: 600 }),
    },
    { requiredKeys: [] },
  ),
});
// The event: none, or minutes from creation (in the past as well as the future).
const eventOffsetArb = fc.option(fc.integer({ min: -3000, max: 20_000 }), { nil: null });

describe('dueBy (property)', () => {
  test('an OPEN item is due no later than the event minus the lead time, nor creation plus its target', () => {
    fc.assert(
      fc.property(priorityArb, createdMsArb, eventOffsetArb, settingsArb, (priority, createdMs, offset, settings) => {
        const created = new Date(createdMs).toISOString();
        const event = offset === null ? null : new Date(createdMs + offset * MIN).toISOString();
        const due = dueBy(item({ priority, created_at: created, disposition_at: created }), event, settings);
        const target = priority === 'P4' ? undefined : settings.priority_targets_minutes[priority];
        const bounds = [
          ...(event ? [instantOf(event) - settings.lead_time_minutes * MIN] : []),
          ...(target !== undefined ? [createdMs + target * MIN] : []),
        ];
        if (bounds.length === 0) {
          // P4 (or a priority without a target) and no event: nothing bounds it.
          expect(due).toBeNull();
          return;
        }
        expect(due).not.toBeNull();
        const dueMs = instantOf(due!);
        for (const b of bounds) expect(dueMs).toBeLessThanOrEqual(b);
        // It is the earlier of the bounds, not anything earlier still.
        expect(bounds).toContain(dueMs);
      }),
    );
  });

  test('a P4 item with no event time has no due_by; with one, the event minus the lead time', () => {
    fc.assert(
      fc.property(createdMsArb, eventOffsetArb, settingsArb, (createdMs, offset, settings) => {
        const created = new Date(createdMs).toISOString();
        const event = offset === null ? null : new Date(createdMs + offset * MIN).toISOString();
        const due = dueBy(item({ priority: 'P4', created_at: created }), event, settings);
        if (event === null) expect(due).toBeNull();
        else expect(instantOf(due!)).toBe(instantOf(event) - settings.lead_time_minutes * MIN);
      }),
    );
  });

  test('an event later in time never makes the item due earlier (monotone in the event)', () => {
    fc.assert(
      fc.property(
        priorityArb,
        createdMsArb,
        fc.integer({ min: -3000, max: 20_000 }),
        fc.integer({ min: 0, max: 5000 }),
        settingsArb,
        (priority, createdMs, offset, later, settings) => {
          const created = new Date(createdMs).toISOString();
          const i = item({ priority, created_at: created });
          const a = dueBy(i, createdMs + offset * MIN, settings)!;
          const b = dueBy(i, createdMs + (offset + later) * MIN, settings)!;
          expect(instantOf(a)).toBeLessThanOrEqual(instantOf(b));
        },
      ),
    );
  });

  test('null whenever no action is needed (never needed, resolved or dismissed)', () => {
    fc.assert(
      fc.property(
        priorityArb,
        eventOffsetArb,
        settingsArb,
        fc.constantFrom<Partial<ReviewItem>>(
          { disposition: 'AUTO_BOOKED', recommended_action: null },
          { action_taken: 'DISMISS', action_taken_at: '2027-03-10T08:05:00Z', action_taken_by: 'x' },
          { action_taken: 'RETRY', action_taken_at: '2027-03-10T08:05:00Z', action_taken_by: 'x' },
        ),
        (priority, offset, settings, over) => {
          const event = offset === null ? null : new Date(Date.parse(CREATED) + offset * MIN).toISOString();
          expect(dueBy(item({ priority, ...over }), event, settings)).toBeNull();
        },
      ),
    );
  });

  test('an OPEN item bound to a deadline is due at it, whatever its priority, event and the settings; not OPEN, at nothing', () => {
    fc.assert(
      fc.property(
        priorityArb,
        createdMsArb,
        eventOffsetArb,
        settingsArb,
        fc.integer({ min: -3000, max: 20_000 }),
        (priority, createdMs, offset, settings, deadlineOffset) => {
          const created = new Date(createdMs).toISOString();
          const event = offset === null ? null : new Date(createdMs + offset * MIN).toISOString();
          // Before its creation as well as after it: an item that arrives after its deadline is overdue at once.
          const deadline = new Date(createdMs + deadlineOffset * MIN).toISOString();
          const bound = item({ priority, created_at: created, disposition_at: created, review_deadline: deadline });
          expect(dueBy(bound, event, settings)).toBe(deadline);
          const assigned = { ...bound, review_status: 'OPEN' as const, assignee: 'desk@airline.test' };
          expect(dueBy(assigned, event, settings)).toBe(deadline);
          const dismissed = {
            ...bound,
            action_taken: 'DISMISS' as const,
            action_taken_at: created,
            action_taken_by: 'x',
          };
          expect(dueBy(dismissed, event, settings)).toBeNull();
        },
      ),
    );
  });

  test('defaults: a P1 item is due 5 minutes after creation unless the event comes sooner', () => {
    const i = item({ priority: 'P1' });
    expect(dueBy(i, '2027-03-10T20:00:00+02:00', DEFAULT_REVIEW_SETTINGS)).toBe('2027-03-10T08:05:00.000Z');
    // Departure at 10:00Z: 240 minutes before it is 06:00Z, already past at creation (overdue).
    expect(dueBy(i, '2027-03-10T10:00:00Z', DEFAULT_REVIEW_SETTINGS)).toBe('2027-03-10T06:00:00.000Z');
    expect(dueBy(item({ priority: 'P3' }), null, DEFAULT_REVIEW_SETTINGS)).toBe('2027-03-10T09:00:00.000Z');
    // An unreadable event time counts as absent.
    expect(dueBy(item({ priority: 'P4' }), 'not a time', DEFAULT_REVIEW_SETTINGS)).toBeNull();
  });
});

describe('dueSoon', () => {
  const DUE = '2027-03-10T10:00:00.000Z';
  const facts = (over: Partial<DueSoonFacts> = {}): DueSoonFacts => ({
    ...item(),
    due_by: DUE,
    due_soon_emitted: false,
    ...over,
  });
  const at = (minutesBeforeDue: number) => Date.parse(DUE) - minutesBeforeDue * MIN;

  test('fires once due_by comes within due_soon_minutes (overdue included), not before', () => {
    expect(dueSoon(facts(), at(31), DEFAULT_REVIEW_SETTINGS)).toBe(false);
    expect(dueSoon(facts(), at(30), DEFAULT_REVIEW_SETTINGS)).toBe(true);
    expect(dueSoon(facts(), at(1), DEFAULT_REVIEW_SETTINGS)).toBe(true);
    expect(dueSoon(facts(), at(-60), DEFAULT_REVIEW_SETTINGS)).toBe(true);
  });

  test('once: not again after it was emitted', () => {
    expect(dueSoon(facts({ due_soon_emitted: true }), at(10), DEFAULT_REVIEW_SETTINGS)).toBe(false);
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), settingsArb, (m, settings) => {
        expect(dueSoon(facts({ due_soon_emitted: true }), at(m), settings)).toBe(false);
      }),
    );
  });

  test('not for an item a person acted on, or one without due_by; an assigned one still fires', () => {
    const acted = { action_taken_at: '2027-03-10T09:00:00Z', action_taken_by: 'desk@airline.test' };
    expect(dueSoon(facts({ ...acted, action_taken: 'RECORD_PNR' }), at(10), DEFAULT_REVIEW_SETTINGS)).toBe(false);
    expect(dueSoon(facts({ ...acted, action_taken: 'DISMISS' }), at(10), DEFAULT_REVIEW_SETTINGS)).toBe(false);
    expect(dueSoon(facts({ due_by: null }), at(10), DEFAULT_REVIEW_SETTINGS)).toBe(false);
    expect(dueSoon(facts({ assignee: 'ana@airline.test' }), at(10), DEFAULT_REVIEW_SETTINGS)).toBe(true);
  });

  test('fires iff not emitted, OPEN and within the window (property over the clock)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 0, max: 600 }), (m, soon) => {
        const settings = { ...DEFAULT_REVIEW_SETTINGS, due_soon_minutes: soon };
        expect(dueSoon(facts(), at(m), settings)).toBe(m <= soon);
      }),
    );
  });
});

import fc from 'fast-check';
import {
  advanceHold,
  cancellationDeadline,
  cancellationFee,
  cancellationTermsIssues,
  cancellationTiming,
  decideCancellation,
  DEFAULT_COST_SETTINGS,
  HOLD_DEADLINE_MARGIN_MINUTES,
  heldItemTakenOver,
  holdOutcome,
  instantOf,
  mergeCostSettings,
  penaltyAvoided,
  type CancellationInput,
  type CancellationTerms,
  type HoldState,
} from '../src';
import { HOUR, iso, MIN, terms18 } from './cancellation-fixtures';

/** "By 18:00 hotel time on the day of arrival", one night's fee late, two nights' for a no-show. */
const TERMS: CancellationTerms = terms18({ no_show_fee: { type: 'NIGHTS', nights: 2 } });
const RATE = { amount: 120, currency: 'GBP' };

describe('mergeCostSettings', () => {
  test('defaults: no hold, cancel anyway after the deadline', () => {
    expect(DEFAULT_COST_SETTINGS).toEqual({ cancel_hold_minutes: 0, after_deadline: 'CANCEL' });
    expect(mergeCostSettings(null, {})).toEqual({ ok: true, settings: DEFAULT_COST_SETTINGS });
  });

  test('an omitted field keeps its stored value', () => {
    const stored = { cancel_hold_minutes: 30, after_deadline: 'REVIEW' as const };
    expect(mergeCostSettings(stored, { cancel_hold_minutes: 45 })).toEqual({
      ok: true,
      settings: { cancel_hold_minutes: 45, after_deadline: 'REVIEW' },
    });
    expect(mergeCostSettings(stored, { after_deadline: 'CANCEL' })).toEqual({
      ok: true,
      settings: { cancel_hold_minutes: 30, after_deadline: 'CANCEL' },
    });
  });

  test('every fault is named by its field, and nothing is merged', () => {
    const r = mergeCostSettings(DEFAULT_COST_SETTINGS, { cancel_hold_minutes: -5, after_deadline: 'HOLD' });
    expect(r).toEqual({
      ok: false,
      issues: [
        { field: '/cancel_hold_minutes', issue: expect.any(String) },
        { field: '/after_deadline', issue: 'must be CANCEL or REVIEW' },
      ],
    });
    for (const bad of [1.5, '30', null, 1441, Number.NaN])
      expect(mergeCostSettings(null, { cancel_hold_minutes: bad }).ok).toBe(false);
    expect(mergeCostSettings(null, { cancel_hold_minutes: 1440 }).ok).toBe(true);
  });
});

describe('cancellationTermsIssues', () => {
  test('valid terms have no issue; fees are optional', () => {
    expect(cancellationTermsIssues(TERMS)).toEqual([]);
    expect(cancellationTermsIssues({ cancellation_deadline: { days_before: 2, local_time: '23:59' } })).toEqual([]);
    expect(
      cancellationTermsIssues({
        cancellation_deadline: { days_before: 0, local_time: '00:00' },
        late_cancellation_fee: { type: 'AMOUNT', amount: { amount: 50, currency: 'EUR' } },
        no_show_fee: null,
      }),
    ).toEqual([]);
  });

  test('each fault has its field path, under the prefix given', () => {
    const fields = cancellationTermsIssues(
      {
        cancellation_deadline: { days_before: -1, local_time: '6pm' },
        late_cancellation_fee: { type: 'AMOUNT' },
        no_show_fee: { type: 'NIGHTS', nights: 0, amount: { amount: 1, currency: 'EUR' } },
      },
      '/cancellation_terms',
    ).map((i) => i.field);
    expect(fields).toEqual([
      '/cancellation_terms/cancellation_deadline/days_before',
      '/cancellation_terms/cancellation_deadline/local_time',
      '/cancellation_terms/late_cancellation_fee/amount',
      '/cancellation_terms/no_show_fee/nights',
      '/cancellation_terms/no_show_fee/amount',
    ]);
  });

  test('days_before is a whole number; local_time a real HH:MM; a fee a known type with its own field', () => {
    const fieldsOf = (t: unknown) => cancellationTermsIssues(t).map((i) => i.field);
    expect(fieldsOf({ cancellation_deadline: { days_before: 1.5, local_time: '24:00' } })).toEqual([
      '/cancellation_deadline/days_before',
      '/cancellation_deadline/local_time',
    ]);
    expect(fieldsOf({})).toEqual(['/cancellation_deadline']);
    expect(fieldsOf(null)).toEqual(['/']);
    expect(
      fieldsOf({ cancellation_deadline: { days_before: 0, local_time: '18:00' }, no_show_fee: { type: 'PERCENT' } }),
    ).toEqual(['/no_show_fee/type']);
    expect(
      fieldsOf({
        cancellation_deadline: { days_before: 0, local_time: '18:00' },
        late_cancellation_fee: { type: 'AMOUNT', amount: { amount: -1, currency: 'eur' }, nights: 1 },
      }),
    ).toEqual([
      '/late_cancellation_fee/amount/amount',
      '/late_cancellation_fee/amount/currency',
      '/late_cancellation_fee/nights',
    ]);
  });
});

describe('cancellationDeadline: the hotel’s local time, that day’s offset', () => {
  const at = (days_before: number, local_time: string): CancellationTerms => ({
    cancellation_deadline: { days_before, local_time },
  });

  test('18:00 in London in winter is 18:00 UTC, in summer 17:00 UTC', () => {
    expect(cancellationDeadline(at(0, '18:00'), '2026-01-15', 'Europe/London')).toBe('2026-01-15T18:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-07-15', 'Europe/London')).toBe('2026-07-15T17:00:00.000Z');
  });

  test('on the day the clocks go forward, the day before, and the day after (London, 29 March 2026)', () => {
    expect(cancellationDeadline(at(0, '18:00'), '2026-03-28', 'Europe/London')).toBe('2026-03-28T18:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-03-29', 'Europe/London')).toBe('2026-03-29T17:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-03-30', 'Europe/London')).toBe('2026-03-30T17:00:00.000Z');
  });

  test('days_before crossing the change keeps the wall-clock time of the deadline’s own day', () => {
    // Check-in on Monday 30 March (BST); two days before is Saturday 28 March (GMT).
    expect(cancellationDeadline(at(2, '18:00'), '2026-03-30', 'Europe/London')).toBe('2026-03-28T18:00:00.000Z');
    // New York, clocks back on 1 November 2026: a deadline 3 days before a check-in on the 3rd is in EDT.
    expect(cancellationDeadline(at(3, '16:00'), '2026-11-03', 'America/New_York')).toBe('2026-10-31T20:00:00.000Z');
    expect(cancellationDeadline(at(0, '16:00'), '2026-11-03', 'America/New_York')).toBe('2026-11-03T21:00:00.000Z');
  });

  test('New York on its change days (8 March and 1 November 2026), and the day after', () => {
    expect(cancellationDeadline(at(0, '18:00'), '2026-03-08', 'America/New_York')).toBe('2026-03-08T22:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-03-09', 'America/New_York')).toBe('2026-03-09T22:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-11-01', 'America/New_York')).toBe('2026-11-01T23:00:00.000Z');
    expect(cancellationDeadline(at(0, '18:00'), '2026-11-02', 'America/New_York')).toBe('2026-11-02T23:00:00.000Z');
  });

  test('a time the clocks skip is read with the offset before the change; a repeated time is the first one', () => {
    // 02:30 does not happen in New York on 8 March: read as 02:30 EST (= 03:30 EDT).
    expect(cancellationDeadline(at(0, '02:30'), '2026-03-08', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    // 01:30 happens twice in London on 25 October: the first (BST).
    expect(cancellationDeadline(at(0, '01:30'), '2026-10-25', 'Europe/London')).toBe('2026-10-25T00:30:00.000Z');
  });

  test('a roster check-in timestamp counts by its written date; an unknown zone is refused', () => {
    expect(cancellationDeadline(at(1, '12:00'), '2026-07-02T23:30:00+01:00', 'Europe/London')).toBe(
      '2026-07-01T11:00:00.000Z',
    );
    expect(() => cancellationDeadline(at(0, '18:00'), '2026-07-02', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('cancellationTiming', () => {
  const deadline = instantOf('2026-07-15T17:00:00Z'); // 18:00 BST

  test('in time up to and including the deadline; within 24 h only while in time', () => {
    const t = (now: number) => cancellationTiming(TERMS, '2026-07-15', 'Europe/London', now);
    expect(t(deadline)).toEqual({ deadline: '2026-07-15T17:00:00.000Z', in_time: true, within_24h: true });
    expect(t(deadline + 1)).toMatchObject({ in_time: false, within_24h: false });
    expect(t(deadline - 24 * HOUR + 1)).toMatchObject({ in_time: true, within_24h: true });
    expect(t(deadline - 24 * HOUR)).toMatchObject({ in_time: true, within_24h: false });
    expect(cancellationTiming(TERMS, '2026-07-15', 'Europe/London', '2026-07-15T18:30:00+02:00').in_time).toBe(true);
  });
});

describe('cancellationFee and penaltyAvoided', () => {
  test('NIGHTS is that many nights at the nightly rate, capped at the stay’s nights', () => {
    expect(cancellationFee({ type: 'NIGHTS', nights: 2 }, RATE, 3)).toEqual({ amount: 240, currency: 'GBP' });
    expect(cancellationFee({ type: 'NIGHTS', nights: 2 }, RATE, 1)).toEqual({ amount: 120, currency: 'GBP' });
    expect(cancellationFee({ type: 'NIGHTS', nights: 1 }, { amount: 99.995, currency: 'USD' }, 1)).toEqual({
      amount: 100,
      currency: 'USD',
    });
    expect(cancellationFee({ type: 'NIGHTS', nights: 1 }, null, 1)).toBeNull();
  });

  test('AMOUNT is the amount, whatever the stay', () => {
    const fee = { type: 'AMOUNT' as const, amount: { amount: 5000, currency: 'JPY' } };
    expect(cancellationFee(fee, RATE, 4)).toEqual({ amount: 5000, currency: 'JPY' });
  });

  test('penaltyAvoided is the late-cancellation fee; none without one', () => {
    expect(penaltyAvoided(TERMS, RATE, 3)).toEqual({ amount: 120, currency: 'GBP' });
    expect(penaltyAvoided({ cancellation_deadline: TERMS.cancellation_deadline }, RATE, 3)).toBeNull();
    expect(penaltyAvoided(null, RATE, 3)).toBeNull();
  });
});

describe('decideCancellation', () => {
  const deadline = instantOf('2026-07-15T17:00:00Z');
  const input = (over: Partial<CancellationInput>): CancellationInput => ({
    terms: TERMS,
    checkIn: '2026-07-15T14:00:00+01:00',
    tz: 'Europe/London',
    now: deadline - 72 * HOUR,
    cause: 'ROSTER',
    settings: DEFAULT_COST_SETTINGS,
    nightlyRate: RATE,
    nights: 2,
    priority: 'P3',
    ...over,
  });

  test('no terms: cancel now, no fee, the lane unchanged', () => {
    const d = decideCancellation(input({ terms: null, now: deadline + HOUR, priority: 'P2' }));
    expect(d).toMatchObject({
      action: 'CANCEL',
      lane: 'P2',
      deadline: null,
      in_time: true,
      penalty: null,
      review_due_by: null,
      hold_until: null,
    });
  });

  test('in time, deadline more than 24 h away: cancel in the item’s lane; a review item would be due at the deadline', () => {
    expect(decideCancellation(input({}))).toMatchObject({
      action: 'CANCEL',
      lane: 'P3',
      in_time: true,
      within_24h: false,
      penalty: null,
      penalty_avoided: { amount: 120, currency: 'GBP' },
      review_due_by: '2026-07-15T17:00:00.000Z',
    });
  });

  test('a deadline within 24 hours puts the cancellation in the P1 lane', () => {
    const d = decideCancellation(input({ now: deadline - 23 * HOUR, priority: 'P3' }));
    expect(d).toMatchObject({ action: 'CANCEL', lane: 'P1', within_24h: true, review_due_by: iso(deadline) });
  });

  test('after the deadline (CANCEL, the default): cancel and record the late fee on the booking', () => {
    const d = decideCancellation(input({ now: deadline + MIN, priority: 'P1' }));
    expect(d).toMatchObject({
      action: 'CANCEL',
      in_time: false,
      penalty: { amount: 120, currency: 'GBP' },
      penalty_avoided: null,
      lane: 'P1',
    });
    expect(d.message).toContain('late cancellation fee 120.00 GBP recorded on the booking');
  });

  test('after the deadline with after_deadline REVIEW: a review item, due at the (past) deadline', () => {
    const settings = { cancel_hold_minutes: 60, after_deadline: 'REVIEW' as const };
    const d = decideCancellation(input({ now: deadline + MIN, settings }));
    expect(d).toMatchObject({
      action: 'REVIEW',
      penalty: { amount: 120, currency: 'GBP' },
      review_due_by: iso(deadline),
    });
    // A person's own DELETE or PATCH is their decision: it cancels and records the fee. A roster's move books the
    // room the crew member needs now: the old one is cancelled and its fee recorded.
    for (const cause of ['DELETE', 'PATCH', 'MOVE'] as const)
      expect(decideCancellation(input({ now: deadline + MIN, settings, cause })).action).toBe('CANCEL');
  });

  test('after the deadline without a late fee in the contract: cancelled, nothing recorded', () => {
    const d = decideCancellation(
      input({ terms: { cancellation_deadline: TERMS.cancellation_deadline }, now: deadline + MIN }),
    );
    expect(d).toMatchObject({ action: 'CANCEL', in_time: false, penalty: null });
  });

  describe('the hold', () => {
    const settings = { cancel_hold_minutes: 90, after_deadline: 'CANCEL' as const };

    test('a roster cancellation is held for cancel_hold_minutes when the deadline allows', () => {
      const now = deadline - 30 * HOUR;
      const d = decideCancellation(input({ now, settings }));
      expect(d).toMatchObject({ action: 'HOLD', hold_until: iso(now + 90 * MIN), lane: 'P3', penalty: null });
    });

    test('the hold is cut to end HOLD_DEADLINE_MARGIN_MINUTES before the deadline; its release runs in P1', () => {
      const now = deadline - HOUR;
      const d = decideCancellation(input({ now, settings }));
      expect(d).toMatchObject({
        action: 'HOLD',
        hold_until: iso(deadline - HOLD_DEADLINE_MARGIN_MINUTES * MIN),
        lane: 'P1',
      });
    });

    test('no hold when the margin before the deadline has begun: cancel now, in time, in P1', () => {
      const now = deadline - HOLD_DEADLINE_MARGIN_MINUTES * MIN;
      expect(decideCancellation(input({ now, settings }))).toMatchObject({
        action: 'CANCEL',
        in_time: true,
        lane: 'P1',
      });
    });

    test('never for a DELETE, a PATCH or a move, nor without terms, nor after the deadline, nor with a hold of 0', () => {
      const now = deadline - 30 * HOUR;
      expect(decideCancellation(input({ now, settings, cause: 'DELETE' })).action).toBe('CANCEL');
      expect(decideCancellation(input({ now, settings, cause: 'PATCH' })).action).toBe('CANCEL');
      expect(decideCancellation(input({ now, settings, cause: 'MOVE' })).action).toBe('CANCEL');
      expect(decideCancellation(input({ now, settings, terms: null })).action).toBe('CANCEL');
      expect(decideCancellation(input({ now: deadline + 1, settings })).action).toBe('CANCEL');
      expect(decideCancellation(input({ now })).action).toBe('CANCEL');
    });

    test('a hold always ends in time', () => {
      fc.assert(
        fc.property(fc.integer({ min: -48 * 60, max: 48 * 60 }), fc.integer({ min: 0, max: 1440 }), (lead, hold) => {
          const now = deadline - lead * MIN;
          const d = decideCancellation(
            input({ now, settings: { cancel_hold_minutes: hold, after_deadline: 'CANCEL' } }),
          );
          if (d.action !== 'HOLD') return;
          const until = instantOf(d.hold_until!);
          expect(until).toBeGreaterThan(now);
          expect(until).toBeLessThanOrEqual(Math.min(now + hold * MIN, deadline - HOLD_DEADLINE_MARGIN_MINUTES * MIN));
        }),
      );
    });
  });
});

describe('holdOutcome and advanceHold', () => {
  const until = '2026-07-14T12:00:00.000Z';
  const u = instantOf(until);

  test('the layover back within the hold: KEEP; the hold run out: CANCEL; otherwise WAIT', () => {
    expect(holdOutcome({ hold_until: until }, u - MIN, true)).toBe('KEEP');
    expect(holdOutcome({ hold_until: until }, u - MIN, false)).toBe('WAIT');
    expect(holdOutcome({ hold_until: until }, u, false)).toBe('CANCEL');
    expect(holdOutcome({ hold_until: until }, u + HOUR, false)).toBe('CANCEL');
    // Back before the cancellation was released (its job not yet run): still within the hold, nothing is sent.
    expect(holdOutcome({ hold_until: until }, u + MIN, true)).toBe('KEEP');
  });

  test('hold, then the roster brings the layover back: kept, nothing is sent, ever', () => {
    let state: HoldState = { status: 'HELD', hold_until: until };
    const sent: boolean[] = [];
    for (const [at, back] of [
      [u - 60 * MIN, false],
      [u - 30 * MIN, true],
      [u, false],
      [u + HOUR, false],
    ] as const) {
      const r = advanceHold(state, at, back);
      state = r.state;
      sent.push(r.send_cancellation);
    }
    expect(sent).toEqual([false, false, false, false]);
    expect(state).toEqual({ status: 'KEPT', at: iso(u - 30 * MIN) });
  });

  test('hold expiry: exactly one cancellation however often the hold is looked at', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: -120, max: 120 }), fc.boolean()), { minLength: 1, maxLength: 30 }),
        (events) => {
          let state: HoldState = { status: 'HELD', hold_until: until };
          let cancellations = 0;
          const ticks = [...events].sort((a, b) => a[0] - b[0]);
          // The timer fires once more after the hold, as the worker's delayed job would.
          ticks.push([121, false]);
          for (const [minutes, back] of ticks) {
            const r = advanceHold(state, u + minutes * MIN, back);
            if (r.send_cancellation) cancellations++;
            state = r.state;
          }
          // The first look at which the layover is back, or the hold has run out, settles it.
          const settling = ticks.find(([minutes, back]) => back || minutes >= 0)!;
          expect(cancellations).toBe(settling[1] ? 0 : 1);
          expect(state.status).toBe(settling[1] ? 'KEPT' : 'RELEASED');
        },
      ),
    );
  });
});

describe('a held item whose booking another cancellation takes over', () => {
  it('ends AUTO_CANCELLED, superseded by the item whose task cancels the booking, saying so', () => {
    expect(heldItemTakenOver('CANCEL', 'held', 'injected')).toEqual({
      held_action_id: 'held',
      by_action_id: 'injected',
      disposition: 'AUTO_CANCELLED',
      message: expect.stringContaining('injected'),
    });
  });

  it('is nothing for another operation, for the held item settling itself, or without both items', () => {
    expect(heldItemTakenOver('BOOK', 'held', 'injected')).toBeNull();
    expect(heldItemTakenOver('CANCEL', 'held', 'held')).toBeNull();
    expect(heldItemTakenOver('CANCEL', null, 'injected')).toBeNull();
    expect(heldItemTakenOver('CANCEL', 'held', null)).toBeNull();
  });
});

import {
  cancellationReviewDeadline,
  cancellationContract,
  cancellationCostFields,
  madeCancellationCost,
  DEFAULT_COST_SETTINGS,
  heldLayoverKey,
  instantOf,
  isHeld,
  judgedWhenMade,
  layoverKey,
  planCancellation,
  planHotelMove,
  planRosterCancellation,
  planTaskCancellation,
  releasedCancellation,
  recappedHoldUntil,
  rosterCancellationBookings,
  storedCancellation,
  taskCancellationDeadline,
  type CancellationDecision,
  type BookedHotel,
  type CancellationTerms,
  type CancelledStay,
  type ContractTerms,
  type CostSettings,
  type Decision,
  type DerivedActionItem,
  type StationHotel,
  type StoredCancellation,
} from '../src';
import { HOUR, iso, MIN, terms18 } from './cancellation-fixtures';
import { at, contract, ctx, eur, period, stationHotel, type CtxOver } from './policy-fixtures';

/** "By 18:00 hotel time on the day of arrival", one night's fee when late. */
const TERMS: CancellationTerms = terms18();
/** The FRA hotel's contract with terms, read in Frankfurt's zone (UTC+1 in December). */
const termed = (over: Partial<ContractTerms> = {}) =>
  contract({ cancellation_terms: TERMS, hotel_time_zone: 'Europe/Berlin', ...over });
const hotelWith = (...contracts: ContractTerms[]) => stationHotel({ contracts });

/** Two nights at FRA, 10 and 11 December 2026; the deadline is 18:00 Frankfurt time on the 10th. */
const STAY: CancelledStay = {
  checkin_time_local: at('2026-12-10', '16:00'),
  checkout_time_local: at('2026-12-12', '10:00'),
};
const DEADLINE = instantOf('2026-12-10T17:00:00Z');

describe('cancellationContract: the contract whose terms govern the cancellation', () => {
  const booked = (hotel: Partial<NonNullable<CancelledStay['hotel']>>): CancelledStay => ({
    ...STAY,
    hotel: { property_id: 'GDS-FRA-1', ...hotel },
  });

  test('no hotel configured at the station: none', () => {
    expect(cancellationContract(undefined, STAY)).toBeNull();
  });

  test('a stay at another property than the configured one: none, even naming a contract id of the hotel', () => {
    const hotel = hotelWith(termed());
    expect(cancellationContract(hotel, booked({ property_id: 'GDS-FRA-2', contract_id: 10 }))).toBeNull();
    expect(cancellationContract(hotel, booked({ property_id: 'GDS-FRA-1', contract_id: 10 }))).toBe(hotel.contracts[0]);
  });

  test('the booking’s own contract, not the first that covers the stay; an unknown one is none (no fallback)', () => {
    const first = termed({ contract_id: 10 });
    const own = termed({ contract_id: 11 });
    const hotel = hotelWith(first, own);
    expect(cancellationContract(hotel, booked({ contract_id: 11 }))).toBe(own);
    expect(cancellationContract(hotel, booked({ contract_id: 99 }))).toBeNull();
  });

  test('without a contract id: the contract covering every night (the check-out day is no night)', () => {
    const untilFirstNight = termed({ contract_id: 1, contract_from: '2026-12-01', contract_to: '2026-12-10' });
    const untilLastNight = termed({ contract_id: 2, contract_from: '2026-12-10', contract_to: '2026-12-11' });
    const hotel = hotelWith(untilFirstNight, untilLastNight);
    expect(cancellationContract(hotel, STAY)).toBe(untilLastNight);
    expect(cancellationContract(hotel, booked({}))).toBe(untilLastNight);
  });

  test('a night outside every contract: none', () => {
    const hotel = hotelWith(termed({ contract_from: '2026-12-01', contract_to: '2026-12-31' }));
    const newYear = { checkin_time_local: at('2026-12-31', '16:00'), checkout_time_local: at('2027-01-02', '10:00') };
    expect(cancellationContract(hotel, newYear)).toBeNull();
  });
});

describe('planCancellation', () => {
  const plan = (
    hotel: StationHotel | undefined,
    now: number,
    over: Partial<Parameters<typeof planCancellation>[0]> = {},
  ) =>
    planCancellation({
      hotel,
      stay: STAY,
      cause: 'ROSTER',
      settings: DEFAULT_COST_SETTINGS,
      priority: 'P3',
      now,
      ...over,
    });

  test('a contract without terms, or without a zone to read them in, cancels as before terms existed', () => {
    for (const c of [contract(), termed({ cancellation_terms: null }), termed({ hotel_time_zone: null })]) {
      const d = plan(hotelWith(c), DEADLINE + HOUR);
      expect(d).toMatchObject({ action: 'CANCEL', lane: 'P3', deadline: null, penalty: null, review_due_by: null });
    }
  });

  test('the deadline is read in the hotel’s zone', () => {
    expect(plan(hotelWith(termed()), DEADLINE - 48 * HOUR).deadline).toBe('2026-12-10T17:00:00.000Z');
    const newYork = termed({ hotel_time_zone: 'America/New_York' });
    expect(plan(hotelWith(newYork), DEADLINE - 48 * HOUR).deadline).toBe('2026-12-10T23:00:00.000Z');
  });

  test('a NIGHTS fee is priced at the booking’s contracted rate before the contract’s', () => {
    const stay = { ...STAY, hotel: { property_id: 'GDS-FRA-1', contract_id: 10, contracted_rate: eur(150) } };
    const d = plan(hotelWith(termed()), DEADLINE + MIN, { stay });
    expect(d).toMatchObject({ action: 'CANCEL', in_time: false, penalty: eur(150) });
    expect(plan(hotelWith(termed()), DEADLINE - HOUR, { stay }).penalty_avoided).toEqual(eur(150));
  });

  test('without a booked rate, the contract’s rate for the first night; the stay’s nights cap the fee', () => {
    const rates = [period('2026-12-01', '2026-12-10', 100), period('2026-12-11', '2026-12-31', 130)];
    expect(plan(hotelWith(termed({ rate_periods: rates })), DEADLINE + MIN).penalty).toEqual(eur(100));
    // Three nights' fee on a two-night stay: two nights at the first night's rate.
    const threeNights = { ...TERMS, late_cancellation_fee: { type: 'NIGHTS' as const, nights: 3 } };
    const c = termed({ rate_periods: rates, cancellation_terms: threeNights });
    expect(plan(hotelWith(c), DEADLINE + MIN).penalty).toEqual(eur(200));
    // No rate period for the first night: nothing to price the fee at.
    const late = termed({ rate_periods: [period('2026-12-11', '2026-12-31', 130)] });
    expect(plan(hotelWith(late), DEADLINE + MIN)).toMatchObject({ in_time: false, penalty: null });
  });
});

describe('planTaskCancellation: a cancellation the airline asked for (an injected one, a DELETE), as the booking stores it', () => {
  /** The airline's roster settings hold in-time cancellations and hand late ones to a person: neither applies here. */
  const HOLD_AND_REVIEW: CostSettings = { cancel_hold_minutes: 60, after_deadline: 'REVIEW' };
  const booked: CancelledStay = {
    ...STAY,
    hotel: { property_id: 'GDS-FRA-1', contract_id: 10, contracted_rate: eur(150) },
  };
  const plan = (now: number, over: Partial<Parameters<typeof planTaskCancellation>[0]> = {}) =>
    planTaskCancellation({
      hotel: hotelWith(termed()),
      stay: booked,
      cause: 'REQUEST',
      settings: HOLD_AND_REVIEW,
      priority: 'P3',
      now,
      ref: 'ref-1',
      actionId: 'act-1',
      ...over,
    });

  test('after the deadline (18:00 Frankfurt time): cancelled now in the item’s lane, the late fee stored under the task’s ref', () => {
    expect(plan(DEADLINE + MIN)).toEqual({
      lane: 'P3',
      cancellation: {
        ref: 'ref-1',
        action_id: 'act-1',
        deadline: iso(DEADLINE),
        penalty: eur(150),
        penalty_avoided: null,
        message:
          "after the hotel's cancellation deadline (18:00 Europe/Berlin on 2026-12-10): late cancellation fee 150.00 EUR recorded on the booking",
        hold: null,
      },
    });
  });

  test('in time, the deadline less than 24 hours away: the P1 lane, the fee avoided stored, never held', () => {
    const p = plan(DEADLINE - 2 * HOUR);
    expect(p).toMatchObject({ lane: 'P1', cancellation: { penalty: null, penalty_avoided: eur(150), hold: null } });
    expect(isHeld(p.cancellation)).toBe(false);
    expect(plan(DEADLINE - 48 * HOUR)).toMatchObject({ lane: 'P3', cancellation: { penalty_avoided: eur(150) } });
  });

  test('judged and priced as the roster’s cancellation of the same stay is, at the same moment', () => {
    const roster = (now: number) =>
      planCancellation({
        hotel: hotelWith(termed()),
        stay: booked,
        cause: 'ROSTER',
        settings: DEFAULT_COST_SETTINGS,
        priority: 'P3',
        now,
      });
    for (const now of [DEADLINE - 48 * HOUR, DEADLINE - 2 * HOUR, DEADLINE, DEADLINE + MIN, DEADLINE + 48 * HOUR]) {
      const r = roster(now);
      expect(plan(now)).toEqual({
        lane: r.lane,
        cancellation: storedCancellation(r, 'ref-1', 'act-1'),
      });
    }
  });

  test('a contract without terms (or a stay at another property) stores nothing, in the item’s lane', () => {
    expect(plan(DEADLINE + MIN, { hotel: hotelWith(contract()) })).toEqual({ lane: 'P3', cancellation: null });
    const elsewhere = { ...booked, hotel: { ...booked.hotel!, property_id: 'GDS-FRA-2' } };
    expect(plan(DEADLINE + MIN, { stay: elsewhere })).toEqual({ lane: 'P3', cancellation: null });
  });
});

describe('releasedCancellation: a held cancellation judged when its hold runs out, under the terms in force then', () => {
  /** Held two days before the deadline, under one night's fee (120 EUR), for an hour. */
  const HELD = { ref: 'ref-1', action_id: 'act-1' };
  const LAYOVER = { classification: 'LAYOVER_CANCELLED', traveller_email: 'e1@crew.example.com', station: 'FRA' };
  const release = (
    c: ContractTerms,
    now: number,
    settings: CostSettings = { cancel_hold_minutes: 60, after_deadline: 'CANCEL' },
    over: CtxOver = {},
    layover: Partial<typeof LAYOVER> = {},
  ) =>
    releasedCancellation(HELD, {
      policy: ctx({ hotel: hotelWith(c), ...over }),
      layover: { ...LAYOVER, ...layover },
      stay: STAY,
      settings,
      priority: 'P3',
      now,
    });

  test('in time under the terms now: cancelled, the fee those terms would charge avoided; never held again', () => {
    const twoNights = termed({
      cancellation_terms: { ...TERMS, late_cancellation_fee: { type: 'NIGHTS', nights: 2 } },
    });
    expect(release(twoNights, DEADLINE - 2 * HOUR)).toEqual({
      action: 'CANCEL',
      cancellation: {
        ref: 'ref-1',
        action_id: 'act-1',
        deadline: iso(DEADLINE),
        penalty: null,
        penalty_avoided: eur(240),
        message: expect.stringContaining('in time'),
        hold: { status: 'RELEASED', at: iso(DEADLINE - 2 * HOUR) },
      },
    });
  });

  test('a deadline the terms now put before the release: the late fee, or a person with after_deadline REVIEW', () => {
    // The contract now wants notice by 12:00 the day before (11:00Z on the 9th): passed at the release.
    const dayBefore = termed({
      cancellation_terms: { ...TERMS, cancellation_deadline: { days_before: 1, local_time: '12:00' } },
    });
    const now = DEADLINE - 2 * HOUR;
    expect(release(dayBefore, now)).toMatchObject({
      action: 'CANCEL',
      cancellation: { penalty: eur(120), penalty_avoided: null, hold: { status: 'RELEASED' } },
    });
    expect(release(dayBefore, now, { cancel_hold_minutes: 60, after_deadline: 'REVIEW' })).toEqual({
      action: 'REVIEW',
      reason: expect.stringContaining('a person decides whether to cancel'),
      review_deadline: '2026-12-09T11:00:00.000Z',
    });
  });

  test('a lever switched off during the hold: a person decides, due at the deadline, as the roster would decide now', () => {
    const off = release(termed(), DEADLINE - 2 * HOUR, undefined, { settings: { cancellation_execution: false } });
    expect(off).toEqual({
      action: 'REVIEW',
      reason: expect.stringMatching(/^cancellation execution is not enabled for this airline; in time/),
      review_deadline: iso(DEADLINE),
    });
    // No booking account now (rule 11): a person, too. Without terms the review rules date it.
    expect(release(termed(), DEADLINE - 2 * HOUR, undefined, { crew_booker_email: null })).toMatchObject({
      action: 'REVIEW',
      review_deadline: iso(DEADLINE),
    });
    expect(
      release(contract(), DEADLINE - 2 * HOUR, undefined, { settings: { cancellation_execution: false } }),
    ).toEqual({
      action: 'REVIEW',
      reason: 'cancellation execution is not enabled for this airline',
      review_deadline: null,
    });
    // A crew member swapped out follows swap_execution as well; a plain dropped layover does not.
    const swapsOff = { settings: { swap_execution: false } };
    expect(release(termed(), DEADLINE - 2 * HOUR, undefined, swapsOff, { classification: 'SWAP_OUT' })).toMatchObject({
      action: 'REVIEW',
      reason: expect.stringContaining('crew swap execution is not enabled'),
    });
    expect(release(termed(), DEADLINE - 2 * HOUR, undefined, swapsOff)).toMatchObject({ action: 'CANCEL' });
  });

  test('terms removed during the hold: cancelled with no fee either way', () => {
    expect(release(contract(), DEADLINE - 2 * HOUR)).toMatchObject({
      action: 'CANCEL',
      cancellation: { deadline: null, penalty: null, penalty_avoided: null, hold: { status: 'RELEASED' } },
    });
  });

  test('recappedHoldUntil: a hold the terms in force put past their deadline ends 15 minutes before it, or at once', () => {
    const now = DEADLINE - 4 * HOUR;
    const recap = (c: ContractTerms, holdUntil: number) =>
      recappedHoldUntil(iso(holdUntil), { hotel: hotelWith(c), stay: STAY, now });
    // The same terms: the hold already ends 15 minutes before the deadline at the latest.
    expect(recap(termed(), DEADLINE - 15 * MIN)).toBeNull();
    expect(recap(termed(), now + HOUR)).toBeNull();
    // By 16:00 Frankfurt time now (15:00Z): a hold until 16:30Z ends at 14:45Z; one until 14:00Z still fits.
    const at16 = termed({
      cancellation_terms: { ...TERMS, cancellation_deadline: { days_before: 0, local_time: '16:00' } },
    });
    expect(recap(at16, DEADLINE - 30 * MIN)).toBe(iso(DEADLINE - 2 * HOUR - 15 * MIN));
    expect(recap(at16, DEADLINE - 3 * HOUR)).toBeNull();
    // A deadline already past (noon the day before): the hold ends now.
    const dayBefore = termed({
      cancellation_terms: { ...TERMS, cancellation_deadline: { days_before: 1, local_time: '12:00' } },
    });
    expect(recap(dayBefore, DEADLINE - 30 * MIN)).toBe(iso(now));
    // No terms now: nothing to cap (the release cancels with no fee).
    expect(recap(contract(), DEADLINE - 30 * MIN)).toBeNull();
  });
});

const DECISION: CancellationDecision = {
  action: 'CANCEL',
  lane: 'P3',
  deadline: iso(DEADLINE),
  in_time: false,
  within_24h: false,
  penalty: eur(120),
  penalty_avoided: null,
  review_due_by: iso(DEADLINE),
  hold_until: null,
  message: 'late',
};
const stored = (over: Partial<StoredCancellation>): StoredCancellation => ({
  ...storedCancellation(DECISION, 'ref-1', 'act-1'),
  ...over,
});

describe('what a booking stores of its cancellation', () => {
  test('storedCancellation keeps the ref, the item, the deadline, the fees and the message; a hold only on HOLD', () => {
    expect(storedCancellation(DECISION, 'ref-1', null)).toEqual({
      ref: 'ref-1',
      action_id: null,
      deadline: iso(DEADLINE),
      penalty: eur(120),
      penalty_avoided: null,
      message: 'late',
      hold: null,
    });
    const until = iso(DEADLINE - 2 * HOUR);
    const held = { ...DECISION, action: 'HOLD' as const, penalty: null, hold_until: until };
    expect(storedCancellation(held, 'ref-2', 'act-2').hold).toEqual({ status: 'HELD', hold_until: until });
    expect(storedCancellation({ ...DECISION, hold_until: until }, 'ref-3', null).hold).toBeNull();
  });

  test('isHeld: only a HELD hold', () => {
    expect(isHeld(stored({ hold: { status: 'HELD', hold_until: iso(DEADLINE) } }))).toBe(true);
    expect(isHeld(stored({ hold: { status: 'KEPT', at: iso(DEADLINE) } }))).toBe(false);
    expect(isHeld(stored({ hold: { status: 'RELEASED', at: iso(DEADLINE) } }))).toBe(false);
    expect(isHeld(stored({ hold: null }))).toBe(false);
    expect(isHeld(null)).toBe(false);
    expect(isHeld(undefined)).toBe(false);
  });

  test('cancellationCostFields: the fee it cost, else the one it avoided; a KEPT hold records nothing', () => {
    expect(cancellationCostFields(stored({}))).toEqual({ cancellation_penalty: eur(120) });
    const inTime = stored({ penalty: null, penalty_avoided: eur(120) });
    expect(cancellationCostFields(inTime)).toEqual({ cancellation_penalty_avoided: eur(120) });
    expect(cancellationCostFields({ ...inTime, hold: { status: 'RELEASED', at: iso(DEADLINE) } })).toEqual({
      cancellation_penalty_avoided: eur(120),
    });
    expect(cancellationCostFields({ ...inTime, hold: { status: 'KEPT', at: iso(DEADLINE) } })).toEqual({});
    expect(cancellationCostFields(stored({ penalty: null }))).toEqual({});
    expect(cancellationCostFields(null)).toEqual({});
    expect(cancellationCostFields(undefined)).toEqual({});
  });

  test('madeCancellationCost: only the cancellation stored for this very task; its message joins the reason', () => {
    const c = stored({});
    expect(madeCancellationCost(c, 'ref-1', null, true)).toEqual({
      fields: { cancellation_penalty: eur(120) },
      reason: c.message,
    });
    expect(madeCancellationCost(c, 'ref-1', 'hotel confirmed', true)).toEqual({
      fields: { cancellation_penalty: eur(120) },
      reason: `hotel confirmed; ${c.message}`,
    });
    // An earlier task's record is history; no record, nothing to say.
    expect(madeCancellationCost(c, 'ref-2', 'hotel confirmed', true)).toBeNull();
    expect(madeCancellationCost(null, 'ref-1', null, true)).toBeNull();
    // A cancellation with no fee either way keeps the task's own reason.
    expect(madeCancellationCost(stored({ penalty: null }), 'ref-1', 'hotel confirmed', true)).toEqual({
      fields: {},
      reason: 'hotel confirmed',
    });
  });

  test('judged when made: in time as decided but made after the deadline, the fee avoided is the fee it costs', () => {
    const inTime = stored({ penalty: null, penalty_avoided: eur(120), message: 'in time' });
    const late = judgedWhenMade(inTime, new Date(DEADLINE + MIN));
    expect(late).toMatchObject({ penalty: eur(120), penalty_avoided: null });
    expect(late.message).toBe(
      `sent to the hotel at ${iso(DEADLINE + MIN)}, after its cancellation deadline (${iso(DEADLINE)}): late cancellation fee 120.00 EUR recorded on the booking`,
    );
    // A supplier's cancellation that succeeded after the deadline (retried while it was down) says so.
    const made = madeCancellationCost(inTime, 'ref-1', null, true, {
      at: new Date(DEADLINE + MIN),
      as: 'cancelled at the supplier',
    })!;
    expect(made.fields).toEqual({ cancellation_penalty: eur(120) });
    expect(made.reason).toBe(
      `cancelled at the supplier at ${iso(DEADLINE + MIN)}, after its cancellation deadline (${iso(DEADLINE)}): late cancellation fee 120.00 EUR recorded on the booking`,
    );
    // Made in time, or no time given: as decided.
    const inTimeMade = { at: new Date(DEADLINE), as: 'cancelled at the supplier' };
    expect(madeCancellationCost(inTime, 'ref-1', null, true, inTimeMade)!.fields).toEqual({
      cancellation_penalty_avoided: eur(120),
    });
    expect(madeCancellationCost(inTime, 'ref-1', null, true)!.fields).toEqual({
      cancellation_penalty_avoided: eur(120),
    });
    // At the deadline is in time ("by 18:00"); no time, no terms, already late, or no fee to move: as decided.
    expect(judgedWhenMade(inTime, new Date(DEADLINE))).toBe(inTime);
    expect(judgedWhenMade(inTime, null)).toBe(inTime);
    expect(judgedWhenMade({ ...inTime, deadline: null }, new Date(DEADLINE + MIN)).penalty).toBeNull();
    const decidedLate = stored({});
    expect(judgedWhenMade(decidedLate, new Date(DEADLINE + HOUR))).toBe(decidedLate);
    const noFee = stored({ penalty: null, penalty_avoided: null });
    expect(judgedWhenMade(noFee, new Date(DEADLINE + HOUR))).toBe(noFee);
  });

  test('taskCancellationDeadline: the deadline of the cancellation stored for this very task', () => {
    expect(taskCancellationDeadline(stored({}), 'ref-1')).toBe(iso(DEADLINE));
    expect(taskCancellationDeadline(stored({}), 'ref-2')).toBeNull();
    expect(taskCancellationDeadline(null, 'ref-1')).toBeNull();
  });

  test('cancellationReviewDeadline: a cancellation refused or failed is a person’s, due at the deadline', () => {
    for (const status of ['NEEDS_REVIEW', 'FAILED'])
      expect(cancellationReviewDeadline(status, 'CANCEL', stored({}), 'ref-1')).toBe(iso(DEADLINE));
    // Made, or no cancellation task, or another task's, or no terms: nothing to date.
    expect(cancellationReviewDeadline('CANCELLED', 'CANCEL', stored({}), 'ref-1')).toBeUndefined();
    expect(cancellationReviewDeadline('NEEDS_REVIEW', 'AMEND', stored({}), 'ref-1')).toBeUndefined();
    expect(cancellationReviewDeadline('NEEDS_REVIEW', undefined, stored({}), 'ref-1')).toBeUndefined();
    expect(cancellationReviewDeadline('NEEDS_REVIEW', 'CANCEL', stored({}), 'ref-2')).toBeUndefined();
    expect(cancellationReviewDeadline('FAILED', 'CANCEL', null, 'ref-1')).toBeUndefined();
  });

  test('madeCancellationCost: a cancellation that found nothing reserved records no fee, nor one avoided', () => {
    const reason = 'nothing was reserved at the supplier';
    // Late or in time, a stay that never held a room costs nothing and saves nothing; the reason is the task's alone.
    for (const c of [stored({}), stored({ penalty: null, penalty_avoided: eur(120) })])
      expect(madeCancellationCost(c, 'ref-1', reason, false)).toEqual({ fields: {}, reason });
    // A hotel that held the room: as before.
    expect(madeCancellationCost(stored({}), 'ref-1', null, true)).toMatchObject({
      fields: { cancellation_penalty: eur(120) },
    });
  });

  test('heldLayoverKey: the layover key; null when any part is missing', () => {
    const b = { employee_id: 'E1', pairing_number: 'P100', duty_period_num: 0 };
    expect(heldLayoverKey(b)).toBe(layoverKey('E1', 'P100', 0));
    expect(heldLayoverKey({ ...b, employee_id: null })).toBeNull();
    expect(heldLayoverKey({ ...b, pairing_number: null })).toBeNull();
    expect(heldLayoverKey({ ...b, duty_period_num: null })).toBeNull();
  });
});

describe('rosterCancellationBookings: the bookings whose hotel a slice’s roster cancellations are judged on', () => {
  const item = (over: Partial<DerivedActionItem>, station = 'FRA') =>
    ({ type: 'HOTEL', subtype: 'CANCEL', booking_id: 'b-1', details: { station }, ...over }) as DerivedActionItem;

  test('hotel CANCEL items of a booking at a station whose hotel has terms (with a zone), and no others', () => {
    const hotels = new Map([
      ['FRA', hotelWith(contract(), termed())],
      ['MUC', hotelWith(contract())],
      ['CDG', hotelWith(termed({ hotel_time_zone: null }))],
    ]);
    const items = [
      item({}),
      item({ booking_id: 'b-2' }, 'MUC'),
      item({ booking_id: 'b-3' }, 'CDG'),
      item({ booking_id: 'b-4' }, 'LHR'),
      item({ booking_id: null }),
      item({ booking_id: 'b-5', subtype: 'MODIFY' }),
      item({ booking_id: 'b-6', type: 'FLIGHT' }),
    ];
    expect(rosterCancellationBookings(items, hotels)).toEqual(['b-1']);
  });
});

describe('planRosterCancellation', () => {
  const item = { priority: 'P3' as const, details: { station: 'FRA', ...STAY } };
  const AUTO: Decision = {
    action: 'AUTO_CANCEL',
    auto_eligible: true,
    reason: null,
    recommended_action: null,
    flight_options_url: null,
  };
  const plan = (decision: Decision, now: number, settings: CostSettings = DEFAULT_COST_SETTINGS, c = termed()) =>
    planRosterCancellation(
      item,
      decision,
      { hotels: new Map([['FRA', hotelWith(c)]]), settings },
      'ref-1',
      'act-1',
      iso(now),
      'layover dropped',
    );

  test('a decision other than AUTO_CANCEL passes through, due at the deadline, in the item’s lane', () => {
    const off: Decision = { ...AUTO, action: 'REVIEW', auto_eligible: false, reason: 'cancellation execution is off' };
    const r = plan(off, DEADLINE - 2 * HOUR);
    expect(r).toMatchObject({ lane: 'P3', cancellation: null, held_until: null, review_deadline: iso(DEADLINE) });
    expect(r.decision).toBe(off);
    // Without terms the review rules date it.
    expect(plan(off, DEADLINE - 2 * HOUR, DEFAULT_COST_SETTINGS, contract()).review_deadline).toBeNull();
  });

  test('after the deadline with after_deadline REVIEW: AUTO_CANCEL becomes REVIEW, due at the deadline', () => {
    const r = plan(AUTO, DEADLINE + MIN, { cancel_hold_minutes: 0, after_deadline: 'REVIEW' });
    expect(r.decision).toEqual({ ...AUTO, action: 'REVIEW', auto_eligible: false, reason: r.message });
    expect(r).toMatchObject({ lane: 'P3', cancellation: null, held_until: null, review_deadline: iso(DEADLINE) });
    expect(r.message).toContain('late cancellation fee 120.00 EUR; a person decides whether to cancel');
    // The default cancels anyway and stores the fee to record.
    const anyway = plan(AUTO, DEADLINE + MIN);
    expect(anyway).toMatchObject({ decision: AUTO, review_deadline: null, cancellation: { penalty: eur(120) } });
  });

  test('a hold: held_until, and the stored cancellation holds it under the task’s ref', () => {
    const now = DEADLINE - 48 * HOUR;
    const r = plan(AUTO, now, { cancel_hold_minutes: 60, after_deadline: 'CANCEL' });
    const until = iso(now + 60 * MIN);
    expect(r).toMatchObject({ decision: AUTO, lane: 'P3', held_until: until, review_deadline: null });
    expect(r.cancellation).toMatchObject({
      ref: 'ref-1',
      action_id: 'act-1',
      penalty: null,
      penalty_avoided: eur(120),
      hold: { status: 'HELD', hold_until: until },
    });
    expect(isHeld(r.cancellation)).toBe(true);
  });

  test('a deadline less than 24 hours away: the P1 lane; further away: the item’s own', () => {
    const near = plan(AUTO, DEADLINE - 23 * HOUR);
    expect(near).toMatchObject({
      lane: 'P1',
      held_until: null,
      cancellation: { penalty_avoided: eur(120), hold: null },
    });
    expect(plan(AUTO, DEADLINE - 25 * HOUR).lane).toBe('P3');
  });

  test('the booking’s own hotel decides: a stay at another property than the configured one has no terms', () => {
    const at = (property_id: string) =>
      planRosterCancellation(
        { ...item, details: { ...item.details, hotel: { property_id } } },
        AUTO,
        { hotels: new Map([['FRA', hotelWith(termed())]]), settings: DEFAULT_COST_SETTINGS },
        'ref-1',
        'act-1',
        iso(DEADLINE + MIN),
        'layover dropped',
      );
    expect(at('GDS-FRA-2')).toMatchObject({ decision: AUTO, cancellation: null, message: 'layover dropped' });
    expect(at('GDS-FRA-1').cancellation).toMatchObject({ penalty: eur(120) });
  });

  test('the message joins the base message and the decision’s only when there are terms', () => {
    const r = plan(AUTO, DEADLINE - 48 * HOUR);
    expect(r.message).toBe(
      "layover dropped; in time for the hotel's cancellation deadline (18:00 Europe/Berlin on 2026-12-10): no fee",
    );
    const none = plan(AUTO, DEADLINE - 48 * HOUR, DEFAULT_COST_SETTINGS, contract());
    expect(none).toMatchObject({ decision: AUTO, message: 'layover dropped', cancellation: null, lane: 'P3' });
  });
});

describe('planHotelMove: the old room of a stay the roster moves to another hotel', () => {
  /** The layover moved from FRA (booked at GDS-FRA-1) to MUC. */
  const item = { priority: 'P3' as const, details: { previous: { station: 'FRA', ...STAY } } };
  const MUC: Decision = {
    action: 'AUTO_MODIFY',
    auto_eligible: true,
    reason: null,
    recommended_action: null,
    flight_options_url: null,
    hotel: {
      hotel_config_id: 8,
      property_id: 'GDS-MUC-1',
      handler_type: 'GDS',
      name: null,
      contract_id: 20,
      rate: eur(90),
    },
  };
  const BOOKED: BookedHotel = { property_id: 'GDS-FRA-1', contract_id: 10, handler_type: 'GDS' };
  const plan = (
    now: number,
    over: { decision?: Decision; booked?: BookedHotel; settings?: CostSettings; hotel?: StationHotel } = {},
  ) =>
    planHotelMove(
      item,
      over.decision ?? MUC,
      over.booked ?? BOOKED,
      {
        hotels: new Map([['FRA', over.hotel ?? hotelWith(termed())]]),
        settings: over.settings ?? DEFAULT_COST_SETTINGS,
      },
      'ref-1',
      'act-1',
      iso(now),
      'Layover moved from FRA to MUC',
    );
  const DAMPED_AND_REVIEWED: CostSettings = { cancel_hold_minutes: 60, after_deadline: 'REVIEW' };

  test('in time, the deadline less than 24 hours away: the P1 lane, never held, the fee avoided stored', () => {
    const r = plan(DEADLINE - 2 * HOUR, { settings: DAMPED_AND_REVIEWED })!;
    expect(r.lane).toBe('P1');
    expect(r.cancellation).toMatchObject({
      ref: 'ref-1',
      action_id: 'act-1',
      penalty: null,
      penalty_avoided: eur(120),
      hold: null,
    });
    expect(r.message).toBe(
      "Layover moved from FRA to MUC; the room at FRA cancelled in time for the hotel's cancellation deadline (18:00 Europe/Berlin on 2026-12-10): no fee",
    );
    expect(plan(DEADLINE - 25 * HOUR)!.lane).toBe('P3');
  });

  test('after the deadline: moved anyway (even with after_deadline REVIEW), the fee stored, the item’s lane', () => {
    const r = plan(DEADLINE + MIN, { settings: DAMPED_AND_REVIEWED })!;
    expect(r).toMatchObject({ lane: 'P3', cancellation: { penalty: eur(120), penalty_avoided: null, hold: null } });
    expect(r.message).toContain('the room at FRA cancelled after the hotel');
    expect(r.message).toContain('late cancellation fee 120.00 EUR recorded on the booking');
  });

  test('the terms of the old property: a booking at another property than the configured one has none', () => {
    const r = plan(DEADLINE + MIN, { booked: { ...BOOKED, property_id: 'GDS-FRA-2' } })!;
    expect(r).toEqual({ lane: 'P3', cancellation: null, message: 'Layover moved from FRA to MUC' });
    // The booking's own rate prices a NIGHTS fee.
    expect(plan(DEADLINE + MIN, { booked: { ...BOOKED, contracted_rate: eur(150) } })!.cancellation!.penalty).toEqual(
      eur(150),
    );
  });

  test('nothing to cancel: not an automatic change, or the same property', () => {
    const review: Decision = { ...MUC, action: 'REVIEW', hotel: undefined };
    expect(plan(DEADLINE + MIN, { decision: review })).toBeNull();
    expect(
      plan(DEADLINE + MIN, { decision: { ...MUC, hotel: { ...MUC.hotel!, property_id: 'GDS-FRA-1' } } }),
    ).toBeNull();
    expect(
      planHotelMove(
        { priority: 'P3', details: {} },
        MUC,
        BOOKED,
        { hotels: new Map(), settings: DEFAULT_COST_SETTINGS },
        'ref-1',
        'act-1',
        iso(DEADLINE),
        'x',
      ),
    ).toBeNull();
  });

  test('a DIRECT old room (on its hotel’s rooming list) is planned under its own terms, as a supplier’s room is', () => {
    const direct: BookedHotel = { ...BOOKED, handler_type: 'DIRECT' };
    const inTime = plan(DEADLINE - 2 * HOUR, { booked: direct })!;
    expect(inTime).toMatchObject({
      lane: 'P1',
      cancellation: { ref: 'ref-1', action_id: 'act-1', penalty: null, penalty_avoided: eur(120), hold: null },
    });
    expect(inTime.message).toContain('the room at FRA cancelled in time');
    expect(plan(DEADLINE + MIN, { booked: direct })).toMatchObject({ lane: 'P3', cancellation: { penalty: eur(120) } });
  });

  test('a DIRECT old room without terms still stores its cancellation (no fee either way): the old hotel’s answer finds its move', () => {
    const r = plan(DEADLINE + MIN, { booked: { ...BOOKED, handler_type: 'DIRECT' }, hotel: hotelWith(contract()) })!;
    expect(r).toMatchObject({
      lane: 'P3',
      message: 'Layover moved from FRA to MUC',
      cancellation: { ref: 'ref-1', action_id: 'act-1', deadline: null, penalty: null, penalty_avoided: null },
    });
    expect(r.cancellation!.message).toBe('the room at FRA cancelled: the contract has no cancellation terms: no fee');
    // A supplier's room without terms stores none, as before.
    expect(plan(DEADLINE + MIN, { hotel: hotelWith(contract()) })!.cancellation).toBeNull();
  });

  test('a move to a DIRECT hotel cancels the supplier’s room under its own terms, as any move does', () => {
    const toDirect = plan(DEADLINE + MIN, { decision: { ...MUC, hotel: { ...MUC.hotel!, handler_type: 'DIRECT' } } });
    expect(toDirect).toMatchObject({ lane: 'P3', cancellation: { penalty: eur(120), ref: 'ref-1' } });
    expect(toDirect!.message).toContain('the room at FRA cancelled after the hotel');
  });
});

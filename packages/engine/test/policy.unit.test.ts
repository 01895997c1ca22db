/**
 * The auto-booking policy (spec 1 rules 8-11, 14 and the operator-settings table; 2.3 auto_eligible; DESIGN
 * sections 3-4): operator levers, the booking account and date of birth, booking state, the rate check. Pure unit
 * tests: one `it` per rule. Hotel policy and contracts are in policy-hotels.test.ts, properties in
 * policy-properties.test.ts, the choice among flight options (4.3) in choose-flight-option.test.ts.
 */
import { flightOptionsUrl, type Money } from '@crew/contracts';
import { decide, rateCheck } from '../src/policy';
import { fxTable } from '../src/fx';
import type { BookingStatus } from '../src/types';
import {
  eur,
  ALL_OFF,
  ctx,
  at,
  newLayover,
  modifyLayover,
  cancelLayover,
  newDeadhead,
  deadheadTimeChange,
  deadheadCancelled,
  expectReview,
  expectAuto,
  expectBookManually,
} from './policy-fixtures';

// ---------------------------------------------------------------- decide: levers

describe('decide: operator levers (spec 1 operator-settings table)', () => {
  it('deadhead_auto_booking on: a NEW_DEADHEAD with booker and date of birth is AUTO_BOOK', () => {
    const d = decide(newDeadhead(), ctx());
    expectAuto(d, 'AUTO_BOOK');
    expect(d.recommended_action).toBeNull();
    expect(d.flight_options_url).toBeNull();
  });

  it('deadhead_auto_booking off: every NEW_DEADHEAD is review with BOOK_MANUALLY and a flight_options_url', () => {
    const d = decide(newDeadhead({ action_id: 'a/b c' }), ctx({ settings: { deadhead_auto_booking: false } }));
    expectBookManually(d, 'a/b c', /deadhead auto-booking/);
  });

  it('booking_modification on: a hotel date change on a live booking is AUTO_MODIFY at the contracted hotel', () => {
    const d = decide(modifyLayover(), ctx());
    expectAuto(d, 'AUTO_MODIFY');
    expect(d.hotel).toEqual({
      hotel_config_id: 7,
      property_id: 'GDS-FRA-1',
      handler_type: 'GDS',
      name: 'Airport Hotel FRA',
      contract_id: 10,
      rate: eur(120),
    });
  });

  it('booking_modification on: a deadhead time change on a live booking is AUTO_MODIFY', () => {
    expectAuto(decide(deadheadTimeChange(), ctx()), 'AUTO_MODIFY');
  });

  it('booking_modification off: a hotel date/station change becomes a review item', () => {
    const c = ctx({ settings: { booking_modification: false } });
    expectReview(decide(modifyLayover(), c), /modification/);
    expectReview(decide(modifyLayover({ classification: 'LAYOVER_CITY_CHANGE' }), c), /modification/);
    expectReview(decide(modifyLayover({ classification: 'LAYOVER_EXTENDED' }), c), /modification/);
  });

  it('booking_modification off: a deadhead time change becomes a review item', () => {
    expectReview(decide(deadheadTimeChange(), ctx({ settings: { booking_modification: false } })), /modification/);
  });

  it('swap_execution off: SWAP_IN (new booking) and SWAP_OUT (cancel) are review items even with every other lever on', () => {
    const c = ctx({ settings: { swap_execution: false } });
    expectReview(decide(newLayover({ classification: 'SWAP_IN' }), c), /swap/);
    expectReview(decide(cancelLayover({ classification: 'SWAP_OUT' }), c), /swap/);
    expectReview(decide(newDeadhead({ classification: 'SWAP_IN' }), c), /swap/);
    expectReview(decide(deadheadCancelled({ classification: 'SWAP_OUT' }), c), /swap/);
  });

  it('swap_execution on: SWAP_IN books and SWAP_OUT cancels like any other item', () => {
    const c = ctx();
    expectAuto(decide(newLayover({ classification: 'SWAP_IN' }), c), 'AUTO_BOOK');
    expectAuto(decide(cancelLayover({ classification: 'SWAP_OUT' }), c), 'AUTO_CANCEL');
    expectAuto(decide(newDeadhead({ classification: 'SWAP_IN' }), c), 'AUTO_BOOK');
    expectAuto(decide(deadheadCancelled({ classification: 'SWAP_OUT' }), c), 'AUTO_CANCEL');
  });

  it('swap_execution does not gate non-swap classifications', () => {
    expectAuto(decide(newLayover(), ctx({ settings: { swap_execution: false } })), 'AUTO_BOOK');
  });

  it('cancellation_execution on: a dropped layover and a dropped deadhead are AUTO_CANCEL', () => {
    expectAuto(decide(cancelLayover(), ctx()), 'AUTO_CANCEL');
    expectAuto(decide(deadheadCancelled(), ctx()), 'AUTO_CANCEL');
  });

  it('cancellation_execution off: a dropped layover and a dropped deadhead are review items', () => {
    const c = ctx({ settings: { cancellation_execution: false } });
    expectReview(decide(cancelLayover(), c), /cancellation/);
    expectReview(decide(deadheadCancelled(), c), /cancellation/);
  });

  it('cancellation lookback 0 (default): a checkout on the processing date is still cancelled, one the day before is review', () => {
    const c = ctx({ cancellation_lookback_days: 0, processedAt: '2026-12-05T10:00:00Z' });
    expectAuto(
      decide(
        cancelLayover({
          checkin_time_local: at('2026-12-04', '16:00'),
          checkout_time_local: at('2026-12-05', '09:00'),
        }),
        c,
      ),
      'AUTO_CANCEL',
    );
    expectReview(
      decide(
        cancelLayover({
          checkin_time_local: at('2026-12-03', '16:00'),
          checkout_time_local: at('2026-12-04', '09:00'),
        }),
        c,
      ),
      /lookback/,
    );
  });

  it('cancellation lookback N: a checkout N days before the processing date is eligible, N+1 days before is review', () => {
    const c = ctx({ cancellation_lookback_days: 3, processedAt: '2026-12-05T10:00:00Z' });
    expectAuto(
      decide(
        cancelLayover({
          checkin_time_local: at('2026-12-01', '16:00'),
          checkout_time_local: at('2026-12-02', '09:00'),
        }),
        c,
      ),
      'AUTO_CANCEL',
    );
    expectReview(
      decide(
        cancelLayover({
          checkin_time_local: at('2026-11-30', '16:00'),
          checkout_time_local: at('2026-12-01', '09:00'),
        }),
        c,
      ),
      /lookback \(3 days\)/,
    );
  });

  it('cancellation lookback does not apply to a future stay', () => {
    expectAuto(decide(cancelLayover(), ctx({ cancellation_lookback_days: 0 })), 'AUTO_CANCEL');
  });

  it('every lever off: every non-UNCHANGED item is review', () => {
    const c = ctx({ settings: ALL_OFF });
    for (const i of [
      newDeadhead(),
      modifyLayover(),
      deadheadTimeChange(),
      cancelLayover(),
      deadheadCancelled(),
      newLayover({ classification: 'SWAP_IN' }),
    ]) {
      expectReview(decide(i, c));
    }
  });

  it('hotel NEW_LAYOVER is not gated by any operator lever (only by booker and contract)', () => {
    expectAuto(decide(newLayover(), ctx({ settings: ALL_OFF })), 'AUTO_BOOK');
  });
});

// ---------------------------------------------------------------- decide: booker, DOB

describe('decide: crew booking account (rule 11) and date of birth (rule 14)', () => {
  it('crew_booker_email missing: a new hotel layover is review, not a booking', () => {
    expectReview(decide(newLayover(), ctx({ crew_booker_email: null })), /crew_booker_email/);
  });

  it('crew_booker_email missing: a hotel amendment is review', () => {
    expectReview(decide(modifyLayover(), ctx({ crew_booker_email: null })), /crew_booker_email/);
  });

  it('crew_booker_email missing: a new deadhead is review with BOOK_MANUALLY and a flight_options_url', () => {
    expectBookManually(decide(newDeadhead(), ctx({ crew_booker_email: null })), 'act-dh', /crew_booker_email/);
  });

  it('crew_booker_email missing: a deadhead amendment is review', () => {
    expectReview(decide(deadheadTimeChange(), ctx({ crew_booker_email: null })), /crew_booker_email/);
  });

  // Spec 1 rule 11: engine-driven hotel *cancellations* are placed under crew_booker_email; while it is unset
  // "work lands as a review item". decide() checks the booker only after the CANCEL branch has returned.
  it('crew_booker_email missing: an engine-driven cancellation of a live hotel booking is review (rule 11)', () => {
    expectReview(decide(cancelLayover({ booking_status: 'CONFIRMED' }), ctx({ crew_booker_email: null })));
  });

  it('missing date of birth: a new deadhead is review with BOOK_MANUALLY and a flight_options_url', () => {
    const seen: (string | null)[] = [];
    const d = decide(newDeadhead(), ctx({ travellerHasDob: (e) => (seen.push(e), false) }));
    expectBookManually(d, 'act-dh', /date of birth/);
    expect(seen).toEqual(['e1@crew.example.com']);
  });

  it('missing date of birth: a deadhead amendment is review', () => {
    expectReview(decide(deadheadTimeChange(), ctx({ dob: false })), /date of birth/);
  });

  it('missing date of birth does not affect hotel items', () => {
    expectAuto(decide(newLayover(), ctx({ dob: false })), 'AUTO_BOOK');
  });
});

// ---------------------------------------------------------------- decide: booking state, UNCHANGED, auto_eligible

describe('decide: booking state and no-ops', () => {
  it.each<BookingStatus | null>(['PENDING', 'NEEDS_REVIEW', 'FAILED', 'CANCELLED', null])(
    'MODIFY on a booking that is %s (no live reservation) is review',
    (status) => {
      expectReview(decide(modifyLayover({ booking_status: status }), ctx()), /no confirmed reservation/);
      expectReview(decide(deadheadTimeChange({ booking_status: status }), ctx()), /no confirmed reservation/);
    },
  );

  it.each<BookingStatus>(['CONFIRMED', 'MODIFIED'])('MODIFY on a %s booking is AUTO_MODIFY', (status) => {
    expectAuto(decide(modifyLayover({ booking_status: status }), ctx()), 'AUTO_MODIFY');
  });

  it('UNCHANGED is NONE, not auto-eligible, whatever the settings', () => {
    for (const c of [ctx(), ctx({ settings: ALL_OFF, crew_booker_email: null, hotel: null })]) {
      for (const i of [newLayover({ classification: 'UNCHANGED' }), newDeadhead({ classification: 'UNCHANGED' })]) {
        expect(decide(i, c)).toEqual({
          action: 'NONE',
          auto_eligible: false,
          reason: null,
          recommended_action: null,
          flight_options_url: null,
        });
      }
    }
  });

  it('review reasons on hotel items never carry BOOK_MANUALLY or a flight_options_url', () => {
    const d = decide(newLayover(), ctx({ hotel: null }));
    expect(d.recommended_action).toBeNull();
    expect(d.flight_options_url).toBeNull();
  });

  it('flightOptionsUrl is a path to the flight-options search for the action item', () => {
    expect(flightOptionsUrl('act 1&x')).toBe('/api/v1/crew/flight-options?action_id=act%201%26x');
  });
});

// ---------------------------------------------------------------- rateCheck

describe('rateCheck (spec 1 operator table "Rate-match strictness"; rule 8 strict price mismatch)', () => {
  it('the same price passes in both modes without a flag', () => {
    expect(rateCheck(eur(120), eur(120), 'STRICT')).toEqual({ ok: true, flag: null, reason: null });
    expect(rateCheck(eur(120), eur(120), 'LOOSE')).toEqual({ ok: true, flag: null, reason: null });
  });

  it('a difference under half a cent is the same price', () => {
    expect(rateCheck(eur(120), eur(120.004), 'STRICT')).toEqual({ ok: true, flag: null, reason: null });
  });

  it('STRICT: a different amount fails the booking (held for review), with the mismatch described', () => {
    const r = rateCheck(eur(120), eur(135), 'STRICT');
    expect(r.ok).toBe(false);
    expect(r.flag).toMatch(/135.00 EUR.*120.00 EUR/);
    expect(r.reason).toMatch(/^rate mismatch: /);
  });

  it('LOOSE: a different amount books and flags it', () => {
    const r = rateCheck(eur(120), eur(135), 'LOOSE');
    expect(r.ok).toBe(true);
    expect(r.flag).toMatch(/135.00 EUR.*120.00 EUR/);
  });

  it('another currency without a rate cannot be compared: held for review in both modes, naming the currency', () => {
    const usd: Money = { amount: 120, currency: 'USD' };
    for (const mode of ['STRICT', 'LOOSE'] as const) {
      const r = rateCheck(eur(120), usd, mode);
      expect(r.ok).toBe(false);
      expect(r.reason).toBe(
        'rate check: no exchange rate for EUR is set (needed to compare the supplier price 120.00 USD with the contracted rate 120.00 EUR)',
      );
    }
  });

  it('another currency with a rate is compared in the contract currency at the rate of the date, to the cent', () => {
    const fx = fxTable([{ currency: 'EUR', rate: 1.1, as_of: '2027-01-01' }]);
    // 198 USD = 180 EUR at 1.1 USD per EUR.
    expect(rateCheck(eur(180), { amount: 198, currency: 'USD' }, 'STRICT', fx, '2027-03-10')).toEqual({
      ok: true,
      flag: null,
      reason: null,
    });
    const off = rateCheck(eur(180), { amount: 210, currency: 'USD' }, 'STRICT', fx, '2027-03-10');
    expect(off.ok).toBe(false);
    expect(off.flag).toBe(
      'supplier price 210.00 USD (= 190.91 EUR at the rate of 2027-01-01) differs from the contracted rate 180.00 EUR',
    );
    expect(rateCheck(eur(180), { amount: 210, currency: 'USD' }, 'LOOSE', fx, '2027-03-10')).toMatchObject({
      ok: true,
      flag: off.flag,
    });
    // Before the rate was set there is no rate for that date.
    expect(rateCheck(eur(180), { amount: 198, currency: 'USD' }, 'STRICT', fx, '2026-12-31').reason).toMatch(
      /no exchange rate for EUR is set on or before 2026-12-31/,
    );
  });

  it('a lower supplier price is a mismatch too', () => {
    expect(rateCheck(eur(120), eur(100), 'STRICT').ok).toBe(false);
  });
});

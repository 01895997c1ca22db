import fc from 'fast-check';
import {
  CANCELLING_CLASSIFICATIONS,
  chooseFlightOption,
  deadheadWindow,
  DISPOSITION_OF_TASK,
  injectedStay,
  nextAutomaticRetry,
  roomDates,
  withinCeiling,
} from '../src';

describe('deadheadWindow', () => {
  test("the leg's own times widened by three hours, as instants", () => {
    expect(
      deadheadWindow({ dep_time_local: '2027-03-10T09:00:00+00:00', arr_time_local: '2027-03-10T12:00:00-05:00' }),
    ).toEqual({
      depart_after: '2027-03-10T06:00:00.000Z',
      arrive_by: '2027-03-10T20:00:00.000Z',
    });
  });

  test("the airline's constraints win where it gave them; a missing time leaves that side open", () => {
    const leg = { dep_time_local: '2027-03-10T09:00:00+00:00', arr_time_local: null };
    expect(deadheadWindow(leg, { depart_after: '2027-03-10T08:30:00+00:00' })).toEqual({
      depart_after: '2027-03-10T08:30:00+00:00',
      arrive_by: null,
    });
    expect(deadheadWindow(leg, { arrive_by: '2027-03-10T18:00:00+00:00' })).toEqual({
      depart_after: '2027-03-10T06:00:00.000Z',
      arrive_by: '2027-03-10T18:00:00+00:00',
    });
  });

  test('an option leaving just inside the slack fits, one just outside does not', () => {
    const cfg = {
      same_carrier_preference: false,
      preferred_airlines: [],
      blacklisted_airlines: [],
      preferred_cabin: 'ECONOMY',
    } as never;
    const option = (id: string, dep: string, arr: string) => ({
      flight_option_id: id,
      airline_code: 'XY',
      dep_time: dep,
      arr_time: arr,
      cabin: 'ECONOMY',
      price: { amount: 100, currency: 'USD' },
    });
    const window = deadheadWindow({
      dep_time_local: '2027-03-10T09:00:00+00:00',
      arr_time_local: '2027-03-10T12:00:00+00:00',
    });
    expect(
      chooseFlightOption([option('in', '2027-03-10T06:00:00Z', '2027-03-10T15:00:00Z')], window, cfg, 'XY', null),
    ).toMatchObject({ ok: true });
    expect(
      chooseFlightOption([option('early', '2027-03-10T05:59:00Z', '2027-03-10T09:00:00Z')], window, cfg, 'XY', null),
    ).toMatchObject({ ok: false });
    expect(
      chooseFlightOption([option('late', '2027-03-10T10:00:00Z', '2027-03-10T15:01:00Z')], window, cfg, 'XY', null),
    ).toMatchObject({ ok: false });
  });
});

describe('roomDates', () => {
  test('check-in date to the day after the last night', () => {
    expect(roomDates('2027-03-10T15:00:00-05:00', '2027-03-12T09:00:00-05:00')).toEqual({
      check_in_date: '2027-03-10',
      check_out_date: '2027-03-12',
    });
  });

  test('a day room (out the day it checks in) is sold as one night', () => {
    expect(roomDates('2027-03-10T08:00:00+01:00', '2027-03-10T18:00:00+01:00')).toEqual({
      check_in_date: '2027-03-10',
      check_out_date: '2027-03-11',
    });
  });

  test('dates are the local dates written in the timestamps, whatever their offsets', () => {
    expect(roomDates('2027-03-10T23:30:00+09:00', '2027-03-11T06:00:00-10:00')).toEqual({
      check_in_date: '2027-03-10',
      check_out_date: '2027-03-11',
    });
  });

  test('property: never zero nights; the check-out date is after the check-in date and no earlier than the written one', () => {
    const day = fc.integer({ min: 0, max: 27 }).map((d) => `2027-02-${String(d + 1).padStart(2, '0')}`);
    fc.assert(
      fc.property(day, fc.integer({ min: 0, max: 5 }), (inDate, extra) => {
        const outDate = new Date(Date.parse(inDate) + extra * 86_400_000).toISOString().slice(0, 10);
        const r = roomDates(`${inDate}T14:00:00+00:00`, `${outDate}T10:00:00+00:00`);
        expect(r.check_in_date).toBe(inDate);
        expect(r.check_out_date > r.check_in_date).toBe(true);
        expect(r.check_out_date >= outDate).toBe(true);
      }),
    );
  });
});

describe('withinCeiling', () => {
  test('no ceiling: any fare; otherwise same currency and not above', () => {
    expect(withinCeiling({ amount: 9999, currency: 'USD' }, null)).toBe(true);
    expect(withinCeiling({ amount: 500, currency: 'USD' }, { amount: 500, currency: 'USD' })).toBe(true);
    expect(withinCeiling({ amount: 500.01, currency: 'USD' }, { amount: 500, currency: 'USD' })).toBe(false);
    expect(withinCeiling({ amount: 100, currency: 'EUR' }, { amount: 500, currency: 'USD' })).toBe(false);
  });
});

describe('DISPOSITION_OF_TASK', () => {
  test('spec 2.3: booked and amended → AUTO_BOOKED, cancelled → AUTO_CANCELLED, review → PENDING_REVIEW, failed → FAILED', () => {
    expect(DISPOSITION_OF_TASK).toEqual({
      CONFIRMED: 'AUTO_BOOKED',
      MODIFIED: 'AUTO_BOOKED',
      CANCELLED: 'AUTO_CANCELLED',
      NEEDS_REVIEW: 'PENDING_REVIEW',
      FAILED: 'FAILED',
    });
  });
});

describe('nextAutomaticRetry', () => {
  const at = Date.parse('2027-03-10T00:00:00Z');

  test('each retry waits its own delay; the last delay repeats', () => {
    const delays = [60, 300, 900];
    expect(nextAutomaticRetry(0, 5, delays, at)).toEqual({ delayMs: 60_000, at: new Date(at + 60_000) });
    expect(nextAutomaticRetry(1, 5, delays, at)?.delayMs).toBe(300_000);
    expect(nextAutomaticRetry(2, 5, delays, at)?.delayMs).toBe(900_000);
    expect(nextAutomaticRetry(4, 5, delays, at)?.delayMs).toBe(900_000);
  });

  test('none once max_retries retries were made, or when max_retries is 0', () => {
    expect(nextAutomaticRetry(3, 3, [60], at)).toBeNull();
    expect(nextAutomaticRetry(0, 0, [60], at)).toBeNull();
  });
});

describe('injected requests', () => {
  test('cancelling classifications', () => {
    expect([...CANCELLING_CLASSIFICATIONS].sort()).toEqual([
      'DEADHEAD_CANCELLED',
      'IROP_HOTEL_CANCEL',
      'LAYOVER_CANCELLED',
      'PAIRING_CANCELLED',
    ]);
    expect(CANCELLING_CLASSIFICATIONS.has('NEW_LAYOVER')).toBe(false);
  });

  test("an injected stay takes the hotel's guaranteed times, else its standard times, else 15:00 / 11:00", () => {
    const request = { check_in_date: '2027-03-10', check_out_date: '2027-03-12' };
    expect(injectedStay(request, undefined)).toEqual({
      checkin: '2027-03-10T15:00:00+00:00',
      checkout: '2027-03-12T11:00:00+00:00',
    });
    expect(
      injectedStay(request, { policy: 'STANDARD', standard_check_in_time: '14:00', standard_check_out_time: '12:00' }),
    ).toEqual({
      checkin: '2027-03-10T14:00:00+00:00',
      checkout: '2027-03-12T12:00:00+00:00',
    });
    expect(
      injectedStay(request, {
        policy: 'GUARANTEED',
        standard_check_in_time: '14:00',
        standard_check_out_time: '12:00',
        guaranteed_early_check_in_time: '06:00',
        guaranteed_late_check_out_time: '18:00',
      }),
    ).toEqual({ checkin: '2027-03-10T06:00:00+00:00', checkout: '2027-03-12T18:00:00+00:00' });
  });

  test('num_nights stands in for a missing check-out date (one night by default)', () => {
    expect(injectedStay({ check_in_date: '2027-03-31', num_nights: 2 }, undefined).checkout).toBe(
      '2027-04-02T11:00:00+00:00',
    );
    expect(injectedStay({ check_in_date: '2027-03-31' }, undefined).checkout).toBe('2027-04-01T11:00:00+00:00');
  });
});

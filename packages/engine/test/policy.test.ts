/**
 * The auto-booking policy (spec 1 rules 8-11, 14 and the operator-settings table; 2.3 auto_eligible;
 * 4.3 flight config and flight-rules; DESIGN sections 3-4). Pure unit tests: one `it` per rule.
 */
import fc from 'fast-check';
import { flightOptionsUrl, type FlightConfigSnapshot, type Money, type RatePeriod } from '@crew/contracts';
import type { HotelTerms } from '../src/hotel-config';
import { chooseFlightOption, type FlightOptionFacts, type LegWindow } from '../src/flight-options';
import {
  contractedRate,
  decide,
  noHotelConfiguration,
  rateCheck,
  stayDeviation,
  stayNights,
  type ContractTerms,
  type Decision,
  type PolicyContext,
  type PolicyItem,
  type StationHotel,
} from '../src/policy';
import { fxTable } from '../src/fx';
import type { BookingStatus } from '../src/types';

// ---------------------------------------------------------------- fixtures

const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
const period = (from: string, to: string, amount: number): RatePeriod => ({
  effective_from: from,
  effective_to: to,
  rate: eur(amount),
});

const STD: HotelTerms = {
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};
const GUAR: HotelTerms = {
  policy: 'GUARANTEED',
  guaranteed_early_check_in_time: '06:00',
  guaranteed_late_check_out_time: '18:00',
};
const FLEX: HotelTerms = { policy: 'FLEXIBLE', flex_window_minutes: 120 };

function contract(over: Partial<ContractTerms> = {}): ContractTerms {
  return {
    contract_id: 10,
    contract_from: '2026-12-01',
    contract_to: '2026-12-31',
    automated_booking_enabled: true,
    rate_periods: [period('2026-12-01', '2026-12-31', 120)],
    ...over,
  };
}

function stationHotel(over: Partial<StationHotel> = {}): StationHotel {
  return {
    hotel_config_id: 7,
    station: 'FRA',
    property_id: 'GDS-FRA-1',
    handler_type: 'GDS',
    name: 'Airport Hotel FRA',
    terms: STD,
    contracts: [contract()],
    ...over,
  };
}

const ALL_ON = {
  deadhead_auto_booking: true,
  booking_modification: true,
  swap_execution: true,
  cancellation_execution: true,
};
const ALL_OFF = {
  deadhead_auto_booking: false,
  booking_modification: false,
  swap_execution: false,
  cancellation_execution: false,
};

type CtxOver = Omit<Partial<PolicyContext>, 'settings'> & {
  settings?: Partial<PolicyContext['settings']>;
  hotel?: StationHotel | null;
  dob?: boolean;
};

/** Every lever on, a booker, a contracted hotel at FRA and a traveller with a date of birth, unless told otherwise. */
function ctx(over: CtxOver = {}): PolicyContext {
  const { settings, hotel, dob, ...rest } = over;
  const h = hotel === undefined ? stationHotel() : hotel;
  return {
    settings: { ...ALL_ON, ...settings },
    crew_booker_email: 'booker@airline.example.com',
    cancellation_lookback_days: 0,
    hotels: new Map(h ? [[h.station, h]] : []),
    travellerHasDob: () => dob ?? true,
    processedAt: '2026-12-05T10:00:00Z',
    flightOptionsUrl,
    ...rest,
  };
}

const at = (date: string, hhmm: string, offset = '+01:00') => `${date}T${hhmm}:00${offset}`;

function item(over: Partial<PolicyItem> = {}): PolicyItem {
  return {
    action_id: 'act-1',
    type: 'HOTEL',
    subtype: 'NEW_BOOKING',
    classification: 'NEW_LAYOVER',
    booking_status: null,
    traveller_email: 'e1@crew.example.com',
    station: 'FRA',
    checkin_time_local: at('2026-12-10', '16:00'),
    checkout_time_local: at('2026-12-11', '09:00'),
    ...over,
  };
}
const newLayover = (over: Partial<PolicyItem> = {}) => item(over);
const modifyLayover = (over: Partial<PolicyItem> = {}) =>
  item({ subtype: 'MODIFY', classification: 'LAYOVER_DATE_CHANGE', booking_status: 'CONFIRMED', ...over });
const cancelLayover = (over: Partial<PolicyItem> = {}) =>
  item({ subtype: 'CANCEL', classification: 'LAYOVER_CANCELLED', booking_status: 'CONFIRMED', ...over });
const flightItem = (over: Partial<PolicyItem>): PolicyItem => ({
  action_id: 'act-dh',
  type: 'FLIGHT',
  subtype: 'NEW_BOOKING',
  classification: 'NEW_DEADHEAD',
  booking_status: null,
  traveller_email: 'e1@crew.example.com',
  ...over,
});
const newDeadhead = (over: Partial<PolicyItem> = {}) => flightItem(over);
const deadheadTimeChange = (over: Partial<PolicyItem> = {}) =>
  flightItem({ subtype: 'MODIFY', classification: 'DEADHEAD_TIME_CHANGE', booking_status: 'CONFIRMED', ...over });
const deadheadCancelled = (over: Partial<PolicyItem> = {}) =>
  flightItem({ subtype: 'CANCEL', classification: 'DEADHEAD_CANCELLED', booking_status: 'CONFIRMED', ...over });

/** A REVIEW decision: not auto-eligible, with a reason a person can act on. */
function expectReview(d: Decision, reason?: string | RegExp) {
  expect(d.action).toBe('REVIEW');
  expect(d.auto_eligible).toBe(false);
  expect(d.reason).toEqual(expect.any(String));
  if (typeof reason === 'string') expect(d.reason).toBe(reason);
  else if (reason) expect(d.reason).toMatch(reason);
}
function expectAuto(d: Decision, action: 'AUTO_BOOK' | 'AUTO_MODIFY' | 'AUTO_CANCEL') {
  expect(d).toMatchObject({ action, auto_eligible: true, reason: null });
}
/** The manual-choice shape of a deadhead held for a person (spec 1, operator table, "Deadhead auto-booking"). */
function expectBookManually(d: Decision, actionId: string, reason?: RegExp) {
  expectReview(d, reason);
  expect(d.recommended_action).toBe('BOOK_MANUALLY');
  expect(d.flight_options_url).toBe(flightOptionsUrl(actionId));
}

const NO_CONFIG_FRA = 'no hotel configuration exists for station FRA';

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

// ---------------------------------------------------------------- decide: hotel policies

describe('decide: hotel check-in/check-out policy (rule 8 deviations)', () => {
  const withTerms = (terms: HotelTerms) => ctx({ hotel: stationHotel({ terms }) });
  const stay = (checkin: string, checkout: string) =>
    newLayover({ checkin_time_local: checkin, checkout_time_local: checkout });

  it('STANDARD: a check-in before the standard time beyond the buffer is review (early check-in)', () => {
    // 15:00 - 30 min buffer = 14:30; 14:29 is early.
    expectReview(
      decide(stay(at('2026-12-10', '14:29'), at('2026-12-11', '09:00')), withTerms(STD)),
      /early check-in at 14:29.*STANDARD/,
    );
  });

  it('STANDARD: a check-in early by no more than the buffer is auto-booked', () => {
    expectAuto(decide(stay(at('2026-12-10', '14:30'), at('2026-12-11', '09:00')), withTerms(STD)), 'AUTO_BOOK');
  });

  it('STANDARD without buffer_minutes: any minute early is review', () => {
    const { buffer_minutes: _drop, ...noBuffer } = STD;
    expectReview(
      decide(stay(at('2026-12-10', '14:59'), at('2026-12-11', '09:00')), withTerms(noBuffer)),
      /early check-in/,
    );
    expectAuto(decide(stay(at('2026-12-10', '15:00'), at('2026-12-11', '09:00')), withTerms(noBuffer)), 'AUTO_BOOK');
  });

  it('STANDARD: a check-out after the standard time beyond the buffer is review (late check-out); within the buffer is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '11:31')), withTerms(STD)),
      /late check-out at 11:31/,
    );
    expectAuto(decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '11:30')), withTerms(STD)), 'AUTO_BOOK');
  });

  it('GUARANTEED: a check-in before the guaranteed early check-in time is review; at it is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '05:59'), at('2026-12-11', '09:00')), withTerms(GUAR)),
      /early check-in at 05:59.*GUARANTEED/,
    );
    expectAuto(decide(stay(at('2026-12-10', '06:00'), at('2026-12-11', '09:00')), withTerms(GUAR)), 'AUTO_BOOK');
  });

  it('GUARANTEED: a check-out after the guaranteed late check-out time is review; at it is auto', () => {
    expectReview(
      decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '18:01')), withTerms(GUAR)),
      /late check-out at 18:01.*GUARANTEED/,
    );
    expectAuto(decide(stay(at('2026-12-10', '16:00'), at('2026-12-11', '18:00')), withTerms(GUAR)), 'AUTO_BOOK');
  });

  it('GUARANTEED uses the guaranteed times, not standard ones also present on the hotel', () => {
    const terms: HotelTerms = { ...GUAR, standard_check_in_time: '15:00', standard_check_out_time: '11:00' };
    expectAuto(decide(stay(at('2026-12-10', '07:00'), at('2026-12-11', '17:00')), withTerms(terms)), 'AUTO_BOOK');
  });

  it('GUARANTEED: buffer_minutes widens both times', () => {
    const terms: HotelTerms = { ...GUAR, buffer_minutes: 15 };
    expectAuto(decide(stay(at('2026-12-10', '05:45'), at('2026-12-11', '18:15')), withTerms(terms)), 'AUTO_BOOK');
    expectReview(decide(stay(at('2026-12-10', '05:44'), at('2026-12-11', '09:00')), withTerms(terms)), /early/);
  });

  it('FLEXIBLE: any arrival time is accepted', () => {
    expectAuto(decide(stay(at('2026-12-10', '00:30'), at('2026-12-11', '00:30')), withTerms(FLEX)), 'AUTO_BOOK');
  });

  it('FLEXIBLE: a stay up to its nights plus flex_window_minutes is auto; one minute more is review (overrun)', () => {
    // One night: 24 h + 120 min allowed. 08:00 -> 10:00 next day is exactly 26 h.
    expectAuto(decide(stay(at('2026-12-10', '08:00'), at('2026-12-11', '10:00')), withTerms(FLEX)), 'AUTO_BOOK');
    expectReview(
      decide(stay(at('2026-12-10', '08:00'), at('2026-12-11', '10:01')), withTerms(FLEX)),
      "the stay overruns the hotel's flexible window by 1 minutes",
    );
  });

  it('FLEXIBLE: the window scales with the number of nights and adds the buffer', () => {
    const terms: HotelTerms = { ...FLEX, buffer_minutes: 10 };
    expectAuto(decide(stay(at('2026-12-10', '08:00'), at('2026-12-12', '10:10')), withTerms(terms)), 'AUTO_BOOK');
    expectReview(decide(stay(at('2026-12-10', '08:00'), at('2026-12-12', '10:11')), withTerms(terms)), /overruns/);
  });

  it('a deviation is also checked on an amendment', () => {
    expectReview(decide(modifyLayover({ checkin_time_local: at('2026-12-10', '10:00') }), ctx()), /early check-in/);
  });
});

describe('stayDeviation', () => {
  it('compares the local wall-clock time as written, whatever the offset', () => {
    expect(stayDeviation(STD, '2026-12-10T14:30:00-05:00', '2026-12-11T11:30:00-05:00')).toBeNull();
    expect(stayDeviation(STD, '2026-12-10T14:29:00+09:00', '2026-12-11T09:00:00+09:00')).toMatch(/early/);
  });

  it('FLEXIBLE measures the real elapsed time between the two instants', () => {
    // Same wall-clock span, but the check-out offset is an hour earlier: the stay is one hour longer.
    expect(stayDeviation(FLEX, '2026-12-10T08:00:00+01:00', '2026-12-11T10:00:00+01:00')).toBeNull();
    expect(stayDeviation(FLEX, '2026-12-10T08:00:00+01:00', '2026-12-11T10:00:00+00:00')).toMatch(/by 60 minutes/);
  });
});

// ---------------------------------------------------------------- decide: contract coverage

describe('decide: hotel contract coverage (DESIGN 4; spec 1 operator table "Hotel contract and contracted rates")', () => {
  const twoNights = newLayover({
    checkin_time_local: at('2026-12-10', '16:00'),
    checkout_time_local: at('2026-12-12', '09:00'),
  });

  it('no hotel configured at the station: review with `no hotel configuration exists for station XXX`', () => {
    const d = decide(newLayover(), ctx({ hotel: null }));
    expectReview(d, NO_CONFIG_FRA);
    expect(noHotelConfiguration('MAD')).toBe('no hotel configuration exists for station MAD');
  });

  it('a hotel at another station does not serve this one', () => {
    expectReview(decide(newLayover({ station: 'MUC' }), ctx()), 'no hotel configuration exists for station MUC');
  });

  it('a hotel with no contract: review with the no-configuration message', () => {
    expectReview(decide(newLayover(), ctx({ hotel: stationHotel({ contracts: [] }) })), NO_CONFIG_FRA);
  });

  it('contract with automated booking disabled: review with the no-configuration message', () => {
    expectReview(
      decide(
        newLayover(),
        ctx({ hotel: stationHotel({ contracts: [contract({ automated_booking_enabled: false })] }) }),
      ),
      NO_CONFIG_FRA,
    );
  });

  it('contract not covering a night of the stay: review', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_to: '2026-12-10', rate_periods: [period('2026-12-01', '2026-12-10', 120)] })],
    });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('contract starting after the first night: review', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_from: '2026-12-11', rate_periods: [period('2026-12-11', '2026-12-31', 120)] })],
    });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('the check-out day is not a night: a contract ending on the last night covers the stay', () => {
    const hotel = stationHotel({
      contracts: [contract({ contract_to: '2026-12-11', rate_periods: [period('2026-12-01', '2026-12-11', 120)] })],
    });
    expectAuto(decide(twoNights, ctx({ hotel })), 'AUTO_BOOK');
  });

  it('no rate period for a night of the stay: review', () => {
    const hotel = stationHotel({ contracts: [contract({ rate_periods: [period('2026-12-01', '2026-12-10', 120)] })] });
    expectReview(decide(twoNights, ctx({ hotel })), NO_CONFIG_FRA);
  });

  it('a contract without any rate period: review', () => {
    expectReview(
      decide(newLayover(), ctx({ hotel: stationHotel({ contracts: [contract({ rate_periods: [] })] }) })),
      NO_CONFIG_FRA,
    );
  });

  it('rate periods together covering every night: booked at the rate of the first night', () => {
    const hotel = stationHotel({
      contracts: [
        contract({ rate_periods: [period('2026-12-01', '2026-12-10', 110), period('2026-12-11', '2026-12-31', 150)] }),
      ],
    });
    const d = decide(twoNights, ctx({ hotel }));
    expectAuto(d, 'AUTO_BOOK');
    expect(d.hotel?.rate).toEqual(eur(110));
  });

  it('a disabled contract is skipped in favour of an enabled one that covers the stay', () => {
    const hotel = stationHotel({
      contracts: [
        contract({ contract_id: 1, automated_booking_enabled: false }),
        contract({ contract_id: 2, rate_periods: [period('2026-12-01', '2026-12-31', 99)] }),
      ],
    });
    const d = decide(newLayover(), ctx({ hotel }));
    expectAuto(d, 'AUTO_BOOK');
    expect(d.hotel).toMatchObject({ contract_id: 2, rate: eur(99) });
  });

  it('the AUTO_BOOK decision names the hotel, its channel and the contract', () => {
    const hotel = stationHotel({ handler_type: 'DIRECT', property_id: 'AIRLINE-1', name: null });
    expect(decide(newLayover(), ctx({ hotel })).hotel).toEqual({
      hotel_config_id: 7,
      property_id: 'AIRLINE-1',
      handler_type: 'DIRECT',
      name: null,
      contract_id: 10,
      rate: eur(120),
    });
  });

  it('pinned property that is not the station hotel: review with the no-configuration message', () => {
    expectReview(decide(newLayover({ property_id: 'OTHER-PROP' }), ctx()), NO_CONFIG_FRA);
    expectReview(decide(modifyLayover({ property_id: 'OTHER-PROP' }), ctx()), NO_CONFIG_FRA);
  });

  it('pinned property that is the station hotel: auto-booked', () => {
    expectAuto(decide(newLayover({ property_id: 'GDS-FRA-1' }), ctx()), 'AUTO_BOOK');
  });

  it('contract coverage is checked on an amendment too', () => {
    expectReview(
      decide(
        modifyLayover(),
        ctx({ hotel: stationHotel({ contracts: [contract({ automated_booking_enabled: false })] }) }),
      ),
      NO_CONFIG_FRA,
    );
  });
});

describe('contractedRate and stayNights', () => {
  it('stayNights: check-in date up to the day before check-out', () => {
    expect(stayNights(at('2026-12-10', '16:00'), at('2026-12-11', '09:00'))).toEqual(['2026-12-10']);
    expect(stayNights(at('2026-12-30', '16:00'), at('2027-01-02', '09:00'))).toEqual([
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
    ]);
  });

  it('stayNights: a same-day stay counts as one night', () => {
    expect(stayNights(at('2026-12-10', '08:00'), at('2026-12-10', '20:00'))).toEqual(['2026-12-10']);
  });

  it('contractedRate: the first night rate of the first enabled contract covering every night, or null', () => {
    const h = stationHotel({
      contracts: [
        contract({ rate_periods: [period('2026-12-01', '2026-12-10', 110), period('2026-12-11', '2026-12-31', 150)] }),
      ],
    });
    expect(contractedRate(h, at('2026-12-11', '16:00'), at('2026-12-13', '09:00'))).toEqual({
      contract: h.contracts[0],
      rate: eur(150),
    });
    expect(contractedRate(h, at('2026-12-31', '16:00'), at('2027-01-02', '09:00'))).toBeNull();
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

// ---------------------------------------------------------------- decide: properties

const CLASSES = [
  'NEW_LAYOVER',
  'LAYOVER_DATE_CHANGE',
  'LAYOVER_CANCELLED',
  'NEW_DEADHEAD',
  'DEADHEAD_TIME_CHANGE',
  'SWAP_IN',
  'SWAP_OUT',
  'UNCHANGED',
  'IROP_HOTEL_EXTEND',
];
const STATUSES: (BookingStatus | null)[] = [
  'PENDING',
  'CONFIRMED',
  'MODIFIED',
  'CANCELLED',
  'FAILED',
  'NEEDS_REVIEW',
  null,
];

const arbSettings = fc.record({
  deadhead_auto_booking: fc.boolean(),
  booking_modification: fc.boolean(),
  swap_execution: fc.boolean(),
  cancellation_execution: fc.boolean(),
});
const arbTerms: fc.Arbitrary<HotelTerms> = fc.oneof(fc.constant(STD), fc.constant(GUAR), fc.constant(FLEX));
const arbCtx = fc.record({
  settings: arbSettings,
  booker: fc.boolean(),
  dob: fc.boolean(),
  hotel: fc.option(
    fc.record({
      enabled: fc.boolean(),
      terms: arbTerms,
      contractTo: fc.constantFrom('2026-12-10', '2026-12-11', '2026-12-31'),
    }),
    { nil: null },
  ),
  lookback: fc.nat({ max: 10 }),
});
const arbItem = fc.record({
  type: fc.constantFrom<'HOTEL' | 'FLIGHT'>('HOTEL', 'FLIGHT'),
  subtype: fc.constantFrom<PolicyItem['subtype']>('NEW_BOOKING', 'MODIFY', 'CANCEL'),
  classification: fc.constantFrom(...CLASSES),
  status: fc.constantFrom(...STATUSES),
  day: fc.integer({ min: 1, max: 20 }),
  nights: fc.integer({ min: 0, max: 3 }),
  inHour: fc.integer({ min: 0, max: 23 }),
  outHour: fc.integer({ min: 0, max: 23 }),
  pinned: fc.constantFrom<string | null>(null, 'GDS-FRA-1', 'OTHER'),
});
const pad = (n: number) => String(n).padStart(2, '0');

type Spec<A> = A extends fc.Arbitrary<infer T> ? T : never;

function build(i: Spec<typeof arbItem>, c: Spec<typeof arbCtx>): [PolicyItem, PolicyContext] {
  const inDate = `2026-12-${pad(i.day)}`;
  const outDate = `2026-12-${pad(i.day + i.nights)}`;
  const policyItem: PolicyItem = {
    action_id: 'a',
    type: i.type,
    subtype: i.subtype,
    classification: i.classification,
    booking_status: i.status,
    traveller_email: 'e@x.example.com',
    ...(i.type === 'HOTEL'
      ? {
          station: 'FRA',
          checkin_time_local: at(inDate, `${pad(i.inHour)}:00`),
          checkout_time_local: at(outDate, `${pad(i.outHour)}:00`),
          property_id: i.pinned,
        }
      : {}),
  };
  const hotel = c.hotel
    ? stationHotel({
        terms: c.hotel.terms,
        contracts: [
          contract({
            automated_booking_enabled: c.hotel.enabled,
            contract_to: c.hotel.contractTo,
            rate_periods: [period('2026-12-01', c.hotel.contractTo, 100)],
          }),
        ],
      })
    : null;
  return [
    policyItem,
    ctx({
      settings: c.settings,
      crew_booker_email: c.booker ? 'b@x.example.com' : null,
      dob: c.dob,
      hotel,
      cancellation_lookback_days: c.lookback,
    }),
  ];
}

describe('decide: properties', () => {
  it('auto_eligible is true exactly for AUTO_* decisions; REVIEW always has a reason, AUTO_* and NONE never do', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        const d = decide(...build(i, c));
        expect(d.auto_eligible).toBe(d.action.startsWith('AUTO_'));
        if (d.action === 'REVIEW') expect(d.reason).toEqual(expect.any(String));
        else expect(d.reason).toBeNull();
        expect(d.hotel !== undefined).toBe(
          i.type === 'HOTEL' && (d.action === 'AUTO_BOOK' || d.action === 'AUTO_MODIFY'),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('a hotel booking or amendment is never AUTO_* while crew_booker_email is unset', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        fc.pre(i.type === 'HOTEL' && i.subtype !== 'CANCEL');
        const d = decide(...build(i, { ...c, booker: false }));
        expect(d.action.startsWith('AUTO_')).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('no AUTO_* for a swap with swap_execution off, for an amendment with booking_modification off, or for a cancel with cancellation_execution off', () => {
    fc.assert(
      fc.property(arbItem, arbCtx, (i, c) => {
        const d = decide(...build(i, c));
        if (!d.action.startsWith('AUTO_')) return;
        if (i.classification === 'SWAP_IN' || i.classification === 'SWAP_OUT')
          expect(c.settings.swap_execution).toBe(true);
        if (i.subtype === 'MODIFY') expect(c.settings.booking_modification).toBe(true);
        if (i.subtype === 'CANCEL') expect(c.settings.cancellation_execution).toBe(true);
        if (i.type === 'FLIGHT' && i.subtype === 'NEW_BOOKING')
          expect(c.settings.deadhead_auto_booking && c.booker && c.dob).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

// ---------------------------------------------------------------- chooseFlightOption

type Opt = FlightOptionFacts;
let seq = 0;
function opt(airline: string, amount: number, over: Partial<Opt> = {}): Opt {
  seq++;
  return {
    flight_option_id: `${airline}-${amount}-${seq}`,
    airline_code: airline,
    dep_time: '2026-12-10T08:00:00Z',
    arr_time: '2026-12-10T10:00:00Z',
    cabin: 'ECONOMY',
    price: eur(amount),
    ...over,
  };
}
function cfg(over: Partial<FlightConfigSnapshot> = {}): FlightConfigSnapshot {
  return {
    preferred_airlines: [],
    blacklisted_airlines: [],
    preferred_cabin: 'ECONOMY',
    same_carrier_preference: false,
    ...over,
  };
}
const OPEN: LegWindow = { depart_after: null, arrive_by: null };
const OWN = 'XY';

function chosen(r: ReturnType<typeof chooseFlightOption<Opt>>): Opt {
  if (!r.ok) throw new Error(`expected a choice, got: ${r.reason}`);
  return r.option;
}

describe('chooseFlightOption: carrier rules (spec 4.3 flight config)', () => {
  it('a blacklisted carrier is never booked, even when cheapest', () => {
    const o = [opt('BA', 50), opt('LH', 80)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, null)).airline_code).toBe(
      'LH',
    );
  });

  it('a blacklisted carrier is never booked, even when also preferred or the own carrier', () => {
    const o = [opt('BA', 50), opt(OWN, 40), opt('LH', 300)];
    const c = cfg({ blacklisted_airlines: ['BA', OWN], preferred_airlines: ['BA'], same_carrier_preference: true });
    expect(chosen(chooseFlightOption(o, OPEN, c, OWN, null)).airline_code).toBe('LH');
  });

  it('only blacklisted carriers: no choice (review)', () => {
    const r = chooseFlightOption([opt('BA', 50)], OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, null);
    expect(r).toEqual({ ok: false, reason: expect.stringMatching(/no flight option fits/) });
  });

  it('no options at all: no choice', () => {
    expect(chooseFlightOption([], OPEN, cfg(), OWN, null).ok).toBe(false);
  });

  it('same_carrier_preference on: the own carrier is tried before preferred carriers and cheaper ones', () => {
    const o = [opt('LH', 60), opt('AF', 50), opt(OWN, 200)];
    expect(
      chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: true }), OWN, null))
        .airline_code,
    ).toBe(OWN);
  });

  it('same_carrier_preference off: the own carrier gets no precedence', () => {
    const o = [opt('LH', 60), opt('AF', 50), opt(OWN, 200)];
    expect(
      chosen(
        chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: false }), OWN, null),
      ).airline_code,
    ).toBe('LH');
    expect(chosen(chooseFlightOption(o, OPEN, cfg(), OWN, null)).airline_code).toBe('AF');
  });

  it('preferred carriers are tried first, in their configured order', () => {
    const o = [opt('AF', 90), opt('LH', 120), opt('KL', 40)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH', 'AF'] }), OWN, null)).airline_code).toBe(
      'LH',
    );
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['AF', 'LH'] }), OWN, null)).airline_code).toBe(
      'AF',
    );
  });

  it('no preferred carrier offered: any non-blacklisted option, cheapest first', () => {
    const o = [opt('KL', 70), opt('IB', 40), opt('UA', 55)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'] }), OWN, null)).flight_option_id).toBe(
      o[1]!.flight_option_id,
    );
  });

  it('within one carrier group the cheapest option wins', () => {
    const o = [opt('LH', 150), opt('LH', 110), opt('LH', 130)];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'] }), OWN, null)).price).toEqual(eur(110));
  });

  it('cabin: never above the preferred cabin', () => {
    const o = [opt('LH', 50, { cabin: 'BUSINESS' }), opt('LH', 90, { cabin: 'ECONOMY' })];
    expect(chosen(chooseFlightOption(o, OPEN, cfg(), OWN, null)).cabin).toBe('ECONOMY');
  });

  it('cabin: the preferred cabin and any lower one are allowed', () => {
    const o = [
      opt('LH', 300, { cabin: 'FIRST' }),
      opt('LH', 200, { cabin: 'PREMIUM_ECONOMY' }),
      opt('LH', 100, { cabin: 'ECONOMY' }),
      opt('LH', 150, { cabin: 'BUSINESS' }),
    ];
    const r = chooseFlightOption(o, OPEN, cfg({ preferred_cabin: 'PREMIUM_ECONOMY' }), OWN, null);
    expect(chosen(r).cabin).toBe('ECONOMY');
    const onlyHigh = o.filter((x) => x.cabin !== 'ECONOMY');
    expect(
      chosen(chooseFlightOption(onlyHigh, OPEN, cfg({ preferred_cabin: 'PREMIUM_ECONOMY' }), OWN, null)).cabin,
    ).toBe('PREMIUM_ECONOMY');
  });

  it('cabin: only options above the preferred cabin means no choice', () => {
    expect(chooseFlightOption([opt('LH', 100, { cabin: 'BUSINESS' })], OPEN, cfg(), OWN, null).ok).toBe(false);
  });

  it('cabin override (per-request cabin_class) raises the cap above the preferred cabin', () => {
    const o = [opt('LH', 400, { cabin: 'BUSINESS' })];
    expect(chosen(chooseFlightOption(o, OPEN, cfg({ preferred_cabin: 'ECONOMY' }), OWN, null, 'BUSINESS')).cabin).toBe(
      'BUSINESS',
    );
  });

  it('cabin override lowers the cap below the preferred cabin', () => {
    const o = [opt('LH', 100, { cabin: 'BUSINESS' }), opt('AF', 300, { cabin: 'ECONOMY' })];
    expect(
      chosen(
        chooseFlightOption(
          o,
          OPEN,
          cfg({ preferred_cabin: 'BUSINESS', preferred_airlines: ['LH'] }),
          OWN,
          null,
          'ECONOMY',
        ),
      ).airline_code,
    ).toBe('AF');
  });
});

describe('chooseFlightOption: price ceiling (spec 4.3 flight-rules auto_book_max_price)', () => {
  it('a preferred option above the ceiling is passed over for the next one under it', () => {
    const o = [opt('LH', 260), opt('AF', 180), opt('KL', 150)];
    expect(
      chosen(chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH', 'AF'] }), OWN, eur(200))).airline_code,
    ).toBe('AF');
  });

  it('an own-carrier option above the ceiling falls through to the preferred list', () => {
    const o = [opt(OWN, 500), opt('LH', 190)];
    expect(
      chosen(
        chooseFlightOption(o, OPEN, cfg({ preferred_airlines: ['LH'], same_carrier_preference: true }), OWN, eur(200)),
      ).airline_code,
    ).toBe('LH');
  });

  it('a fare exactly at the ceiling is within it', () => {
    expect(chosen(chooseFlightOption([opt('LH', 200)], OPEN, cfg(), OWN, eur(200))).price).toEqual(eur(200));
  });

  it('every fitting option above the ceiling: no choice, with a reason naming auto_book_max_price and the lowest fare', () => {
    const o = [opt('LH', 260), opt('AF', 210.5), opt('BA', 100)];
    const r = chooseFlightOption(o, OPEN, cfg({ blacklisted_airlines: ['BA'] }), OWN, eur(200));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.reason).toMatch(/auto_book_max_price/);
      expect(r.reason).toBe('the lowest fitting fare 210.50 EUR is above the ceiling 200.00 EUR (auto_book_max_price)');
    }
  });

  it('no ceiling configured: any fare may be booked', () => {
    expect(chosen(chooseFlightOption([opt('LH', 99999)], OPEN, cfg(), OWN, null)).price.amount).toBe(99999);
  });

  it('a fare in another currency than the ceiling is not treated as within it', () => {
    const o = [opt('LH', 10, { price: { amount: 10, currency: 'USD' } })];
    expect(chooseFlightOption(o, OPEN, cfg(), OWN, eur(200)).ok).toBe(false);
  });
});

describe('chooseFlightOption: leg window', () => {
  const o = [
    opt('LH', 50, { dep_time: '2026-12-10T05:00:00Z', arr_time: '2026-12-10T07:00:00Z' }),
    opt('LH', 90, { dep_time: '2026-12-10T09:00:00Z', arr_time: '2026-12-10T11:00:00Z' }),
    opt('LH', 70, { dep_time: '2026-12-10T13:00:00Z', arr_time: '2026-12-10T15:00:00Z' }),
  ];

  it('options departing before depart_after are skipped', () => {
    expect(
      chosen(chooseFlightOption(o, { depart_after: '2026-12-10T08:00:00Z', arrive_by: null }, cfg(), OWN, null)).price,
    ).toEqual(eur(70));
  });

  it('options arriving after arrive_by are skipped', () => {
    expect(
      chosen(
        chooseFlightOption(
          o,
          { depart_after: '2026-12-10T08:00:00Z', arrive_by: '2026-12-10T12:00:00Z' },
          cfg(),
          OWN,
          null,
        ),
      ).price,
    ).toEqual(eur(90));
  });

  it('window edges are inclusive and compared as instants across offsets', () => {
    // 10:00+01:00 == 09:00Z departure; 12:00+01:00 == 11:00Z arrival.
    const leg = { depart_after: '2026-12-10T10:00:00+01:00', arrive_by: '2026-12-10T12:00:00+01:00' };
    expect(chosen(chooseFlightOption(o, leg, cfg(), OWN, null)).price).toEqual(eur(90));
  });

  it('nothing in the window: no choice', () => {
    expect(chooseFlightOption(o, { depart_after: '2026-12-10T16:00:00Z', arrive_by: null }, cfg(), OWN, null).ok).toBe(
      false,
    );
  });
});

const CABINS = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'] as const;
const RANK: Record<string, number> = { ECONOMY: 0, PREMIUM_ECONOMY: 1, BUSINESS: 2, FIRST: 3 };
const CARRIERS = ['XY', 'LH', 'AF', 'BA', 'KL', 'IB'];

describe('chooseFlightOption: properties', () => {
  const arbOpt = fc.record({
    airline: fc.constantFrom(...CARRIERS),
    amount: fc.integer({ min: 1, max: 500 }),
    currency: fc.constantFrom('EUR', 'EUR', 'EUR', 'USD'),
    cabin: fc.constantFrom(...CABINS),
    depHour: fc.integer({ min: 0, max: 20 }),
    dur: fc.integer({ min: 1, max: 3 }),
  });
  const arbCfg = fc.record({
    preferred_airlines: fc.uniqueArray(fc.constantFrom(...CARRIERS), { maxLength: 3 }),
    blacklisted_airlines: fc.uniqueArray(fc.constantFrom(...CARRIERS), { maxLength: 3 }),
    preferred_cabin: fc.constantFrom(...CABINS),
    same_carrier_preference: fc.boolean(),
  });
  const arbCase = fc.record({
    opts: fc.array(arbOpt, { maxLength: 12 }),
    cfg: arbCfg,
    max: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
    override: fc.option(fc.constantFrom(...CABINS), { nil: undefined }),
    after: fc.option(fc.integer({ min: 0, max: 23 }), { nil: null }),
    by: fc.option(fc.integer({ min: 0, max: 23 }), { nil: null }),
  });
  const hh = (h: number) => `2026-12-10T${pad(h)}:00:00Z`;
  const toOpts = (c: Spec<typeof arbCase>): Opt[] =>
    c.opts.map((o, k) => ({
      flight_option_id: `o${k}`,
      airline_code: o.airline,
      dep_time: hh(o.depHour),
      arr_time: hh(o.depHour + o.dur),
      cabin: o.cabin,
      price: { amount: o.amount, currency: o.currency },
    }));

  it('never a blacklisted carrier, never above the cabin cap, never above the ceiling, always inside the leg window', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const options = toOpts(c);
        const leg = { depart_after: c.after === null ? null : hh(c.after), arrive_by: c.by === null ? null : hh(c.by) };
        const max = c.max === null ? null : eur(c.max);
        const r = chooseFlightOption(options, leg, c.cfg, OWN, max, c.override);
        const cap = RANK[c.override ?? c.cfg.preferred_cabin]!;
        const acceptable = (o: Opt) =>
          !c.cfg.blacklisted_airlines.includes(o.airline_code) &&
          RANK[o.cabin]! <= cap &&
          (!leg.depart_after || Date.parse(o.dep_time) >= Date.parse(leg.depart_after)) &&
          (!leg.arrive_by || Date.parse(o.arr_time) <= Date.parse(leg.arrive_by)) &&
          (!max || (o.price.currency === max.currency && o.price.amount <= max.amount));
        if (r.ok) {
          expect(options).toContain(r.option);
          expect(acceptable(r.option)).toBe(true);
        } else {
          // Completeness: review only when nothing acceptable was offered.
          expect(options.some(acceptable)).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('the choice is in the best carrier group on offer, and the cheapest acceptable option of that group', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const options = toOpts(c).map((o) => ({ ...o, price: eur(o.price.amount) }));
        const r = chooseFlightOption(options, OPEN, c.cfg, OWN, null, c.override);
        if (!r.ok) return;
        const cap = RANK[c.override ?? c.cfg.preferred_cabin]!;
        const ok = options.filter((o) => !c.cfg.blacklisted_airlines.includes(o.airline_code) && RANK[o.cabin]! <= cap);
        const group = (code: string) =>
          c.cfg.same_carrier_preference && code === OWN
            ? -1
            : c.cfg.preferred_airlines.includes(code)
              ? c.cfg.preferred_airlines.indexOf(code)
              : 99;
        const best = Math.min(...ok.map((o) => group(o.airline_code)));
        expect(group(r.option.airline_code)).toBe(best);
        const cheapest = Math.min(...ok.filter((o) => group(o.airline_code) === best).map((o) => o.price.amount));
        expect(r.option.price.amount).toBe(cheapest);
      }),
      { numRuns: 300 },
    );
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

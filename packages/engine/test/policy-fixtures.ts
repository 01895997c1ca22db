/**
 * Fixtures of the auto-booking policy tests (policy*.unit.test.ts, choose-flight-option.unit.test.ts): hotel terms,
 * contracts, contexts and items.
 */
import type fc from 'fast-check';
import { flightOptionsUrl, type Money, type RatePeriod } from '@crew/contracts';
import type { HotelTerms } from '../src/hotel-config';
import type { ContractTerms, Decision, PolicyContext, PolicyItem, StationHotel } from '../src/policy';

export const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
export const period = (from: string, to: string, amount: number): RatePeriod => ({
  effective_from: from,
  effective_to: to,
  rate: eur(amount),
});

export const STD: HotelTerms = {
  policy: 'STANDARD',
  standard_check_in_time: '15:00',
  standard_check_out_time: '11:00',
  buffer_minutes: 30,
};
export const GUAR: HotelTerms = {
  policy: 'GUARANTEED',
  guaranteed_early_check_in_time: '06:00',
  guaranteed_late_check_out_time: '18:00',
};
export const FLEX: HotelTerms = { policy: 'FLEXIBLE', flex_window_minutes: 120 };

export function contract(over: Partial<ContractTerms> = {}): ContractTerms {
  return {
    contract_id: 10,
    contract_from: '2026-12-01',
    contract_to: '2026-12-31',
    automated_booking_enabled: true,
    rate_periods: [period('2026-12-01', '2026-12-31', 120)],
    ...over,
  };
}

export function stationHotel(over: Partial<StationHotel> = {}): StationHotel {
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

export const ALL_ON = {
  deadhead_auto_booking: true,
  booking_modification: true,
  swap_execution: true,
  cancellation_execution: true,
};
export const ALL_OFF = {
  deadhead_auto_booking: false,
  booking_modification: false,
  swap_execution: false,
  cancellation_execution: false,
};

export type CtxOver = Omit<Partial<PolicyContext>, 'settings'> & {
  settings?: Partial<PolicyContext['settings']>;
  hotel?: StationHotel | null;
  dob?: boolean;
};

/** Every lever on, a booker, a contracted hotel at FRA and a traveller with a date of birth, unless told otherwise. */
export function ctx(over: CtxOver = {}): PolicyContext {
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

export const at = (date: string, hhmm: string, offset = '+01:00') => `${date}T${hhmm}:00${offset}`;

export function item(over: Partial<PolicyItem> = {}): PolicyItem {
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
export const newLayover = (over: Partial<PolicyItem> = {}) => item(over);
export const modifyLayover = (over: Partial<PolicyItem> = {}) =>
  item({ subtype: 'MODIFY', classification: 'LAYOVER_DATE_CHANGE', booking_status: 'CONFIRMED', ...over });
export const cancelLayover = (over: Partial<PolicyItem> = {}) =>
  item({ subtype: 'CANCEL', classification: 'LAYOVER_CANCELLED', booking_status: 'CONFIRMED', ...over });
export const flightItem = (over: Partial<PolicyItem>): PolicyItem => ({
  action_id: 'act-dh',
  type: 'FLIGHT',
  subtype: 'NEW_BOOKING',
  classification: 'NEW_DEADHEAD',
  booking_status: null,
  traveller_email: 'e1@crew.example.com',
  ...over,
});
export const newDeadhead = (over: Partial<PolicyItem> = {}) => flightItem(over);
export const deadheadTimeChange = (over: Partial<PolicyItem> = {}) =>
  flightItem({ subtype: 'MODIFY', classification: 'DEADHEAD_TIME_CHANGE', booking_status: 'CONFIRMED', ...over });
export const deadheadCancelled = (over: Partial<PolicyItem> = {}) =>
  flightItem({ subtype: 'CANCEL', classification: 'DEADHEAD_CANCELLED', booking_status: 'CONFIRMED', ...over });

/** A REVIEW decision: not auto-eligible, with a reason a person can act on. */
export function expectReview(d: Decision, reason?: string | RegExp) {
  expect(d.action).toBe('REVIEW');
  expect(d.auto_eligible).toBe(false);
  expect(d.reason).toEqual(expect.any(String));
  if (typeof reason === 'string') expect(d.reason).toBe(reason);
  else if (reason) expect(d.reason).toMatch(reason);
}
export function expectAuto(d: Decision, action: 'AUTO_BOOK' | 'AUTO_MODIFY' | 'AUTO_CANCEL') {
  expect(d).toMatchObject({ action, auto_eligible: true, reason: null });
}
/** The manual-choice shape of a deadhead held for a person (spec 1, operator table, "Deadhead auto-booking"). */
export function expectBookManually(d: Decision, actionId: string, reason?: RegExp) {
  expectReview(d, reason);
  expect(d.recommended_action).toBe('BOOK_MANUALLY');
  expect(d.flight_options_url).toBe(flightOptionsUrl(actionId));
}

export const NO_CONFIG_FRA = 'no hotel configuration exists for station FRA';

export const pad = (n: number) => String(n).padStart(2, '0');

export type Spec<A> = A extends fc.Arbitrary<infer T> ? T : never;

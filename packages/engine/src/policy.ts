import type { CancellationTerms } from './cancellation-terms';
import type { AirlineSettings, Money, RatePeriod } from '@crew/contracts';
import type { HotelTerms } from './hotel-config';
import { convert, describeConversion, formatMoney, NO_FX_RATES, roundCents, type FxTable } from './fx';
import { addDays, instantOf, localDateOf } from './time';
import { holdsReservation, type BookingStatus } from './types';

/**
 * The auto-booking policy (spec 1 rules 8-11 and the operator-settings table; DESIGN sections 3-4):
 * for each action item, book / amend / cancel automatically, or hand it to a person with a reason.
 */

export type PolicyAction = 'AUTO_BOOK' | 'AUTO_MODIFY' | 'AUTO_CANCEL' | 'REVIEW' | 'NONE';

export interface Decision {
  action: PolicyAction;
  /** Spec 2.3: passed the eligibility checks, independent of supplier success. */
  auto_eligible: boolean;
  /** Why a person must act (REVIEW), shown on the item and the booking. */
  reason: string | null;
  recommended_action: string | null;
  /** On FLIGHT items awaiting a manual choice. */
  flight_options_url: string | null;
  /** AUTO hotel bookings: the hotel and contracted rate to book at. */
  hotel?: HotelChoice;
}

export interface HotelChoice {
  hotel_config_id: number;
  property_id: string;
  handler_type: 'GDS' | 'DIRECT';
  name: string | null;
  contract_id: number;
  rate: Money;
  /** The contract's negotiated-rate access code, for a supplier that sells negotiated rates. */
  rate_access_code?: string;
}

export interface ContractTerms {
  contract_id: number;
  contract_from: string;
  contract_to: string;
  automated_booking_enabled: boolean;
  rate_periods: RatePeriod[];
  rate_access_code?: string;
  /** The contract's cancellation terms now (null: none, a cancellation costs nothing). */
  cancellation_terms?: CancellationTerms | null;
  /** The hotel's IANA zone, in which the cancellation deadline is read. */
  hotel_time_zone?: string | null;
}

/** The hotel configured at a station, with its contracts. */
export interface StationHotel {
  hotel_config_id: number;
  station: string;
  property_id: string;
  handler_type: 'GDS' | 'DIRECT';
  name: string | null;
  terms: HotelTerms;
  contracts: ContractTerms[];
}

export interface PolicyContext {
  settings: Pick<
    AirlineSettings,
    'deadhead_auto_booking' | 'booking_modification' | 'swap_execution' | 'cancellation_execution'
  >;
  crew_booker_email: string | null;
  cancellation_lookback_days: number;
  /** Hotels by station. */
  hotels: ReadonlyMap<string, StationHotel>;
  /** Lower-cased traveller email → has a date of birth. */
  travellerHasDob: (email: string | null) => boolean;
  processedAt: string;
  /** Where a person picks a flight for an item (the api's link, passed in: the engine knows no paths). */
  flightOptionsUrl: (actionId: string) => string;
}

/** The facts of one item the policy decides on (diff-derived or injected). */
export interface PolicyItem {
  action_id: string;
  type: 'HOTEL' | 'FLIGHT';
  subtype: 'NEW_BOOKING' | 'MODIFY' | 'CANCEL';
  classification: string;
  /** The existing booking's status for MODIFY / CANCEL / UNCHANGED items. */
  booking_status: BookingStatus | null;
  traveller_email: string | null;
  /** HOTEL: the stay asked for (for CANCEL, the booked one). */
  station?: string;
  checkin_time_local?: string;
  checkout_time_local?: string;
  /** Pins a property (airline commit). */
  property_id?: string | null;
}

const review = (reason: string, extra: Partial<Decision> = {}): Decision => ({
  action: 'REVIEW',
  auto_eligible: false,
  reason,
  recommended_action: null,
  flight_options_url: null,
  ...extra,
});
const auto = (action: PolicyAction, extra: Partial<Decision> = {}): Decision => ({
  action,
  auto_eligible: true,
  reason: null,
  recommended_action: null,
  flight_options_url: null,
  ...extra,
});

const SWAPS = new Set(['SWAP_IN', 'SWAP_OUT']);

export const noHotelConfiguration = (station: string) => `no hotel configuration exists for station ${station}`;

/** Minutes since local midnight of a local timestamp, as written (its own offset). */
function minutesOfDay(ts: string): number {
  const m = /T(\d{2}):(\d{2})/.exec(ts);
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
}
const hhmm = (s: string | undefined) => (s ? Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5)) : null);

/**
 * Check-in/check-out against the hotel's policy. STANDARD and GUARANTEED: no earlier than the (early)
 * check-in time and no later than the (late) check-out time, each with `buffer_minutes` of tolerance.
 * FLEXIBLE: any arrival, and the stay may overrun its whole nights by `flex_window_minutes` (+ buffer).
 */
export function stayDeviation(terms: HotelTerms, checkin: string, checkout: string): string | null {
  const buffer = terms.buffer_minutes ?? 0;
  if (terms.policy === 'FLEXIBLE') {
    const nights = Math.max(
      1,
      Math.round((Date.parse(localDateOf(checkout)) - Date.parse(localDateOf(checkin))) / 86_400_000),
    );
    const stay = (instantOf(checkout) - instantOf(checkin)) / 60_000;
    const allowed = nights * 1440 + (terms.flex_window_minutes ?? 0) + buffer;
    return stay > allowed
      ? `the stay overruns the hotel's flexible window by ${Math.round(stay - allowed)} minutes`
      : null;
  }
  const earliest = hhmm(
    terms.policy === 'GUARANTEED' ? terms.guaranteed_early_check_in_time : terms.standard_check_in_time,
  );
  const latest = hhmm(
    terms.policy === 'GUARANTEED' ? terms.guaranteed_late_check_out_time : terms.standard_check_out_time,
  );
  if (earliest !== null && minutesOfDay(checkin) < earliest - buffer)
    return `early check-in at ${checkin.slice(11, 16)} deviates from the hotel's ${terms.policy} policy`;
  if (latest !== null && minutesOfDay(checkout) > latest + buffer)
    return `late check-out at ${checkout.slice(11, 16)} deviates from the hotel's ${terms.policy} policy`;
  return null;
}

/** The nights of a stay: check-in date up to the day before check-out (at least one night). */
export function stayNights(checkin: string, checkout: string): string[] {
  const first = localDateOf(checkin);
  const out = localDateOf(checkout);
  const nights = [first];
  for (let d = addDays(first, 1); d < out; d = addDays(d, 1)) nights.push(d);
  return nights;
}

/** An enabled contract covering every night, with a rate period for every night; the first night's rate. */
export function contractedRate(
  hotel: StationHotel,
  checkin: string,
  checkout: string,
): { contract: ContractTerms; rate: Money } | null {
  const nights = stayNights(checkin, checkout);
  for (const c of hotel.contracts) {
    if (!c.automated_booking_enabled) continue;
    if (!nights.every((n) => n >= c.contract_from && n <= c.contract_to)) continue;
    const rates = nights.map((n) => c.rate_periods.find((p) => n >= p.effective_from && n <= p.effective_to));
    if (rates.every(Boolean)) return { contract: c, rate: rates[0]!.rate };
  }
  return null;
}

function decideHotelStay(item: PolicyItem, ctx: PolicyContext, action: 'AUTO_BOOK' | 'AUTO_MODIFY'): Decision {
  const station = item.station!;
  const hotel = ctx.hotels.get(station);
  if (!hotel || (item.property_id && hotel.property_id !== item.property_id))
    return review(noHotelConfiguration(station));
  const contracted = contractedRate(hotel, item.checkin_time_local!, item.checkout_time_local!);
  if (!contracted) return review(noHotelConfiguration(station));
  const deviation = stayDeviation(hotel.terms, item.checkin_time_local!, item.checkout_time_local!);
  if (deviation) return review(deviation);
  return auto(action, {
    hotel: {
      hotel_config_id: hotel.hotel_config_id,
      property_id: hotel.property_id,
      handler_type: hotel.handler_type,
      name: hotel.name,
      contract_id: contracted.contract.contract_id,
      rate: contracted.rate,
      ...(contracted.contract.rate_access_code ? { rate_access_code: contracted.contract.rate_access_code } : {}),
    },
  });
}

function decideCancel(item: PolicyItem, ctx: PolicyContext): Decision {
  if (!ctx.settings.cancellation_execution) return review('cancellation execution is not enabled for this airline');
  if (item.checkout_time_local) {
    const earliest = addDays(ctx.processedAt.slice(0, 10), -ctx.cancellation_lookback_days);
    if (localDateOf(item.checkout_time_local) < earliest)
      return review(`the stay ended before the cancellation lookback (${ctx.cancellation_lookback_days} days)`);
  }
  return auto('AUTO_CANCEL');
}

/** The decision for one action item. */
export function decide(item: PolicyItem, ctx: PolicyContext): Decision {
  if (item.classification === 'UNCHANGED')
    return { action: 'NONE', auto_eligible: false, reason: null, recommended_action: null, flight_options_url: null };
  if (SWAPS.has(item.classification) && !ctx.settings.swap_execution)
    return review('crew swap execution is not enabled for this airline');

  if (item.subtype === 'CANCEL') {
    // Rule 11: engine cancellations too are placed under the booking account.
    if (!ctx.crew_booker_email) return review(NO_BOOKER);
    return decideCancel(item, ctx);
  }
  if (item.type === 'FLIGHT' && item.subtype === 'NEW_BOOKING') return decideNewDeadhead(item, ctx);
  if (!ctx.crew_booker_email) return review(NO_BOOKER);

  if (item.subtype === 'MODIFY') {
    if (!ctx.settings.booking_modification) return review('booking modification is not enabled for this airline');
    if (!item.booking_status || !holdsReservation(item.booking_status))
      return review('the booking holds no confirmed reservation to modify');
    if (item.type === 'HOTEL') return decideHotelStay(item, ctx, 'AUTO_MODIFY');
    if (!ctx.travellerHasDob(item.traveller_email)) return review(NO_DOB);
    return auto('AUTO_MODIFY');
  }
  return decideHotelStay(item, ctx, 'AUTO_BOOK');
}

export const NO_BOOKER = 'no crew booking account is configured (crew_booker_email)';
export const NO_DOB = 'the traveller profile has no date of birth';

/** A new deadhead: with the lever off (or anything missing) a person picks an option and commits it. */
function decideNewDeadhead(item: PolicyItem, ctx: PolicyContext): Decision {
  const manual = (reason: string) =>
    review(reason, { recommended_action: 'BOOK_MANUALLY', flight_options_url: ctx.flightOptionsUrl(item.action_id) });
  if (!ctx.settings.deadhead_auto_booking)
    return manual('deadhead auto-booking is not enabled: choose a flight option and commit it');
  if (!ctx.crew_booker_email) return manual(NO_BOOKER);
  if (!ctx.travellerHasDob(item.traveller_email)) return manual(NO_DOB);
  return auto('AUTO_BOOK');
}

/**
 * Supplier price vs contracted rate, compared in the contract's currency at the rates of `date` (the first
 * night) and to the cent. STRICT holds a mismatch for review, LOOSE books it and flags it; a price that
 * cannot be compared (no rate) is held for review in either mode.
 */
export function rateCheck(
  contracted: Money,
  charged: Money,
  mode: 'STRICT' | 'LOOSE',
  fx: FxTable = NO_FX_RATES,
  date = '',
): { ok: boolean; flag: string | null; reason: string | null } {
  const c = convert(charged, contracted.currency, fx, date);
  if (!c.ok) {
    const flag = `${c.reason} (needed to compare the supplier price ${formatMoney(charged)} with the contracted rate ${formatMoney(contracted)})`;
    return { ok: false, flag, reason: `rate check: ${flag}` };
  }
  if (Math.abs(roundCents(c.money.amount) - contracted.amount) < 0.005) return { ok: true, flag: null, reason: null };
  const flag = `supplier price ${formatMoney(charged)}${describeConversion(c.money, c.rates)} differs from the contracted rate ${formatMoney(contracted)}`;
  return mode === 'STRICT' ? { ok: false, flag, reason: `rate mismatch: ${flag}` } : { ok: true, flag, reason: null };
}

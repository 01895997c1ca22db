/**
 * Which of a supplier's rates for a stay the airline pays for (a Duffel Stays search answers several rates per
 * room): one paid in full at booking, whose base amount (before tax and fees) matches the contract's rate for
 * each of the stay's nights. Tax varies by city and night and is not part of a contracted room rate, so the
 * total divided by the nights would flag every taxed stay; a rate period that changes mid-stay would be
 * missed by comparing the first night only.
 */
import type { Money, RatePeriod } from '@crew/contracts';
import { convert, describeConversion, formatMoney, NO_FX_RATES, roundCents, type FxTable } from './fx';
import { addDays } from './time';

export interface StayRateVerdict {
  /** Bookable under the airline's lever (a LOOSE mismatch is bookable, flagged). */
  ok: boolean;
  /** True when the base amount equals the contract's rate night by night, to the cent. */
  exact: boolean;
  flag: string | null;
  reason: string | null;
}

/** The nights of a room: check-in date up to the day before check-out. */
export function roomNights(checkInDate: string, checkOutDate: string): string[] {
  const nights: string[] = [];
  for (let d = checkInDate; d < checkOutDate; d = addDays(d, 1)) nights.push(d);
  return nights;
}

/**
 * A rate's base amount for the whole stay against the contract's rate of each night (each night's period,
 * converted into the first night's contract currency at that night's exchange rate; the base amount at the
 * first night's). STRICT refuses a mismatch, LOOSE accepts and flags it; a stay that cannot be compared (a
 * night without a rate period, a currency without an exchange rate) is refused in either mode.
 */
export function stayRateCheck(
  periods: readonly RatePeriod[],
  base: Money,
  nights: readonly string[],
  mode: 'STRICT' | 'LOOSE',
  fx: FxTable = NO_FX_RATES,
): StayRateVerdict {
  const first = nights[0];
  if (!first) return { ok: false, exact: false, flag: null, reason: 'rate check: the stay has no night' };
  const rates = nights.map((n) => periods.find((p) => n >= p.effective_from && n <= p.effective_to)?.rate);
  const missing = nights.filter((_n, i) => !rates[i]);
  if (missing.length > 0)
    return refuse(`the contract has no rate for the night${missing.length > 1 ? 's' : ''} of ${missing.join(', ')}`);
  const currency = rates[0]!.currency;
  let expected = 0;
  for (let i = 0; i < nights.length; i++) {
    const c = convert(rates[i]!, currency, fx, nights[i]!);
    if (!c.ok) return refuse(`${c.reason} (needed to add up the contracted rate of ${nights[i]})`);
    expected += c.money.amount;
  }
  const charged = convert(base, currency, fx, first);
  if (!charged.ok)
    return refuse(
      `${charged.reason} (needed to compare the supplier's base amount ${formatMoney(base)} with the contracted rates)`,
    );
  const contracted = { amount: roundCents(expected), currency };
  if (Math.abs(roundCents(charged.money.amount) - contracted.amount) < 0.005)
    return { ok: true, exact: true, flag: null, reason: null };
  const n = nights.length;
  const flag = `supplier base amount ${formatMoney(base)}${describeConversion(charged.money, charged.rates)} for ${n} night${n > 1 ? 's' : ''} differs from the contracted ${formatMoney(contracted)} (night by night)`;
  return mode === 'STRICT'
    ? { ok: false, exact: false, flag, reason: `rate mismatch: ${flag}` }
    : { ok: true, exact: false, flag, reason: null };
}

function refuse(why: string): StayRateVerdict {
  return { ok: false, exact: false, flag: why, reason: `rate check: ${why}` };
}

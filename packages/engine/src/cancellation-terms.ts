import type { Money, Priority, ValidationIssue } from '@crew/contracts';
import { money, minorDigits } from './minor-units';
import { addDays, instantOf, isoInstant, MS_PER_HOUR } from './time';
import { isTimeZone, zonedInstant } from './time-zones';

/*
 * A hotel contract's cancellation terms and what they do to a cancellation: its deadline in the hotel's local
 * time, whether a cancellation is in time, the fee recorded when it is not, the lane it runs in, and the hold
 * that damps a roster flapping back and forth (docs/cost-control.md).
 */

export const FEE_TYPES = ['AMOUNT', 'NIGHTS'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** A fee as the contract states it: a fixed amount, or a number of nights at the stay's nightly rate. */
export interface Fee {
  type: FeeType;
  /** AMOUNT: the fee. */
  amount?: Money;
  /** NIGHTS: how many nights (at least 1; never more than the stay has). */
  nights?: number;
}

/** "By 18:00 hotel time on the day of arrival" is `{days_before: 0, local_time: '18:00'}`. */
export interface CancellationDeadlineTerm {
  /** Days before the check-in date (0: the day of arrival). */
  days_before: number;
  /** `HH:MM`, the hotel's local time. */
  local_time: string;
}

export interface CancellationTerms {
  cancellation_deadline: CancellationDeadlineTerm;
  /** Charged for a cancellation after the deadline; absent: none. */
  late_cancellation_fee?: Fee | null;
  /** Charged when the guest does not arrive; absent: none. */
  no_show_fee?: Fee | null;
}

export const MAX_DAYS_BEFORE = 365;
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const CURRENCY = /^[A-Z]{3}$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;

function moneyIssues(v: unknown, at: string): ValidationIssue[] {
  if (!isObject(v)) return [{ field: at, issue: 'must be Money: {amount, currency}' }];
  const issues: ValidationIssue[] = [];
  if (typeof v.amount !== 'number' || !Number.isFinite(v.amount) || v.amount < 0)
    issues.push({ field: `${at}/amount`, issue: 'must be a number, 0 or more' });
  if (typeof v.currency !== 'string' || !CURRENCY.test(v.currency))
    issues.push({ field: `${at}/currency`, issue: 'must be an ISO 4217 currency code' });
  return issues;
}

function feeIssues(v: unknown, at: string): ValidationIssue[] {
  if (v === undefined || v === null) return [];
  if (!isObject(v)) return [{ field: at, issue: 'must be a fee: {type, amount} or {type, nights}' }];
  if (v.type === 'AMOUNT') {
    const issues = v.amount === undefined ? [{ field: `${at}/amount`, issue: 'is required for type AMOUNT' }] : [];
    if (v.amount !== undefined) issues.push(...moneyIssues(v.amount, `${at}/amount`));
    if (v.nights !== undefined) issues.push({ field: `${at}/nights`, issue: 'must be absent for type AMOUNT' });
    return issues;
  }
  if (v.type === 'NIGHTS') {
    const issues: ValidationIssue[] = [];
    if (!isCount(v.nights, 1))
      issues.push({ field: `${at}/nights`, issue: 'is required for type NIGHTS: an integer, 1 or more' });
    if (v.amount !== undefined) issues.push({ field: `${at}/amount`, issue: 'must be absent for type NIGHTS' });
    return issues;
  }
  return [{ field: `${at}/type`, issue: 'must be AMOUNT or NIGHTS' }];
}

/**
 * What is wrong with a contract's cancellation terms: the deadline is required (days_before an integer 0..365,
 * local_time `HH:MM`); each fee, when given, is AMOUNT with an amount (Money, 0 or more) or NIGHTS with nights
 * (an integer, 1 or more), and not both. Fields are named under `at` (say '/cancellation_terms').
 */
export function cancellationTermsIssues(terms: unknown, at = ''): ValidationIssue[] {
  if (!isObject(terms)) return [{ field: at || '/', issue: 'must be an object' }];
  const issues: ValidationIssue[] = [];
  const d = terms.cancellation_deadline;
  if (!isObject(d)) {
    issues.push({ field: `${at}/cancellation_deadline`, issue: 'is required: {days_before, local_time}' });
  } else {
    if (!isCount(d.days_before, 0) || d.days_before > MAX_DAYS_BEFORE)
      issues.push({
        field: `${at}/cancellation_deadline/days_before`,
        issue: `must be an integer from 0 to ${MAX_DAYS_BEFORE}`,
      });
    if (typeof d.local_time !== 'string' || !HH_MM.test(d.local_time))
      issues.push({ field: `${at}/cancellation_deadline/local_time`, issue: 'must be a time HH:MM (00:00 to 23:59)' });
  }
  issues.push(...feeIssues(terms.late_cancellation_fee, `${at}/late_cancellation_fee`));
  issues.push(...feeIssues(terms.no_show_fee, `${at}/no_show_fee`));
  return issues;
}

// ---- cost settings ----

export const AFTER_DEADLINE_HANDLING = ['CANCEL', 'REVIEW'] as const;
export type AfterDeadlineHandling = (typeof AFTER_DEADLINE_HANDLING)[number];

export interface CostSettings {
  /** How long a cancellation caused by a roster change waits for the roster to change back (0: not at all). */
  cancel_hold_minutes: number;
  /** An engine cancellation after the deadline: CANCEL anyway and record the fee, or hand it to a person. */
  after_deadline: AfterDeadlineHandling;
}

export const DEFAULT_COST_SETTINGS: Readonly<CostSettings> = Object.freeze({
  cancel_hold_minutes: 0,
  after_deadline: 'CANCEL',
});

/** The longest hold: a day. A roster that has not settled within a day is not flapping. */
export const MAX_CANCEL_HOLD_MINUTES = 1440;

export interface CostSettingsPatch {
  cancel_hold_minutes?: unknown;
  after_deadline?: unknown;
}

export type CostSettingsMerge = { ok: true; settings: CostSettings } | { ok: false; issues: ValidationIssue[] };

/** The stored settings with a patch applied; an omitted field keeps its value. Every fault is reported, and nothing is merged then. */
export function mergeCostSettings(
  stored: CostSettings | null | undefined,
  patch: CostSettingsPatch | null | undefined,
): CostSettingsMerge {
  const base = stored ?? DEFAULT_COST_SETTINGS;
  const p = patch ?? {};
  const issues: ValidationIssue[] = [];
  const hold = p.cancel_hold_minutes;
  if (hold !== undefined && !(isCount(hold, 0) && hold <= MAX_CANCEL_HOLD_MINUTES))
    issues.push({
      field: '/cancel_hold_minutes',
      issue: `must be an integer number of minutes from 0 to ${MAX_CANCEL_HOLD_MINUTES}`,
    });
  const after = p.after_deadline;
  if (after !== undefined && !(AFTER_DEADLINE_HANDLING as readonly unknown[]).includes(after))
    issues.push({ field: '/after_deadline', issue: 'must be CANCEL or REVIEW' });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    settings: {
      cancel_hold_minutes: (hold as number | undefined) ?? base.cancel_hold_minutes,
      after_deadline: (after as AfterDeadlineHandling | undefined) ?? base.after_deadline,
    },
  };
}

// ---- the deadline ----

const msOf = (t: string | number): number => (typeof t === 'number' ? t : instantOf(t));

/**
 * The instant (ISO, UTC) of the cancellation deadline of a stay: local_time on the date days_before the
 * check-in date, in the hotel's zone (IANA name), with that day's offset. `checkIn` is the check-in date, or a
 * roster timestamp whose written date is the check-in date. Throws on an unknown zone or unreadable input.
 */
export function cancellationDeadline(terms: CancellationTerms, checkIn: string, hotelTimeZone: string): string {
  return isoInstant(deadlineMs(terms, checkIn, hotelTimeZone));
}

function deadlineMs(terms: CancellationTerms, checkIn: string, timeZone: string): number {
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
  const { days_before, local_time } = terms.cancellation_deadline;
  const ms = zonedInstant(addDays(checkIn.slice(0, 10), -days_before), local_time, timeZone);
  if (Number.isNaN(ms)) throw new RangeError(`no cancellation deadline for check-in ${checkIn} at ${local_time}`);
  return ms;
}

export interface CancellationTiming {
  deadline: string;
  /** Made at or before the deadline ("by 18:00" includes 18:00). */
  in_time: boolean;
  /** In time, and the deadline less than 24 hours away: the cancellation runs in the P1 lane. */
  within_24h: boolean;
}

/** A cancellation made at `now` against the terms in force now. */
export function cancellationTiming(
  terms: CancellationTerms,
  checkIn: string,
  hotelTimeZone: string,
  now: string | number,
): CancellationTiming {
  const deadline = deadlineMs(terms, checkIn, hotelTimeZone);
  return timingAt(deadline, msOf(now));
}

function timingAt(deadline: number, at: number): CancellationTiming {
  const inTime = at <= deadline;
  return { deadline: isoInstant(deadline), in_time: inTime, within_24h: inTime && deadline - at < 24 * MS_PER_HOUR };
}

/**
 * What a fee comes to: an AMOUNT fee is its amount; a NIGHTS fee is that many nights at the nightly rate, never
 * more nights than the stay has (a one-night stay pays at most one night). Null for a NIGHTS fee without a
 * nightly rate to price it. Rounded to the currency's minor unit.
 */
export function cancellationFee(fee: Fee, nightlyRate: Money | null, nights: number): Money | null {
  if (fee.type === 'AMOUNT') return fee.amount ? money(fee.amount.amount, fee.amount.currency) : null;
  if (!nightlyRate) return null;
  const n = Math.max(0, Math.min(fee.nights ?? 0, nights));
  return money(nightlyRate.amount * n, nightlyRate.currency);
}

/** What a cancellation made in time saved: the late-cancellation fee it would have cost after the deadline. */
export function penaltyAvoided(
  terms: CancellationTerms | null | undefined,
  nightlyRate: Money | null,
  nights: number,
): Money | null {
  const fee = terms?.late_cancellation_fee;
  return fee ? cancellationFee(fee, nightlyRate, nights) : null;
}

// ---- the decision ----

/**
 * Why a booking is cancelled: the roster dropped its layover, the roster moved it to another hotel (MOVE: the
 * old room is cancelled as the new one is booked), or the airline asked (DELETE, a PATCH's swap, REQUEST: a
 * cancelling classification injected with POST /crew/action-items or sent to POST /crew/bookings/request). Only
 * ROSTER is held or handed to a person: a move needs the new room now, and the old one cannot serve the crew
 * member; the airline's own instruction is not decided a second time.
 */
export type CancellationCause = 'ROSTER' | 'MOVE' | 'DELETE' | 'PATCH' | 'REQUEST';

/** A held cancellation is released this long before the deadline at the latest. */
export const HOLD_DEADLINE_MARGIN_MINUTES = 15;

export interface CancellationInput {
  /** The contract's terms in force now (not those of when the booking was made); null: none. */
  terms: CancellationTerms | null | undefined;
  /** The check-in date, or the layover's local check-in timestamp. */
  checkIn: string;
  /** The hotel's zone (IANA). */
  tz: string;
  now: string | number;
  cause: CancellationCause;
  settings: CostSettings;
  /** The booking's nightly rate (prices a NIGHTS fee). */
  nightlyRate: Money | null;
  /** The stay's nights. */
  nights: number;
  /** The cancellation's lane without terms (its action item's priority). */
  priority: Priority;
}

export interface CancellationDecision {
  /** CANCEL now; HOLD until hold_until (then cancel unless the layover came back); REVIEW: a person decides. */
  action: 'CANCEL' | 'HOLD' | 'REVIEW';
  /** The lane of the cancellation task (for HOLD: when it is released). */
  lane: Priority;
  deadline: string | null;
  in_time: boolean;
  within_24h: boolean;
  /** The fee to record on the booking (hotel.cancellation_penalty): a CANCEL after the deadline; REVIEW: what cancelling now costs. */
  penalty: Money | null;
  /** In time: the late-cancellation fee avoided (counted when the cancellation is made). */
  penalty_avoided: Money | null;
  /** The due_by of the action item if it lands in review (the deadline); null without terms. */
  review_due_by: string | null;
  hold_until: string | null;
  message: string;
}

const MS_PER_MINUTE = 60_000;

function describe(m: Money): string {
  return `${m.amount.toFixed(minorDigits(m.currency))} ${m.currency}`;
}

/**
 * How a cancellation goes (docs/cost-control.md):
 * - no terms: cancel now, no fee, the lane unchanged (as before cancellation terms existed);
 * - in time, caused by a roster change, with cancel_hold_minutes > 0: HOLD until
 *   min(now + hold, deadline − HOLD_DEADLINE_MARGIN_MINUTES), when that is after now; otherwise
 * - in time: cancel now; the lane is P1 when the deadline is less than 24 hours away, else unchanged;
 * - after the deadline: a roster-caused cancellation with after_deadline REVIEW goes to a person; any other
 *   cancels now and records the late-cancellation fee (a DELETE, a PATCH or a REQUEST is the airline's own instruction, a MOVE
 *   books the room the crew member needs now).
 * A review item from any of these is due at the deadline (one after the deadline is overdue at once).
 */
export function decideCancellation(input: CancellationInput): CancellationDecision {
  const { terms, priority } = input;
  const now = msOf(input.now);
  if (!terms)
    return {
      action: 'CANCEL',
      lane: priority,
      deadline: null,
      in_time: true,
      within_24h: false,
      penalty: null,
      penalty_avoided: null,
      review_due_by: null,
      hold_until: null,
      message: 'the contract has no cancellation terms: no fee',
    };
  const deadline = deadlineMs(terms, input.checkIn, input.tz);
  const timing = timingAt(deadline, now);
  const { days_before, local_time } = terms.cancellation_deadline;
  const localDeadline = `${local_time} ${input.tz} on ${addDays(input.checkIn.slice(0, 10), -days_before)}`;
  const base = { deadline: timing.deadline, in_time: timing.in_time, review_due_by: timing.deadline };

  if (timing.in_time) {
    const avoided = penaltyAvoided(terms, input.nightlyRate, input.nights);
    const hold = input.cause === 'ROSTER' ? input.settings.cancel_hold_minutes : 0;
    const until = Math.min(now + hold * MS_PER_MINUTE, deadline - HOLD_DEADLINE_MARGIN_MINUTES * MS_PER_MINUTE);
    if (hold > 0 && until > now) {
      const released = timingAt(deadline, until);
      return {
        ...base,
        action: 'HOLD',
        lane: released.within_24h ? 'P1' : priority,
        within_24h: timing.within_24h,
        penalty: null,
        penalty_avoided: avoided,
        hold_until: isoInstant(until),
        message: `cancellation held until ${isoInstant(until)} in case the roster brings the layover back (deadline ${localDeadline})`,
      };
    }
    return {
      ...base,
      action: 'CANCEL',
      lane: timing.within_24h ? 'P1' : priority,
      within_24h: timing.within_24h,
      penalty: null,
      penalty_avoided: avoided,
      hold_until: null,
      message: `in time for the hotel's cancellation deadline (${localDeadline}): no fee`,
    };
  }

  const fee = terms.late_cancellation_fee;
  const penalty = fee ? cancellationFee(fee, input.nightlyRate, input.nights) : null;
  const costs = penalty
    ? `late cancellation fee ${describe(penalty)}`
    : fee
      ? 'a late cancellation fee in nights, but the booking has no nightly rate to price it'
      : 'the contract has no late cancellation fee';
  const review = input.cause === 'ROSTER' && input.settings.after_deadline === 'REVIEW';
  return {
    ...base,
    action: review ? 'REVIEW' : 'CANCEL',
    lane: priority,
    within_24h: false,
    penalty,
    penalty_avoided: null,
    hold_until: null,
    message: review
      ? `past the hotel's cancellation deadline (${localDeadline}): ${costs}; a person decides whether to cancel`
      : `after the hotel's cancellation deadline (${localDeadline}): ${costs}${penalty ? ' recorded on the booking' : ''}`,
  };
}

import type { Money } from '@crew/contracts';
import { cancellationFee } from './cancellation-terms';
import { convert, formatMoney, type FxTable } from './fx';
import {
  indexInvoiceBookings,
  invoiceBookingOf,
  lineLookupEnd,
  dayNumber,
  nightsOf,
  type InvoiceBooking,
  type InvoiceBookingIndex,
  type InvoiceContract,
  type InvoiceFee,
  type InvoiceFinding,
  type InvoiceLine,
  type InvoiceLineResult,
  type InvoiceLineStatus,
} from './invoice-index';
import { halfMinorUnit, money, roundMinor } from './minor-units';

/*
 * A hotel's invoice against the bookings: each line is matched to a booking night by night and gets exactly one
 * status, the first that applies, with the amount the airline disputes (docs/cost-control.md). Pure and linear:
 * a worker runs it on batches of 100k lines.
 */

/** Rules whose finding disputes the whole line. */
const WHOLE_LINE = new Set<InvoiceLineStatus>([
  'DUPLICATE_LINE',
  'NO_BOOKING',
  'CHARGED_AFTER_TIMELY_CANCEL',
  'INCIDENTAL_NOT_COVERED',
]);

/** What a line is classified against. */
export interface InvoiceMatchContext {
  /** The hotel that sent the invoice. */
  property_id: string;
  index: InvoiceBookingIndex;
  /**
   * Keys billed before this line (billed_keys of earlier invoices of the airline and earlier lines of this one),
   * and the part of a booking's cancellation penalty they paid, in the penalty's currency (InvoiceMatcher reads it
   * from their keys; without it, a penalty is either paid in full, its key billed, or not at all).
   */
  billed: { has(key: string): boolean; penaltyPaid?(bookingId: string): number };
  /** Contracts by contract_id as text. */
  contracts: ReadonlyMap<string, InvoiceContract>;
  fx: FxTable;
}

/** The key of a booking's night, as billed_keys carries it. */
export const billedNightKey = (bookingId: string, night: string) => `${bookingId}|${night}`;

/*
 * A booking's cancellation penalty is an amount the lines charging it pay off, in line order and invoice after
 * invoice. A line paying the rest of it bills `<booking>|LATE_CANCEL` (paid: any later line charging it is a
 * duplicate; a release before 2026-12-03 billed this key for the first line charging it, whatever it paid). A line
 * paying part of it bills `<booking>|LATE_CANCEL:<paid>`: what the lines so far paid of it, in the penalty's
 * currency. That total only grows, so each such line has its own key, and the largest is what was paid.
 */
const penaltyKey = (bookingId: string) => `${bookingId}|LATE_CANCEL`;
const PAID_PART = '|LATE_CANCEL:';

/** Records in `paid` the part of a penalty `key` says was paid, if it is such a key. */
function notePenaltyPaid(paid: Map<string, number>, key: string): void {
  const at = key.indexOf(PAID_PART);
  if (at < 0) return;
  const bookingId = key.slice(0, at);
  const amount = Number(key.slice(at + PAID_PART.length));
  if (amount > (paid.get(bookingId) ?? 0)) paid.set(bookingId, amount);
}

/**
 * The nights a line charges. As many as `nights`: all its dates when it charges as many or more (the rest are
 * nights beyond its dates), else the first of its dates not billed yet (a stay split across two month-end
 * invoices may be written with the whole stay's dates on both).
 */
function billedDatesOf(s: LineState, dates: string[]) {
  const n = Math.max(0, s.line.nights);
  if (n >= dates.length) return { billed: dates, beyond: n - dates.length };
  const fresh = dates.filter((d) => {
    const k = nightKey(s, d);
    return k === null || !s.ctx.billed.has(k);
  });
  const chosen = new Set([...fresh, ...dates.filter((d) => !fresh.includes(d))].slice(0, n));
  return { billed: dates.filter((d) => chosen.has(d)), beyond: 0 };
}

/*
 * The rules of one line read and add to one LineState, through plain functions rather than closures made per
 * line: a batch classifies 100k lines, and each closure is a function object to build (and, in the bundles,
 * to name) every time. For the same reason the common case allocates nothing it can skip: an amount already in
 * the line's currency is not converted, and a line without fees shares one empty list.
 */

const NO_FEES: readonly InvoiceFee[] = Object.freeze([]);
const NO_RATE_PERIODS: InvoiceContract['rate_periods'] = Object.freeze([]);
interface LineState {
  line: InvoiceLine;
  ctx: InvoiceMatchContext;
  currency: string;
  tolerance: number;
  fees: readonly InvoiceFee[];
  booking: InvoiceBooking | null;
  guest: string | null;
  /** The nights billed within the line's dates, and how many it charges beyond them. */
  billed: string[];
  beyond: number;
  /** The whole line in its currency. */
  whole: number;
  /** On a booking cancelled late: what earlier lines left of its penalty, in the line's currency (null: unknown). */
  penaltyLeft: number | null;
  findings: InvoiceFinding[];
  review: string[];
}

/** The key of one of the line's nights: its booking's night, else the guest's (a line with no booking). */
function nightKey(s: Pick<LineState, 'booking' | 'guest'>, night: string): string | null {
  return s.booking ? billedNightKey(s.booking.booking_id, night) : s.guest ? `?|${s.guest}|${night}` : null;
}

/**
 * An amount in the line's currency (at the rate of `date`); without a rate, null and flagged: an amount in another
 * currency is never read as if it were the line's, so a comparison needing it is not made.
 */
function inLine(s: LineState, m: Money, date: string): number | null {
  if (m.currency === s.currency) return m.amount;
  const c = convert(m, s.currency, s.ctx.fx, date);
  if (c.ok) return c.money.amount;
  s.review.push(`${c.reason} (to read ${formatMoney(m)} in ${s.currency})`);
  return null;
}

/** The line's fees of `type` (all of them without one) in its currency; null when one has no rate. */
function feeTotal(s: LineState, type?: string): number | null {
  let sum: number | null = 0;
  const fees = s.fees;
  for (let i = 0; i < fees.length; i++)
    if (!type || fees[i]!.type === type) {
      const fee = inLine(s, fees[i]!.amount, s.line.check_in_date);
      sum = fee === null || sum === null ? null : sum + fee;
    }
  return sum;
}

/** a − b, or null when either could not be read in the line's currency. */
function minus(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

function charges(s: LineState, type: string): boolean {
  const fees = s.fees;
  for (let i = 0; i < fees.length; i++) if (fees[i]!.type === type && fees[i]!.amount.amount > 0) return true;
  return false;
}

function find(s: LineState, status: InvoiceFinding['status'], amount: number): void {
  s.findings.push({ status, disputed: money(amount, s.currency) });
}

/** A rule disputing the whole line has been found: nothing else is checked. */
function done(s: LineState): boolean {
  const findings = s.findings;
  for (let i = 0; i < findings.length; i++) if (WHOLE_LINE.has(findings[i]!.status)) return true;
  return false;
}

/** A booking cancelled after the deadline: what it owes, whatever a line calls the charge, is its penalty. */
function cancelledLate(b: InvoiceBooking): boolean {
  return b.status === 'CANCELLED' && b.cancellation_penalty != null && b.cancellation_penalty.amount > 0;
}

/** What a line charges on a booking cancelled late besides a no-show fee: its room-nights and late fees. */
function penaltyCharged(s: LineState): number | null {
  const late = feeTotal(s, 'LATE_CANCEL');
  return late === null ? null : s.line.nightly_rate.amount * s.line.nights + late;
}

function checkFees(s: LineState, booking: InvoiceBooking, contract: InvoiceContract | undefined): void {
  if (cancelledLate(booking)) {
    // No guest was expected: a no-show fee is the penalty under another name, allowed what the penalty leaves
    // after the line's room-nights and late fees (checkNightsAndRates disputes the part of those above it).
    if (charges(s, 'NO_SHOW')) {
      const left = minus(s.penaltyLeft, penaltyCharged(s));
      const excess = left === null ? null : minus(feeTotal(s, 'NO_SHOW'), Math.max(0, left));
      find(s, 'NO_SHOW_CHARGED', excess !== null && excess > s.tolerance ? excess : 0);
    }
  } else if (charges(s, 'NO_SHOW')) {
    // The part above the contract's no-show fee (none agreed: all of it).
    const fee = contract?.cancellation_terms?.no_show_fee;
    const allowed = fee
      ? cancellationFee(fee, contractedRate(booking, contract, booking.check_in_date), stayNights(booking))
      : { amount: 0, currency: s.currency };
    if (!allowed) s.review.push(`no contracted rate for ${booking.check_in_date} to price the contract's no-show fee`);
    // Without an exchange rate the excess is not known: the rule applies, nothing is disputed, a person checks.
    const excess = allowed ? minus(feeTotal(s, 'NO_SHOW'), inLine(s, allowed, booking.check_in_date)) : 0;
    find(s, 'NO_SHOW_CHARGED', excess !== null && excess > s.tolerance ? excess : 0);
  }
  if (charges(s, 'INCIDENTAL') && contract?.incidentals_covered !== true) find(s, 'INCIDENTAL_NOT_COVERED', s.whole);
}

function checkNightsAndRates(s: LineState, booking: InvoiceBooking, contract: InvoiceContract | undefined): void {
  const rate = s.line.nightly_rate.amount;
  let over = 0;
  if (booking.status === 'CANCELLED') {
    // Cancelled after the deadline: the line's room-nights and late fees are the late-cancellation fee (a no-show
    // fee too: checkFees), owed up to what earlier lines left of the penalty.
    over += minus(penaltyCharged(s), s.penaltyLeft) ?? 0;
  } else {
    let extra = s.beyond;
    for (const night of s.billed) if (!inStay(booking, night)) extra++;
    if (extra > 0) find(s, 'NIGHTS_MISMATCH', extra * rate);
    for (const night of s.billed) {
      if (!inStay(booking, night)) continue;
      const agreed = contractedRate(booking, contract, night);
      if (!agreed) {
        s.review.push(`no contracted rate for the night of ${night}`);
        continue;
      }
      // Compared in the contract's currency at the night's exchange rate, to half a minor unit.
      let billed = rate;
      if (s.line.nightly_rate.currency !== agreed.currency) {
        const inContract = convert(s.line.nightly_rate, agreed.currency, s.ctx.fx, night);
        if (!inContract.ok) {
          s.review.push(`${inContract.reason} (to compare the rate of ${night} with the contract)`);
          continue;
        }
        billed = inContract.money.amount;
      }
      if (billed - agreed.amount > halfMinorUnit(agreed.currency)) over += minus(rate, inLine(s, agreed, night)) ?? 0;
    }
    // A late-cancellation fee on a booking not cancelled late is above anything the contract allows.
    over += feeTotal(s, 'LATE_CANCEL') ?? 0;
  }
  if (over > s.tolerance) find(s, 'RATE_MISMATCH', over);
}

/** The booking's nights (what a no-show fee of so many nights is capped at). */
function stayNights(b: InvoiceBooking): number {
  return dayNumber(b.check_out_date) - dayNumber(b.check_in_date);
}

function inStay(b: InvoiceBooking, night: string): boolean {
  return night >= b.check_in_date && night < b.check_out_date;
}

/** What a line bills in its currency: its room-nights at the nightly rate, its taxes and its fees. */
export function invoiceLineTotal(line: Pick<InvoiceLine, 'nightly_rate' | 'nights' | 'taxes' | 'fees'>): number {
  let fees = 0;
  for (const f of line.fees ?? []) fees += f.amount.amount;
  return line.nightly_rate.amount * line.nights + line.taxes.amount + fees;
}

/** One line's status and disputed amount (the rules in docs/cost-control.md). */
export function classifyInvoiceLine(line: InvoiceLine, ctx: InvoiceMatchContext): InvoiceLineResult {
  const currency = line.nightly_rate.currency;
  const dates = nightsOf(line.check_in_date, line.check_out_date);
  const to = lineLookupEnd(line);
  const { booking: b, guest } = invoiceBookingOf(line, ctx.property_id, ctx.index, line.check_in_date, to);
  const s: LineState = {
    line,
    ctx,
    currency,
    tolerance: halfMinorUnit(currency),
    fees: line.fees ?? NO_FEES,
    booking: b,
    guest,
    billed: [],
    beyond: 0,
    whole: 0,
    penaltyLeft: null,
    findings: [],
    review: [],
  };
  const { billed, beyond } = billedDatesOf(s, dates);
  s.billed = billed;
  s.beyond = beyond;
  // An amount without a rate into the line's currency is left out of the whole line (and flagged), not added 1:1.
  s.whole = line.nightly_rate.amount * line.nights + (inLine(s, line.taxes, line.check_in_date) ?? 0);
  for (let i = 0; i < s.fees.length; i++) s.whole += inLine(s, s.fees[i]!.amount, line.check_in_date) ?? 0;
  const whole = s.whole;

  const billedKeys: string[] = [];
  for (const d of billed) {
    const k = nightKey(s, d);
    if (k !== null) billedKeys.push(k);
  }
  const cancelled = b !== null && b.status === 'CANCELLED';
  const lateCancelled = b !== null && cancelledLate(b);
  // On a booking cancelled late, room-nights and a no-show fee are its late-cancellation fee too: whichever way
  // it is billed, the penalty is paid once, so a line charging it once it is paid is a duplicate.
  const chargesPenalty =
    lateCancelled &&
    (charges(s, 'LATE_CANCEL') || charges(s, 'NO_SHOW') || (line.nights > 0 && line.nightly_rate.amount > 0));
  if (b && chargesPenalty && ctx.billed.has(penaltyKey(b.booking_id))) billedKeys.push(penaltyKey(b.booking_id));
  else if (b && !lateCancelled) {
    if (charges(s, 'NO_SHOW')) billedKeys.push(`${b.booking_id}|NO_SHOW`);
    if (charges(s, 'LATE_CANCEL')) billedKeys.push(`${b.booking_id}|LATE_CANCEL`);
  }

  const timelyCancelled = cancelled && !lateCancelled;
  if (billedKeys.some((k) => ctx.billed.has(k))) find(s, 'DUPLICATE_LINE', whole);
  else if (!b) find(s, 'NO_BOOKING', whole);
  else if (timelyCancelled) {
    // Nothing is owed on a booking cancelled in time (a line charging nothing is simply matched).
    if (whole > s.tolerance) find(s, 'CHARGED_AFTER_TIMELY_CANCEL', whole);
  } else {
    const contract =
      b.contract_id === null || b.contract_id === undefined ? undefined : ctx.contracts.get(`${b.contract_id}`);
    // What earlier lines paid of the penalty (not all of it: that is a duplicate above).
    const paidBefore = chargesPenalty ? (ctx.billed.penaltyPaid?.(b.booking_id) ?? 0) : 0;
    if (lateCancelled) s.penaltyLeft = penaltyLeft(s, b.cancellation_penalty!, paidBefore, b.check_in_date);
    checkFees(s, b, contract);
    if (!done(s)) checkNightsAndRates(s, b, contract);
    if (chargesPenalty) billedKeys.push(penaltyPaidKey(s, b, paidBefore));
  }

  const findings = s.findings;
  const status: InvoiceLineStatus = findings[0]?.status ?? 'MATCHED';
  const partial = findings.reduce((sum, f) => sum + f.disputed.amount, 0);
  const disputed = done(s) ? whole : Math.min(partial, whole);
  return {
    line_number: line.line_number,
    status,
    booking_id: b?.booking_id ?? null,
    disputed: money(Math.max(0, disputed), currency),
    nights_billed: Math.max(0, line.nights),
    billed_dates: billed,
    billed_keys: billedKeys,
    findings,
    needs_review: s.review.length > 1 ? [...new Set(s.review)] : s.review,
  };
}

/** What earlier lines left of a penalty, in the line's currency (at the rate of the stay's check-in). */
function penaltyLeft(s: LineState, penalty: Money, paidBefore: number, checkIn: string): number | null {
  return inLine(
    s,
    paidBefore === 0 ? penalty : { amount: penalty.amount - paidBefore, currency: penalty.currency },
    checkIn,
  );
}

/**
 * The key a line charging the penalty of a booking cancelled late bills (last of its keys): the penalty paid, or
 * the part of it paid so far. The line pays what it charges up to what earlier lines left; when that cannot be read
 * (no exchange rate: a person checks the line), all that is left.
 */
function penaltyPaidKey(s: LineState, b: InvoiceBooking, paidBefore: number): string {
  const penalty = b.cancellation_penalty!;
  const left = s.penaltyLeft;
  const other = penaltyCharged(s);
  const noShow = charges(s, 'NO_SHOW') ? feeTotal(s, 'NO_SHOW') : 0;
  const charged = other === null || noShow === null ? null : other + noShow;
  if (left === null || charged === null || left <= 0) return penaltyKey(b.booking_id);
  // In the penalty's currency: the part of what was left that the line pays.
  const paid = paidBefore + ((penalty.amount - paidBefore) * Math.min(charged, left)) / left;
  return paid >= penalty.amount - halfMinorUnit(penalty.currency)
    ? penaltyKey(b.booking_id)
    : `${b.booking_id}${PAID_PART}${roundMinor(paid, penalty.currency)}`;
}

/** The contract's rate of a night: its rate period, else the booking's contracted rate; null when neither. */
function contractedRate(b: InvoiceBooking, contract: InvoiceContract | undefined, night: string): Money | null {
  const periods = contract?.rate_periods ?? NO_RATE_PERIODS;
  for (let i = 0; i < periods.length; i++) {
    const p = periods[i]!;
    if (night >= p.effective_from && night <= p.effective_to) return p.rate;
  }
  return b.contracted_rate ?? null;
}

export interface InvoiceMatch {
  lines: InvoiceLineResult[];
  /** Keys this invoice bills: the caller adds them to the airline's billed set for its later invoices. */
  billed_keys: string[];
  /** The disputed total per currency. */
  disputed: Money[];
}

/** One line matched by an InvoiceMatcher, with the keys it bills first. */
export interface MatchedInvoiceLine {
  result: InvoiceLineResult;
  /** Its billed_keys that no earlier line of this invoice and no earlier invoice billed (what it adds). */
  billed_first: string[];
}

/**
 * Matches one invoice's lines one at a time, in line order, for a caller that writes them as they come: a line
 * repeating nights an earlier line of this invoice or an earlier invoice (`alreadyBilled`) billed is a
 * DUPLICATE_LINE.
 */
export class InvoiceMatcher {
  private readonly mine = new Set<string>();
  private readonly ctx: InvoiceMatchContext;
  /** The part of each booking's penalty paid so far, read from the keys billed before when first asked. */
  private paid: Map<string, number> | undefined;

  constructor(
    propertyId: string,
    index: InvoiceBookingIndex,
    private readonly alreadyBilled: ReadonlySet<string>,
    contracts: ReadonlyMap<string, InvoiceContract>,
    fx: FxTable,
  ) {
    this.ctx = { property_id: propertyId, index, billed: this, contracts, fx };
  }

  /** Billed by an earlier invoice or an earlier line of this one. */
  has(key: string): boolean {
    return this.mine.has(key) || this.alreadyBilled.has(key);
  }

  /** What earlier invoices and earlier lines of this one paid of the booking's penalty, in its currency. */
  penaltyPaid(bookingId: string): number {
    return this.paidSoFar().get(bookingId) ?? 0;
  }

  private paidSoFar(): Map<string, number> {
    // One pass over the keys billed before, only for an invoice that charges a penalty.
    if (this.paid === undefined) {
      this.paid = new Map();
      for (const k of this.alreadyBilled) notePenaltyPaid(this.paid, k);
    }
    return this.paid;
  }

  next(line: InvoiceLine): MatchedInvoiceLine {
    const result = classifyInvoiceLine(line, this.ctx);
    // A line is a DUPLICATE_LINE exactly when one of its keys was billed before: any other bills them all first.
    const first =
      result.status === 'DUPLICATE_LINE' ? result.billed_keys.filter((k) => !this.has(k)) : result.billed_keys;
    for (const k of result.billed_keys) this.mine.add(k);
    // A part of a penalty paid is the line's last key (after penaltyPaid was asked: the map is there).
    const last = result.billed_keys[result.billed_keys.length - 1];
    if (this.paid !== undefined && last !== undefined) notePenaltyPaid(this.paid, last);
    return { result, billed_first: first };
  }

  /** Every key this invoice's lines billed (also those billed before: a duplicate's). */
  billedKeys(): string[] {
    return [...this.mine];
  }
}

/**
 * Every line of one invoice, in line order (InvoiceMatcher). Pass the index (indexInvoiceBookings) when
 * matching several invoices against the same bookings.
 */
export function matchInvoiceLines(
  invoice: { property_id: string; lines: readonly InvoiceLine[] },
  bookings: InvoiceBookingIndex | readonly InvoiceBooking[],
  alreadyBilled: ReadonlySet<string>,
  contracts: ReadonlyMap<string, InvoiceContract>,
  fx: FxTable,
): InvoiceMatch {
  const index = Array.isArray(bookings)
    ? indexInvoiceBookings(bookings as readonly InvoiceBooking[])
    : (bookings as InvoiceBookingIndex);
  const matcher = new InvoiceMatcher(invoice.property_id, index, alreadyBilled, contracts, fx);
  const totals = new Map<string, number>();
  const lines = invoice.lines.map((line) => {
    const r = matcher.next(line).result;
    totals.set(r.disputed.currency, (totals.get(r.disputed.currency) ?? 0) + r.disputed.amount);
    return r;
  });
  return {
    lines,
    billed_keys: matcher.billedKeys(),
    disputed: [...totals].map(([currency, amount]) => money(amount, currency)),
  };
}

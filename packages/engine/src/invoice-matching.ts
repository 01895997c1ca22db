import type { Money, ValidationIssue } from '@crew/contracts';
import { cancellationFee } from './cancellation-terms';
import { convert, formatMoney, type FxTable } from './fx';
import {
  indexInvoiceBookings,
  INVOICE_FEE_TYPES,
  invoiceBookingOf,
  dayNumber,
  nightsOf,
  type InvoiceBooking,
  type InvoiceBookingIndex,
  type InvoiceContract,
  type InvoiceFinding,
  type InvoiceLine,
  type InvoiceLineResult,
  type InvoiceLineStatus,
} from './invoice-index';
import { halfMinorUnit, money } from './minor-units';
import { addDays } from './time';

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
  /** Keys billed before this line (billed_keys of earlier invoices of the airline and earlier lines of this one). */
  billed: { has(key: string): boolean };
  /** Contracts by contract_id as text. */
  contracts: ReadonlyMap<string, InvoiceContract>;
  fx: FxTable;
}

/** The key of a booking's night, as billed_keys carries it. */
export const billedNightKey = (bookingId: string, night: string) => `${bookingId}|${night}`;

/**
 * The nights a line charges. As many as `nights`: all its dates when it charges as many or more (the rest are
 * nights beyond its dates), else the first of its dates not billed yet (a stay split across two month-end
 * invoices may be written with the whole stay's dates on both).
 */
function billedDatesOf(
  line: InvoiceLine,
  dates: string[],
  keyOf: (d: string) => string | null,
  ctx: InvoiceMatchContext,
) {
  const n = Math.max(0, line.nights);
  if (n >= dates.length) return { billed: dates, beyond: n - dates.length };
  const fresh = dates.filter((d) => {
    const k = keyOf(d);
    return k === null || !ctx.billed.has(k);
  });
  const chosen = new Set([...fresh, ...dates.filter((d) => !fresh.includes(d))].slice(0, n));
  return { billed: dates.filter((d) => chosen.has(d)), beyond: 0 };
}

/** One line's status and disputed amount (the rules in docs/cost-control.md). */
export function classifyInvoiceLine(line: InvoiceLine, ctx: InvoiceMatchContext): InvoiceLineResult {
  const currency = line.nightly_rate.currency;
  const tolerance = halfMinorUnit(currency);
  const review: string[] = [];
  /** An amount in the line's currency (at the rate of `date`); unconverted, and flagged, without a rate. */
  const inLine = (m: Money, date: string): number => {
    const c = convert(m, currency, ctx.fx, date);
    if (c.ok) return c.money.amount;
    review.push(`${c.reason} (to read ${formatMoney(m)} in ${currency})`);
    return m.amount;
  };

  const dates = nightsOf(line.check_in_date, line.check_out_date);
  // A line of fees only (check-in = check-out) is looked up on its check-in night.
  const to = dates.length > 0 ? line.check_out_date : addDays(line.check_in_date, 1);
  const { booking: b, guest } = invoiceBookingOf(line, ctx.property_id, ctx.index, line.check_in_date, to);
  const keyOf = (d: string): string | null => (b ? billedNightKey(b.booking_id, d) : guest ? `?|${guest}|${d}` : null);
  const { billed, beyond } = billedDatesOf(line, dates, keyOf, ctx);

  const fees = line.fees ?? [];
  const feeTotal = (type?: string) =>
    fees.filter((f) => !type || f.type === type).reduce((s, f) => s + inLine(f.amount, line.check_in_date), 0);
  const charges = (type: string) => fees.some((f) => f.type === type && f.amount.amount > 0);
  const rate = line.nightly_rate.amount;
  const whole = rate * line.nights + inLine(line.taxes, line.check_in_date) + feeTotal();

  const billedKeys = billed.map(keyOf).filter((k): k is string => k !== null);
  if (b) for (const t of ['NO_SHOW', 'LATE_CANCEL'] as const) if (charges(t)) billedKeys.push(`${b.booking_id}|${t}`);

  const findings: InvoiceFinding[] = [];
  const find = (status: InvoiceFinding['status'], amount: number) =>
    findings.push({ status, disputed: money(amount, currency) });
  const done = () => findings.some((f) => WHOLE_LINE.has(f.status));

  function checkFees(
    booking: InvoiceBooking,
    contract: InvoiceContract | undefined,
    contracted: RateOf,
    stay: number,
  ): void {
    if (charges('NO_SHOW')) {
      // The part above the contract's no-show fee (none agreed: all of it).
      const fee = contract?.cancellation_terms?.no_show_fee;
      const allowed = fee ? cancellationFee(fee, contracted(booking.check_in_date), stay) : { amount: 0, currency };
      if (!allowed) review.push(`no contracted rate for ${booking.check_in_date} to price the contract's no-show fee`);
      const excess = allowed ? feeTotal('NO_SHOW') - inLine(allowed, booking.check_in_date) : 0;
      find('NO_SHOW_CHARGED', excess > tolerance ? excess : 0);
    }
    if (charges('INCIDENTAL') && contract?.incidentals_covered !== true) find('INCIDENTAL_NOT_COVERED', whole);
  }

  function checkNightsAndRates(booking: InvoiceBooking, contracted: RateOf, inStay: (night: string) => boolean): void {
    let over = 0;
    if (booking.status === 'CANCELLED') {
      // Cancelled after the deadline: the line's room-nights and late fees are the late-cancellation fee.
      const charged = rate * line.nights + feeTotal('LATE_CANCEL');
      over += charged - inLine(booking.cancellation_penalty!, booking.check_in_date);
    } else {
      const extra = billed.filter((d) => !inStay(d)).length + beyond;
      if (extra > 0) find('NIGHTS_MISMATCH', extra * rate);
      for (const night of billed) {
        if (!inStay(night)) continue;
        const agreed = contracted(night);
        if (!agreed) {
          review.push(`no contracted rate for the night of ${night}`);
          continue;
        }
        // Compared in the contract's currency at the night's exchange rate, to half a minor unit.
        const inContract = convert(line.nightly_rate, agreed.currency, ctx.fx, night);
        if (!inContract.ok) {
          review.push(`${inContract.reason} (to compare the rate of ${night} with the contract)`);
          continue;
        }
        if (inContract.money.amount - agreed.amount > halfMinorUnit(agreed.currency))
          over += rate - inLine(agreed, night);
      }
      // A late-cancellation fee on a booking not cancelled late is above anything the contract allows.
      over += feeTotal('LATE_CANCEL');
    }
    if (over > tolerance) find('RATE_MISMATCH', over);
  }

  const timelyCancelled =
    b !== null && b.status === 'CANCELLED' && !(b.cancellation_penalty && b.cancellation_penalty.amount > 0);
  if (billedKeys.some((k) => ctx.billed.has(k))) find('DUPLICATE_LINE', whole);
  else if (!b) find('NO_BOOKING', whole);
  else if (timelyCancelled) {
    // Nothing is owed on a booking cancelled in time (a line charging nothing is simply matched).
    if (whole > tolerance) find('CHARGED_AFTER_TIMELY_CANCEL', whole);
  } else {
    const contract =
      b.contract_id === null || b.contract_id === undefined ? undefined : ctx.contracts.get(`${b.contract_id}`);
    const contracted = contractedRateOf(b, contract);
    const inStay = (night: string) => night >= b.check_in_date && night < b.check_out_date;
    checkFees(b, contract, contracted, dayNumber(b.check_out_date) - dayNumber(b.check_in_date));
    if (!done()) checkNightsAndRates(b, contracted, inStay);
  }

  const status: InvoiceLineStatus = findings[0]?.status ?? 'MATCHED';
  const partial = findings.reduce((s, f) => s + f.disputed.amount, 0);
  const disputed = done() ? whole : Math.min(partial, whole);
  return {
    line_number: line.line_number,
    status,
    booking_id: b?.booking_id ?? null,
    disputed: money(Math.max(0, disputed), currency),
    nights_billed: Math.max(0, line.nights),
    billed_dates: billed,
    billed_keys: billedKeys,
    findings,
    needs_review: [...new Set(review)],
  };
}

type RateOf = (night: string) => Money | null;

/** The contract's rate of a night: its rate period, else the booking's contracted rate; null when neither. */
function contractedRateOf(b: InvoiceBooking, contract: InvoiceContract | undefined): RateOf {
  const periods = contract?.rate_periods ?? [];
  return (night: string): Money | null =>
    periods.find((p) => night >= p.effective_from && night <= p.effective_to)?.rate ?? b.contracted_rate ?? null;
}

export interface InvoiceMatch {
  lines: InvoiceLineResult[];
  /** Keys this invoice bills: the caller adds them to the airline's billed set for its later invoices. */
  billed_keys: string[];
  /** The disputed total per currency. */
  disputed: Money[];
}

/**
 * Every line of one invoice, in line order: a line repeating nights an earlier line of this invoice or an
 * earlier invoice (`alreadyBilled`) billed is a DUPLICATE_LINE. Pass the index (indexInvoiceBookings) when
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
  const mine = new Set<string>();
  const ctx: InvoiceMatchContext = {
    property_id: invoice.property_id,
    index,
    billed: { has: (k) => mine.has(k) || alreadyBilled.has(k) },
    contracts,
    fx,
  };
  const totals = new Map<string, number>();
  const lines = invoice.lines.map((line) => {
    const r = classifyInvoiceLine(line, ctx);
    for (const k of r.billed_keys) mine.add(k);
    totals.set(r.disputed.currency, (totals.get(r.disputed.currency) ?? 0) + r.disputed.amount);
    return r;
  });
  return {
    lines,
    billed_keys: [...mine],
    disputed: [...totals].map(([currency, amount]) => money(amount, currency)),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isMoney = (v: unknown): v is Money =>
  v !== null &&
  typeof v === 'object' &&
  typeof (v as Money).amount === 'number' &&
  Number.isFinite((v as Money).amount) &&
  typeof (v as Money).currency === 'string' &&
  /^[A-Z]{3}$/.test((v as Money).currency);

/**
 * What is wrong with an invoice line before matching: a line number (integer, 1 or more), a guest (employee_id
 * or guest_name), dates with check-out on or after check-in, nights (integer, 0 or more), the nightly rate and
 * taxes as Money, fees of a known type, and one currency for every amount of the line. Fields are named under
 * `at` (say '/lines/3').
 */
export function invoiceLineIssues(line: unknown, at = ''): ValidationIssue[] {
  if (line === null || typeof line !== 'object' || Array.isArray(line))
    return [{ field: at || '/', issue: 'must be an object' }];
  const l = line as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const bad = (field: string, issue: string) => issues.push({ field: `${at}/${field}`, issue });
  if (!(typeof l.line_number === 'number' && Number.isInteger(l.line_number) && l.line_number >= 1))
    bad('line_number', 'must be an integer, 1 or more');
  const named = (v: unknown) => typeof v === 'string' && v.trim().length > 0;
  if (!named(l.employee_id) && !named(l.guest_name)) bad('guest_name', 'employee_id or guest_name is required');
  for (const f of ['check_in_date', 'check_out_date'] as const)
    if (typeof l[f] !== 'string' || !DATE.test(l[f])) bad(f, 'must be a date YYYY-MM-DD');
  if (typeof l.check_in_date === 'string' && typeof l.check_out_date === 'string' && l.check_out_date < l.check_in_date)
    bad('check_out_date', 'must be on or after check_in_date');
  if (!(typeof l.nights === 'number' && Number.isInteger(l.nights) && l.nights >= 0))
    bad('nights', 'must be an integer, 0 or more');
  const currencies = new Set<string>();
  for (const f of ['nightly_rate', 'taxes'] as const) {
    if (!isMoney(l[f])) bad(f, 'must be Money: {amount, currency}');
    else currencies.add(l[f].currency);
  }
  if (l.fees !== undefined) {
    if (!Array.isArray(l.fees)) bad('fees', 'must be an array of {type, amount}');
    else
      l.fees.forEach((f: unknown, i) => {
        const fee = (f ?? {}) as Record<string, unknown>;
        if (!(INVOICE_FEE_TYPES as readonly unknown[]).includes(fee.type))
          bad(`fees/${i}/type`, `must be one of ${INVOICE_FEE_TYPES.join(', ')}`);
        if (!isMoney(fee.amount)) bad(`fees/${i}/amount`, 'must be Money: {amount, currency}');
        else currencies.add(fee.amount.currency);
      });
  }
  if (currencies.size > 1)
    bad('nightly_rate/currency', `every amount of a line is in one currency (seen ${[...currencies].join(', ')})`);
  return issues;
}

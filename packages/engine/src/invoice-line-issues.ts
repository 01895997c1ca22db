import {
  MAX_INVOICE_AMOUNT,
  MAX_INVOICE_LINE_NUMBER,
  MAX_INVOICE_NIGHTS,
  type Money,
  type ValidationIssue,
} from '@crew/contracts';
import { INVOICE_FEE_TYPES } from './invoice-index';

/* An invoice line's own rules, checked on the whole body before anything is stored or matched. */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY_ISSUE = `must be Money: {amount, currency}, the amount at most ${MAX_INVOICE_AMOUNT}`;
const isMoney = (v: unknown): v is Money =>
  v !== null &&
  typeof v === 'object' &&
  typeof (v as Money).amount === 'number' &&
  Number.isFinite((v as Money).amount) &&
  // Bounded so that what is summed of it stays finite and storable (MAX_INVOICE_AMOUNT).
  Math.abs((v as Money).amount) <= MAX_INVOICE_AMOUNT &&
  typeof (v as Money).currency === 'string' &&
  /^[A-Z]{3}$/.test((v as Money).currency);

/**
 * What is wrong with an invoice line before matching: a line number (integer, 1 to MAX_INVOICE_LINE_NUMBER), a
 * guest (employee_id or guest_name), dates with check-out on or after check-in, nights (integer, 0 to
 * MAX_INVOICE_NIGHTS), the nightly rate and taxes as Money (at most MAX_INVOICE_AMOUNT), fees of a known type, and
 * one currency for every amount of the line. Fields are named under `at` (say '/lines/3').
 */
export function invoiceLineIssues(line: unknown, at = ''): ValidationIssue[] {
  if (line === null || typeof line !== 'object' || Array.isArray(line))
    return [{ field: at || '/', issue: 'must be an object' }];
  const l = line as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (!(
    typeof l.line_number === 'number' &&
    Number.isInteger(l.line_number) &&
    l.line_number >= 1 &&
    l.line_number <= MAX_INVOICE_LINE_NUMBER
  ))
    issues.push(lineIssue(at, 'line_number', `must be an integer from 1 to ${MAX_INVOICE_LINE_NUMBER}`));
  if (!isNamed(l.employee_id) && !isNamed(l.guest_name))
    issues.push(lineIssue(at, 'guest_name', 'employee_id or guest_name is required'));
  for (const f of ['check_in_date', 'check_out_date'] as const)
    if (typeof l[f] !== 'string' || !DATE.test(l[f])) issues.push(lineIssue(at, f, 'must be a date YYYY-MM-DD'));
  if (typeof l.check_in_date === 'string' && typeof l.check_out_date === 'string' && l.check_out_date < l.check_in_date)
    issues.push(lineIssue(at, 'check_out_date', 'must be on or after check_in_date'));
  if (!(typeof l.nights === 'number' && Number.isInteger(l.nights) && l.nights >= 0 && l.nights <= MAX_INVOICE_NIGHTS))
    issues.push(lineIssue(at, 'nights', `must be an integer from 0 to ${MAX_INVOICE_NIGHTS}`));
  // The line's currencies in the order met (almost always one).
  const currencies: string[] = [];
  for (const f of ['nightly_rate', 'taxes'] as const) {
    if (!isMoney(l[f])) issues.push(lineIssue(at, f, MONEY_ISSUE));
    else addOnce(currencies, l[f].currency);
  }
  if (l.fees !== undefined) {
    if (!Array.isArray(l.fees)) issues.push(lineIssue(at, 'fees', 'must be an array of {type, amount}'));
    else
      l.fees.forEach((f: unknown, i) => {
        const fee = (f ?? {}) as Record<string, unknown>;
        if (!(INVOICE_FEE_TYPES as readonly unknown[]).includes(fee.type))
          issues.push(lineIssue(at, `fees/${i}/type`, `must be one of ${INVOICE_FEE_TYPES.join(', ')}`));
        if (!isMoney(fee.amount)) issues.push(lineIssue(at, `fees/${i}/amount`, MONEY_ISSUE));
        else addOnce(currencies, fee.amount.currency);
      });
  }
  if (currencies.length > 1)
    issues.push(
      lineIssue(
        at,
        'nightly_rate/currency',
        `every amount of a line is in one currency (seen ${currencies.join(', ')})`,
      ),
    );
  return issues;
}

const lineIssue = (at: string, field: string, issue: string): ValidationIssue => ({ field: `${at}/${field}`, issue });
function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
const isNamed = (v: unknown) => typeof v === 'string' && v.trim().length > 0;

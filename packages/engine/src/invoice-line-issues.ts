import type { Money, ValidationIssue } from '@crew/contracts';
import { INVOICE_FEE_TYPES } from './invoice-index';

/* An invoice line's own rules, checked on the whole body before anything is stored or matched. */

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
  if (!(typeof l.line_number === 'number' && Number.isInteger(l.line_number) && l.line_number >= 1))
    issues.push(lineIssue(at, 'line_number', 'must be an integer, 1 or more'));
  if (!isNamed(l.employee_id) && !isNamed(l.guest_name))
    issues.push(lineIssue(at, 'guest_name', 'employee_id or guest_name is required'));
  for (const f of ['check_in_date', 'check_out_date'] as const)
    if (typeof l[f] !== 'string' || !DATE.test(l[f])) issues.push(lineIssue(at, f, 'must be a date YYYY-MM-DD'));
  if (typeof l.check_in_date === 'string' && typeof l.check_out_date === 'string' && l.check_out_date < l.check_in_date)
    issues.push(lineIssue(at, 'check_out_date', 'must be on or after check_in_date'));
  if (!(typeof l.nights === 'number' && Number.isInteger(l.nights) && l.nights >= 0))
    issues.push(lineIssue(at, 'nights', 'must be an integer, 0 or more'));
  // The line's currencies in the order met (almost always one).
  const currencies: string[] = [];
  for (const f of ['nightly_rate', 'taxes'] as const) {
    if (!isMoney(l[f])) issues.push(lineIssue(at, f, 'must be Money: {amount, currency}'));
    else addOnce(currencies, l[f].currency);
  }
  if (l.fees !== undefined) {
    if (!Array.isArray(l.fees)) issues.push(lineIssue(at, 'fees', 'must be an array of {type, amount}'));
    else
      l.fees.forEach((f: unknown, i) => {
        const fee = (f ?? {}) as Record<string, unknown>;
        if (!(INVOICE_FEE_TYPES as readonly unknown[]).includes(fee.type))
          issues.push(lineIssue(at, `fees/${i}/type`, `must be one of ${INVOICE_FEE_TYPES.join(', ')}`));
        if (!isMoney(fee.amount)) issues.push(lineIssue(at, `fees/${i}/amount`, 'must be Money: {amount, currency}'));
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

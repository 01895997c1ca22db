import type { InvoiceLineBody, Money } from '@crew/contracts';
import type { InvoiceLineLookup } from '@crew/engine';

type InvoiceFee = NonNullable<InvoiceLineBody['fees']>[number];

/*
 * An invoice's lines as its reconciliation reads them, stored beside the body as posted: one array per field
 * (the amounts without their currency, which is the invoice's) instead of an object per line. The api has the
 * lines parsed already; the worker parses this form several times faster than the posted body, and holds no
 * object per line while it matches (measured: 38 invoices of 100k lines in all, gunzip + JSON.parse 150-200 ms
 * as posted, 50-60 ms as columns). The body as posted stays what the hotel sent, and what a release that does
 * not know this form reads.
 */

/** A line as the columns give it back: a guest field the hotel left out is null. */
export type ColumnLine = Omit<InvoiceLineBody, 'confirmation_number' | 'employee_id' | 'guest_name'> & {
  confirmation_number: string | null;
  employee_id: string | null;
  guest_name: string | null;
};

/** A fee of the line at `index`: [index, type, amount]. */
type FeeCell = [number, InvoiceFee['type'], number];

/** The stored form. A guest column no line fills is left out. */
interface LineColumns {
  line_number: number[];
  confirmation_number?: (string | null)[];
  employee_id?: (string | null)[];
  guest_name?: (string | null)[];
  check_in_date: string[];
  check_out_date: string[];
  nights: number[];
  nightly_rate: number[];
  taxes: number[];
  fees: FeeCell[];
}

const GUEST_FIELDS = ['confirmation_number', 'employee_id', 'guest_name'] as const;

/**
 * The lines as columns (JSON text), or null when an amount is in another currency than the invoice's: the
 * columns keep one currency, so such lines are read from the body as posted (the api refuses them today).
 */
export function lineColumnsText(lines: readonly InvoiceLineBody[], currency: string): string | null {
  const n = lines.length;
  const columns: LineColumns = {
    line_number: new Array<number>(n),
    check_in_date: new Array<string>(n),
    check_out_date: new Array<string>(n),
    nights: new Array<number>(n),
    nightly_rate: new Array<number>(n),
    taxes: new Array<number>(n),
    fees: [],
  };
  for (const field of GUEST_FIELDS)
    if (lines.some((l) => l[field] !== undefined && l[field] !== null))
      columns[field] = lines.map((l) => l[field] ?? null);
  for (let i = 0; i < n; i++) {
    const l = lines[i]!;
    if (l.nightly_rate.currency !== currency || l.taxes.currency !== currency) return null;
    columns.line_number[i] = l.line_number;
    columns.check_in_date[i] = l.check_in_date;
    columns.check_out_date[i] = l.check_out_date;
    columns.nights[i] = l.nights;
    columns.nightly_rate[i] = l.nightly_rate.amount;
    columns.taxes[i] = l.taxes.amount;
    for (const f of l.fees ?? []) {
      if (f.amount.currency !== currency) return null;
      columns.fees.push([i, f.type, f.amount.amount]);
    }
  }
  return JSON.stringify(columns);
}

/**
 * The lines of `lineColumnsText`, parsed now and given one at a time in their order (each a new object, which the
 * matching drops once it is done with the line). A line with fees has them in their posted order; a line without
 * has none (undefined). `lookups()` gives each line's lookup fields alone, without making the whole line.
 */
export function linesOfColumns(
  text: string,
  currency: string,
): Iterable<ColumnLine> & { lookups(): Iterable<InvoiceLineLookup> } {
  const c = JSON.parse(text) as LineColumns;
  return {
    [Symbol.iterator]: () => columnLines(c, currency),
    *lookups() {
      const confirmations = c.confirmation_number;
      for (let i = 0; i < c.line_number.length; i++)
        yield {
          confirmation_number: confirmations?.[i] ?? null,
          check_in_date: c.check_in_date[i]!,
          check_out_date: c.check_out_date[i]!,
        };
    },
  };
}

function* columnLines(c: LineColumns, currency: string): Generator<ColumnLine> {
  const money = (amount: number): Money => ({ amount, currency });
  let fee = 0;
  for (let i = 0; i < c.line_number.length; i++) {
    let fees: ColumnLine['fees'];
    while (fee < c.fees.length && c.fees[fee]![0] === i) {
      const [, type, amount] = c.fees[fee++]!;
      (fees ??= []).push({ type, amount: money(amount) });
    }
    yield {
      line_number: c.line_number[i]!,
      confirmation_number: c.confirmation_number?.[i] ?? null,
      employee_id: c.employee_id?.[i] ?? null,
      guest_name: c.guest_name?.[i] ?? null,
      check_in_date: c.check_in_date[i]!,
      check_out_date: c.check_out_date[i]!,
      nights: c.nights[i]!,
      nightly_rate: money(c.nightly_rate[i]!),
      taxes: money(c.taxes[i]!),
      fees,
    };
  }
}

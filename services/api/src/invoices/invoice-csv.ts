import { parse } from 'csv-parse/sync';
import {
  INVOICE_CSV_COLUMNS,
  INVOICE_CSV_REQUIRED_COLUMNS,
  type InvoiceCsvQuery,
  type ValidationIssue,
} from '@crew/contracts';
import { ApiError } from '@crew/platform';

/*
 * A hotel invoice sent as `text/csv`: a header row naming the columns, then one line per row. The invoice's
 * number, hotel and currency come from the query string; amounts are numbers in that currency. The rows become
 * the JSON body's lines, checked by the same rules; a fault is named by its row and column: `/rows/4/check_in_date`,
 * the row being the file line its record starts on (the header on the first line is row 1; blank lines count, and
 * a quoted cell's line breaks move the rows after it).
 */

const KNOWN = new Set<string>(INVOICE_CSV_COLUMNS);
const FEE_COLUMNS = [
  ['no_show_fee', 'NO_SHOW'],
  ['late_cancel_fee', 'LATE_CANCEL'],
  ['incidental_fee', 'INCIDENTAL'],
] as const;
const INTEGER = /^\d+$/;
const NUMBER = /^\d+(\.\d+)?$/;

/** A cell as a number when it is written as one; else the text itself, which the schema then refuses by name. */
const integerCell = (v: string): number | string => (INTEGER.test(v) ? Number(v) : v);
const amountCell = (v: string): number | string => (NUMBER.test(v) ? Number(v) : v);

export interface CsvInvoice {
  /** The body the rows make (what the JSON form would have sent). */
  body: Record<string, unknown>;
  /** A body path of a line's field → its CSV row and column (`/lines/2/fees/0/amount` → `/rows/4/incidental_fee`). */
  csvField: (field: string) => string;
}

/**
 * The file line a record starts on: csv-parse counts the lines read up to its end (`lines`), and its text
 * (`raw`, LF line breaks) holds the blank lines skipped before it, its own line breaks and its terminator.
 */
function firstLine(lines: number, raw: string): number {
  const own = raw.replace(/^(?:[ \t]*\n)+/, '').replace(/\n$/, '');
  return lines - (own.match(/\n/g)?.length ?? 0);
}

/** The rows of a CSV invoice as the JSON body; 422 when the text is no CSV or its header is wrong. */
export function csvInvoice(text: string, query: InvoiceCsvQuery): CsvInvoice {
  const missing = (['invoice_number', 'property_id', 'currency'] as const).filter((f) => !query[f]);
  if (missing.length)
    throw ApiError.validation(
      missing.map((f) => ({ field: `query.${f}`, issue: 'is required with a text/csv body' })),
      'The CSV body is not valid',
    );
  let records: string[][];
  let rowOf: number[];
  try {
    // Line breaks as LF: csv-parse counts a CRLF inside a quoted cell as two lines.
    const read = parse(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
      info: true,
      raw: true,
    }) as unknown as { record: string[]; info: { lines: number }; raw: string }[];
    records = read.map((r) => r.record);
    rowOf = read.map((r) => firstLine(r.info.lines, r.raw));
  } catch (err) {
    const e = err as { lines?: number; message?: string };
    throw ApiError.validation(
      [{ field: e.lines ? `/rows/${e.lines}` : '/', issue: `not readable as CSV: ${e.message ?? 'malformed'}` }],
      'The CSV body is not valid',
    );
  }
  const header = records[0] ?? [];
  const issues: ValidationIssue[] = [];
  header.forEach((h) => {
    if (!KNOWN.has(h)) issues.push({ field: `/header/${h}`, issue: `is not a column of an invoice line` });
  });
  for (const c of INVOICE_CSV_REQUIRED_COLUMNS)
    if (!header.includes(c)) issues.push({ field: `/header/${c}`, issue: 'is a required column' });
  if (new Set(header).size !== header.length) issues.push({ field: '/header', issue: 'names a column twice' });
  if (records.length < 2) issues.push({ field: '/rows', issue: 'at least one line is required' });
  if (issues.length) throw ApiError.validation(issues, 'The CSV body is not valid');

  const at = Object.fromEntries(header.map((h, i) => [h, i])) as Record<string, number | undefined>;
  const currency = query.currency;
  const feeColumns: string[][] = [];
  const lines = records.slice(1).map((cells) => {
    const cell = (c: string) => {
      const i = at[c];
      return i === undefined ? '' : (cells[i] ?? '');
    };
    const line: Record<string, unknown> = {
      line_number: integerCell(cell('line_number')),
      check_in_date: cell('check_in_date'),
      check_out_date: cell('check_out_date'),
      nights: integerCell(cell('nights')),
      nightly_rate: { amount: amountCell(cell('nightly_rate')), currency },
      taxes: { amount: amountCell(cell('taxes')), currency },
    };
    for (const c of ['confirmation_number', 'employee_id', 'guest_name'] as const) if (cell(c)) line[c] = cell(c);
    const fees: unknown[] = [];
    const columns: string[] = [];
    for (const [column, type] of FEE_COLUMNS)
      if (cell(column)) {
        fees.push({ type, amount: { amount: amountCell(cell(column)), currency } });
        columns.push(column);
      }
    if (fees.length) line.fees = fees;
    feeColumns.push(columns);
    return line;
  });
  const body = {
    invoice_number: query.invoice_number,
    property_id: query.property_id,
    currency,
    lines,
  };
  return {
    body,
    csvField: (field) => {
      const m = /^\/lines\/(\d+)(?:\/([a-z_]+)(?:\/(\d+))?)?/.exec(field);
      if (!m) {
        // The invoice's own fields come from the query string.
        const top = /^\/(invoice_number|property_id|currency)$/.exec(field);
        return top ? `query.${top[1]}` : field;
      }
      const row = `/rows/${rowOf[Number(m[1]) + 1] ?? Number(m[1]) + 2}`;
      if (!m[2]) return row;
      if (m[2] === 'fees')
        return `${row}/${m[3] === undefined ? 'fees' : (feeColumns[Number(m[1])]?.[Number(m[3])] ?? 'fees')}`;
      return `${row}/${m[2]}`;
    },
  };
}

import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BulkColumns } from '../bulk-types';

/** numeric: read back as a number (connect.ts parses numeric). */
type Numeric = ColumnType<number, number, number>;
type Json<T> = ColumnType<T, string, string>;

export type InvoiceStatus = 'RECONCILING' | 'RECONCILED' | 'FAILED';

export interface InvoiceTable {
  invoice_id: Generated<string>;
  airline_id: string;
  property_id: string;
  invoice_number: string;
  currency: string;
  status: InvoiceStatus;
  error: string | null;
  line_count: number;
  /** Lines per status, once RECONCILED. */
  counts: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
  total_billed: Numeric;
  total_disputed: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  reconciled_at: Date | null;
  /**
   * The dates its lines look stays up on (invoiceLookupSpan; `lines_to` exclusive), set at intake; null for an
   * invoice stored before 2026-12-01 or with a line whose dates are not calendar dates (every stay is read).
   */
  lines_from: ColumnType<string | null, string | null | undefined, never>;
  lines_to: ColumnType<string | null, string | null | undefined, never>;
  /**
   * The dates what it billed can touch (invoiceBilledSpan), set as reconciled: a later invoice from the hotel reads
   * its billed nights only when their spans meet. Null: compared with every later invoice.
   */
  billed_from: ColumnType<string | null, never, string | null>;
  billed_to: ColumnType<string | null, never, string | null>;
}
export type InvoiceRow = Selectable<InvoiceTable>;

export interface InvoicePayloadTable {
  invoice_id: string;
  /** The invoice body as posted, gzip-compressed JSON (before 2026-11-27: its lines alone, a JSON array). */
  lines_gz: Buffer;
  /**
   * Its lines as the reconciliation reads them (line-columns.ts), gzip-compressed; null for an invoice stored
   * before 2026-11-30 or with an amount in another currency than the invoice's (then the body is read).
   */
  lines_columns_gz: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
}

/** A line of an invoice: its airline and hotel are its invoice's. */
export interface InvoiceLineTable {
  invoice_id: string;
  line_number: number;
  /** Written by releases before 2026-11-28 only (null since): read the invoice's. */
  airline_id: ColumnType<string | null, never, never>;
  /** Written by releases before 2026-11-28 only (null since): read the invoice's. */
  property_id: ColumnType<string | null, never, never>;
  /** The line's check-in date (what the spend report groups disputed amounts by). */
  check_in_date: string;
  status: string;
  booking_id: string | null;
  billed_amount: Numeric;
  disputed_amount: Numeric;
  disputed_currency: string;
  findings: Json<{ status: string; disputed: { amount: number; currency: string } }[]>;
  needs_review: Json<string[]>;
  /**
   * The nights and one-time fees this line billed first (matchInvoiceLines' billed_keys less those an earlier
   * line or invoice billed): what a later line billing them again is a duplicate of. Stored without the line's
   * own booking id (`2027-03-05`, `NO_SHOW`, `LATE_CANCEL:120` for a part of a penalty paid; storedBilledKeys),
   * which booking_id holds; a line with no booking keeps its guest's keys whole, as lines stored before 2026-11-28
   * keep all theirs.
   */
  billed_keys: Json<string[]>;
}
export type InvoiceLineRow = Selectable<InvoiceLineTable>;

/* The columns each bulk write (COPY) sends, checked against the table's types. */

export const INVOICE_LINE_COLUMNS = {
  invoice_id: 'uuid',
  line_number: 'integer',
  check_in_date: 'date',
  status: 'text',
  booking_id: 'uuid',
  billed_amount: 'numeric',
  disputed_amount: 'numeric',
  disputed_currency: 'text',
  findings: 'jsonb',
  needs_review: 'jsonb',
  billed_keys: 'jsonb',
} as const satisfies BulkColumns<InvoiceLineTable>;

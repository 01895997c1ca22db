import { Type, type Static } from '@sinclair/typebox';
import { CurrencyCode, DateString, Money, PageQuery, StringEnum, Timestamp } from './common';

/*
 * Hotel invoices (folios) checked against the bookings: a hotel's invoice is posted, the worker matches each
 * line to the airline's booking night by night and gives it one status (docs/cost-control.md).
 */

export const INVOICE_FEE_TYPES = ['NO_SHOW', 'LATE_CANCEL', 'INCIDENTAL'] as const;

/** In the order they are tried: a line gets the first that applies. */
export const INVOICE_LINE_STATUSES = [
  'DUPLICATE_LINE',
  'NO_BOOKING',
  'CHARGED_AFTER_TIMELY_CANCEL',
  'NO_SHOW_CHARGED',
  'INCIDENTAL_NOT_COVERED',
  'NIGHTS_MISMATCH',
  'RATE_MISMATCH',
  'MATCHED',
] as const;
export const InvoiceLineStatusValue = StringEnum(INVOICE_LINE_STATUSES, {
  description:
    'The first rule that applies: DUPLICATE_LINE (room-nights or a one-time fee already billed, on this or an earlier invoice of the airline), NO_BOOKING, CHARGED_AFTER_TIMELY_CANCEL, NO_SHOW_CHARGED, INCIDENTAL_NOT_COVERED, NIGHTS_MISMATCH, RATE_MISMATCH (above the contracted rate, FX-aware), MATCHED',
});

export const INVOICE_STATUSES = ['RECONCILING', 'RECONCILED', 'FAILED'] as const;
export const InvoiceStatusValue = StringEnum(INVOICE_STATUSES, {
  description: 'RECONCILING until the worker has matched every line; then RECONCILED, or FAILED with `error`',
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

/** The most room-nights one line charges. */
export const MAX_INVOICE_NIGHTS = 366;

/** The largest line number: invoice_lines.line_number is a Postgres integer. */
export const MAX_INVOICE_LINE_NUMBER = 2_147_483_647;

/**
 * The largest amount on an invoice line, in any currency: a trillion, far above any charge of a hotel (a night in
 * rials is in the millions). Bounded so that what is computed from the amounts stays a finite number that
 * Postgres stores and JSON carries: a line's rate × its 366 nights at most, plus its taxes and 20 fees, summed
 * over the 200 000 lines an invoice may carry, is below 1e20 (an unbounded rate of 1e308 × 2 nights is Infinity).
 */
export const MAX_INVOICE_AMOUNT = 1e12;

/** Money on an invoice line: at most MAX_INVOICE_AMOUNT. */
export const InvoiceMoney = Type.Object(
  {
    amount: Type.Number({ minimum: 0, maximum: MAX_INVOICE_AMOUNT }),
    currency: CurrencyCode,
  },
  { additionalProperties: false, title: 'InvoiceMoney' },
);

export const InvoiceFee = Type.Object(
  { type: StringEnum(INVOICE_FEE_TYPES), amount: InvoiceMoney },
  { additionalProperties: false, title: 'InvoiceFee' },
);

export const InvoiceLineBody = Type.Object(
  {
    line_number: Type.Integer({
      minimum: 1,
      maximum: MAX_INVOICE_LINE_NUMBER,
      description: 'The hotel’s line number; unique within the invoice',
    }),
    confirmation_number: Type.Optional(
      Nullable(Type.String({ maxLength: 64, description: 'The hotel’s confirmation number; matched first' })),
    ),
    employee_id: Type.Optional(Type.String({ maxLength: 64, description: 'The guest’s employee id' })),
    guest_name: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'The guest as the hotel writes the name ("SMITH/JOHN MR", "John Smith"); one of the two is required',
      }),
    ),
    check_in_date: DateString,
    check_out_date: DateString,
    nights: Type.Integer({
      minimum: 0,
      maximum: MAX_INVOICE_NIGHTS,
      description: 'Room-nights charged (0 on a line of fees only)',
    }),
    nightly_rate: InvoiceMoney,
    taxes: InvoiceMoney,
    fees: Type.Optional(Type.Array(InvoiceFee, { maxItems: 20 })),
  },
  { additionalProperties: false, title: 'InvoiceLine' },
);
export type InvoiceLineBody = Static<typeof InvoiceLineBody>;

/** Most lines one invoice may carry (a month of a big hotel is a few thousand). */
export const MAX_INVOICE_LINES = 200_000;

export const InvoiceBody = Type.Object(
  {
    invoice_number: Type.String({ minLength: 1, maxLength: 64, description: 'Unique per hotel: a repeat is 409' }),
    property_id: Type.String({ minLength: 1, maxLength: 64, description: 'The hotel that sent the invoice' }),
    currency: {
      ...CurrencyCode,
      description: 'The invoice’s currency: every amount of every line is in it',
    },
    lines: Type.Array(InvoiceLineBody, { minItems: 1, maxItems: MAX_INVOICE_LINES }),
  },
  { additionalProperties: false, title: 'InvoiceSubmission' },
);
export type InvoiceBody = Static<typeof InvoiceBody>;

/** For a `text/csv` body: what the JSON body carries besides its lines. */
export const InvoiceCsvQuery = Type.Object(
  {
    invoice_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    property_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    currency: Type.Optional(CurrencyCode),
  },
  { additionalProperties: false },
);
export type InvoiceCsvQuery = Static<typeof InvoiceCsvQuery>;

/**
 * The columns of a `text/csv` invoice, after a header row naming them (any order; the optional ones may be
 * left out). Amounts are numbers in the invoice's `currency`; a fee column left empty charges no such fee.
 */
export const INVOICE_CSV_COLUMNS = [
  'line_number',
  'confirmation_number',
  'employee_id',
  'guest_name',
  'check_in_date',
  'check_out_date',
  'nights',
  'nightly_rate',
  'taxes',
  'no_show_fee',
  'late_cancel_fee',
  'incidental_fee',
] as const;
export const INVOICE_CSV_REQUIRED_COLUMNS = [
  'line_number',
  'check_in_date',
  'check_out_date',
  'nights',
  'nightly_rate',
  'taxes',
] as const;

export const InvoiceAccepted = Type.Object(
  { invoice_id: Uuid(), status: InvoiceStatusValue },
  { additionalProperties: false, title: 'InvoiceAccepted' },
);
export type InvoiceAccepted = Static<typeof InvoiceAccepted>;

export const InvoiceParams = Type.Object({ invoice_id: Uuid() });

export const InvoiceLineCounts = Type.Object(
  Object.fromEntries(INVOICE_LINE_STATUSES.map((s) => [s, Type.Integer({ minimum: 0 })])) as Record<
    (typeof INVOICE_LINE_STATUSES)[number],
    ReturnType<typeof Type.Integer>
  >,
  { additionalProperties: false, title: 'InvoiceLineCounts' },
);

export const Invoice = Type.Object(
  {
    invoice_id: Uuid(),
    invoice_number: Type.String(),
    property_id: Type.String(),
    currency: CurrencyCode,
    status: InvoiceStatusValue,
    error: Nullable(Type.String({ description: 'Why reconciliation FAILED' })),
    line_count: Type.Integer({ minimum: 0 }),
    counts: InvoiceLineCounts,
    total_billed: { ...Money, description: 'Every line’s nightly_rate × nights + taxes + fees' },
    total_disputed: { ...Money, description: 'The sum of the lines’ disputed amounts (0 until RECONCILED)' },
    created_at: Timestamp,
    reconciled_at: Nullable(Timestamp),
  },
  { additionalProperties: false, title: 'Invoice' },
);
export type Invoice = Static<typeof Invoice>;

export const InvoiceFinding = Type.Object(
  { status: InvoiceLineStatusValue, disputed: Money },
  { additionalProperties: false, title: 'InvoiceFinding' },
);

export const InvoiceLineResult = Type.Object(
  {
    line_number: Type.Integer(),
    status: InvoiceLineStatusValue,
    booking_id: Nullable(Uuid('The booking the line bills (null: NO_BOOKING)')),
    disputed: { ...Money, description: 'What the airline disputes of the line, in the invoice’s currency' },
    billed: { ...Money, description: 'The whole line: nightly_rate × nights + taxes + fees' },
    findings: Type.Array(InvoiceFinding, { description: 'Every rule that applies, each with its own amount' }),
    needs_review: Type.Array(Type.String(), {
      description: 'Comparisons that could not be made (no exchange rate, no contracted rate): a person checks them',
    }),
  },
  { additionalProperties: false, title: 'InvoiceLineResult' },
);
export type InvoiceLineResult = Static<typeof InvoiceLineResult>;

export const InvoiceLineList = Type.Object(
  { lines: Type.Array(InvoiceLineResult), next_cursor: Nullable(Type.String()) },
  { additionalProperties: false, title: 'InvoiceLineList' },
);

export const InvoiceLinesQuery = Type.Object(
  { status: Type.Optional(InvoiceLineStatusValue), ...PageQuery },
  { additionalProperties: false },
);
export type InvoiceLinesQuery = Static<typeof InvoiceLinesQuery>;

export const InvoiceLinesCsvQuery = Type.Object(
  { status: Type.Optional(InvoiceLineStatusValue) },
  { additionalProperties: false },
);

/** The columns of GET …/lines.csv. */
export const INVOICE_LINE_CSV_COLUMNS = [
  'line_number',
  'status',
  'booking_id',
  'disputed_amount',
  'disputed_currency',
  'billed_amount',
  'findings',
  'needs_review',
] as const;

/** An invoice's summary as the invoice.reconciled webhook event carries it. */
export const InvoiceReconciledData = Type.Object(
  {
    invoice_id: Uuid(),
    invoice_number: Type.String(),
    property_id: Type.String(),
    status: Type.Literal('RECONCILED'),
    line_count: Type.Integer({ minimum: 0 }),
    counts: InvoiceLineCounts,
    total_billed: Money,
    total_disputed: Money,
    reconciled_at: Timestamp,
  },
  { additionalProperties: false, title: 'WebhookInvoiceReconciledData' },
);

/**
 * A span of calendar dates (`YYYY-MM-DD`) an invoice's reconciliation reads by (the engine's invoice-reads.ts),
 * stored with the invoice; not part of the API.
 */
export interface DateSpan {
  from: string;
  to: string;
}

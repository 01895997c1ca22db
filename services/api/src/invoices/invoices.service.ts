import {
  checkBody,
  ErrorCode,
  INVOICE_LINE_STATUSES,
  InvoiceBody,
  type Invoice,
  type InvoiceAccepted,
  type InvoiceLineResult,
  type ValidationIssue,
} from '@crew/contracts';
import {
  gzipBytes,
  gzipJson,
  gzipText,
  invoiceRepo,
  lineColumnsText,
  outboxRepo,
  visibleInvoiceError,
  type Db,
  type DbOrTrx,
  type InvoiceLineRow,
  type InvoiceRow,
} from '@crew/db';
import { invoiceLineIssues, invoiceLineTotal, invoiceLookupSpan, roundMinor } from '@crew/engine';
import { ApiError } from '@crew/platform';
import { invoiceJob, type OutboxRelay } from '@crew/queue';

/** The most faults one refusal lists (a whole file of bad rows would otherwise answer with a file of faults). */
const MAX_ISSUES = 1000;

/**
 * Every fault of an invoice body, each named by its field (`/lines/3/check_in_date`): the schema, then the
 * rules the schema cannot say (dates in order, one currency per line and that line's currency the invoice's,
 * line numbers unique within the invoice).
 */
export function invoiceIssues(body: unknown): ValidationIssue[] {
  const checked = checkBody(InvoiceBody, body);
  const issues = checked.ok ? [] : [...checked.issues];
  const b = body as { currency?: unknown; lines?: unknown };
  if (!Array.isArray(b?.lines)) return issues;
  const seen = new Set(issues.map((i) => i.field));
  // The schema's faults per line: a rule of the engine on the same field (or a part of it) is not named twice.
  const schemaFields = new Map<string, string[]>();
  for (const i of issues) {
    const line = /^\/lines\/\d+/.exec(i.field)?.[0];
    if (line) schemaFields.set(line, [...(schemaFields.get(line) ?? []), i.field]);
  }
  const add = (i: ValidationIssue) => {
    if (!seen.has(i.field)) {
      seen.add(i.field);
      issues.push(i);
    }
  };
  const numbers = new Set<unknown>();
  b.lines.forEach((line: unknown, i) => {
    const at = `/lines/${i}`;
    const refused = schemaFields.get(at) ?? [];
    // Dates are compared only when both are dates.
    const datesRefused = refused.some((f) => /_date$/.test(f));
    for (const issue of invoiceLineIssues(line, at))
      if (!refused.some((f) => f.startsWith(issue.field) || issue.field.startsWith(f)))
        if (!(datesRefused && issue.field.endsWith('/check_out_date'))) add(issue);
    const l = (line ?? {}) as { line_number?: unknown; nightly_rate?: { currency?: unknown } };
    if (numbers.has(l.line_number)) add({ field: `${at}/line_number`, issue: 'is used by an earlier line' });
    numbers.add(l.line_number);
    const currency = l.nightly_rate?.currency;
    if (typeof b.currency === 'string' && typeof currency === 'string' && currency !== b.currency)
      add({ field: `${at}/nightly_rate/currency`, issue: `must be the invoice's currency ${b.currency}` });
  });
  if (issues.length <= MAX_ISSUES) return issues;
  return [
    ...issues.slice(0, MAX_ISSUES),
    { field: '/', issue: `and ${issues.length - MAX_ISSUES} more faults; nothing was stored` },
  ];
}

/** 422 naming every fault (at most MAX_ISSUES of them), or nothing. */
export function refuseIfInvalid(issues: ValidationIssue[], rename: (field: string) => string = (f) => f): void {
  if (issues.length === 0) return;
  throw ApiError.validation(
    issues.map((i) => ({ ...i, field: rename(i.field) })),
    'The invoice has faults; nothing was stored',
  );
}

/**
 * Stores a checked invoice as RECONCILING and queues its reconciliation (one transaction with the outbox). The
 * body is stored as posted: `sent`, the JSON bytes as received (the body the check parsed, so not serialised
 * again), or the body itself (an invoice posted as CSV); beside it, its lines as columns, which the worker reads
 * instead of parsing the body again. `answer` stores the acceptance in that transaction (Idempotency-Key), so a
 * retry after an error past the commit learns its invoice_id instead of "already posted".
 */
export async function postInvoice(
  db: Db,
  relay: OutboxRelay,
  airlineId: string,
  body: InvoiceBody,
  sent?: Buffer,
  answer?: (trx: DbOrTrx, accepted: InvoiceAccepted) => Promise<unknown>,
): Promise<InvoiceAccepted> {
  const total = roundMinor(
    body.lines.reduce((s, l) => s + invoiceLineTotal(l), 0),
    body.currency,
  );
  const columns = lineColumnsText(body.lines, body.currency);
  // The dates its reconciliation reads the stays of (the engine's invoice-reads.ts).
  const lookup = invoiceLookupSpan(body.lines);
  const [linesGz, columnsGz] = await Promise.all([
    sent ? gzipBytes(sent) : gzipJson(body),
    columns === null ? null : gzipText(columns),
  ]);
  const created = await db.transaction().execute(async (trx) => {
    const row = await invoiceRepo.createInvoice(trx, {
      airline_id: airlineId,
      property_id: body.property_id,
      invoice_number: body.invoice_number,
      currency: body.currency,
      line_count: body.lines.length,
      total_billed: total,
      lines_gz: linesGz,
      lines_columns_gz: columnsGz,
      lookup,
    });
    if (row) {
      await outboxRepo.addToOutbox(trx, [invoiceJob(airlineId, row.invoice_id)]);
      await answer?.(trx, accepted(row.invoice_id));
    }
    return row;
  });
  if (!created)
    throw ApiError.conflict(
      `Invoice ${body.invoice_number} of property ${body.property_id} was already posted`,
      ErrorCode.CONFLICT,
    );
  relay.kick();
  return accepted(created.invoice_id);
}

const accepted = (invoiceId: string): InvoiceAccepted => ({ invoice_id: invoiceId, status: 'RECONCILING' });

export async function invoiceOr404(db: Db, airlineId: string, invoiceId: string): Promise<InvoiceRow> {
  const row = await invoiceRepo.findInvoice(db, airlineId, invoiceId);
  if (!row) throw ApiError.notFound('Invoice');
  return row;
}

export function invoiceView(r: InvoiceRow): Invoice {
  const counts = Object.fromEntries(INVOICE_LINE_STATUSES.map((s) => [s, r.counts?.[s] ?? 0])) as Invoice['counts'];
  return {
    invoice_id: r.invoice_id,
    invoice_number: r.invoice_number,
    property_id: r.property_id,
    currency: r.currency,
    status: r.status,
    error: visibleInvoiceError(r.error),
    line_count: r.line_count,
    counts,
    total_billed: { amount: Number(r.total_billed), currency: r.currency },
    total_disputed: { amount: Number(r.total_disputed), currency: r.currency },
    created_at: r.created_at.toISOString(),
    reconciled_at: r.reconciled_at ? r.reconciled_at.toISOString() : null,
  };
}

export function invoiceLineView(r: InvoiceLineRow): InvoiceLineResult {
  return {
    line_number: r.line_number,
    status: r.status as InvoiceLineResult['status'],
    booking_id: r.booking_id,
    disputed: { amount: Number(r.disputed_amount), currency: r.disputed_currency },
    billed: { amount: Number(r.billed_amount), currency: r.disputed_currency },
    findings: r.findings as InvoiceLineResult['findings'],
    needs_review: r.needs_review,
  };
}

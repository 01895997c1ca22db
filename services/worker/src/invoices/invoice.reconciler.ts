import type { Job } from 'bullmq';
import {
  API_PREFIX,
  INVOICE_LINE_STATUSES,
  type InvoiceLineBody,
  type InvoiceReconciledData,
  type Static,
} from '@crew/contracts';
import {
  fxRepo,
  gunzipText,
  invoiceRepo,
  linesOfColumns,
  RECONCILIATION_FAILED,
  webhookRepo,
  type Db,
  type BillableStayRow,
  type InvoiceContractRow,
  type InvoiceRow,
  type ReconciledInvoiceLine,
} from '@crew/db';
import {
  fxTable,
  indexInvoiceBookings,
  invoiceBilledSpan,
  unsettledConfirmationKeys,
  InvoiceMatcher,
  invoiceLineTotal,
  roundMinor,
  type InvoiceLine,
  type InvoiceLineLookup,
  type InvoiceLineStatus,
  type CancellationTerms,
  type InvoiceContract,
} from '@crew/engine';
import { isDatabaseUnavailable, type Logger } from '@crew/platform';
import type { JobData } from '@crew/queue';

export type ReconcileJobData = JobData<'invoices', 'reconcile-invoice'>;

export interface InvoiceReconcilerDeps {
  db: Db;
  logger: Logger;
  /** Wakes the webhook deliverer after an invoice.reconciled event is written. */
  webhookKick?: () => void;
}

/**
 * The terms of a contract as stored: one `cancellation_terms` object, or its fields as columns of their own.
 * A contract without `incidentals_covered` does not cover incidentals.
 */
export function invoiceContract(c: InvoiceContractRow): InvoiceContract {
  const x = c.extra;
  const terms =
    (x.cancellation_terms as CancellationTerms | null | undefined) ??
    (x.cancellation_deadline || x.no_show_fee || x.late_cancellation_fee
      ? ({
          cancellation_deadline: x.cancellation_deadline,
          late_cancellation_fee: x.late_cancellation_fee ?? undefined,
          no_show_fee: x.no_show_fee ?? undefined,
        } as CancellationTerms)
      : null);
  return {
    rate_periods: c.rate_periods ?? [],
    cancellation_terms: terms,
    incidentals_covered: x.incidentals_covered === true,
  };
}

/**
 * Reconciles one posted invoice: the hotel's billable stays of the airline are indexed once, every line is
 * classified by the engine (docs/cost-control.md) and written as it is classified (one COPY: Postgres stores a
 * line while the next ones are matched), then the invoice's counts, in one transaction with the
 * invoice.reconciled event. The airline's invoices from one hotel are reconciled one at a time (lockBilling), so
 * a night billed on two invoices posted together is a duplicate once.
 */
export class InvoiceReconciler {
  constructor(private readonly deps: InvoiceReconcilerDeps) {}

  async process(job: Job<ReconcileJobData>): Promise<void> {
    const { airline_id: airlineId, invoice_id: invoiceId } = job.data;
    const log = this.deps.logger.child({ airline_id: airlineId, invoice_id: invoiceId });
    try {
      const outcome = await this.reconcile(airlineId, invoiceId);
      log.info({ outcome }, 'invoice reconciliation done');
    } catch (err) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      // An outage is retried (BullMQ's attempts); anything else would fail again the same way.
      if (isDatabaseUnavailable(err) && !last) throw err;
      // The error itself goes to the log only: the airline reads a phrase (reason).
      log.error({ err }, 'invoice reconciliation failed');
      await invoiceRepo.failInvoice(this.deps.db, invoiceId, reason(err));
    }
  }

  /**
   * A job failed for good (its attempts spent, or failed by BullMQ without running process(): stalled more often
   * than allowed) leaves its invoice FAILED with why, never RECONCILING for good. A failed attempt that is retried
   * changes nothing. The invoice sweep (stalled-invoices.ts) records a failure this could not.
   */
  async jobFailed(job: Job<ReconcileJobData>, err: Error): Promise<void> {
    const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!final) return;
    await invoiceRepo.failInvoice(
      this.deps.db,
      job.data.invoice_id,
      isDatabaseUnavailable(err) ? reason(err) : RECONCILIATION_STOPPED,
    );
  }

  /** Reconciles the invoice if it still awaits it; what happened. */
  async reconcile(airlineId: string, invoiceId: string): Promise<string> {
    const db = this.deps.db;
    const invoice = await invoiceRepo.findInvoice(db, airlineId, invoiceId);
    if (!invoice || invoice.status !== 'RECONCILING') return 'nothing to do';
    // The stays and rates are read (Postgres's work) while this process reads, decompresses and parses the lines
    // (as columns, or the body as posted for an invoice stored without them). The stays need no lock: the
    // billing lock orders invoices over the nights they bill, not over the bookings. Only the stays its lines can
    // be matched to (the engine's invoice-reads.ts): those overlapping its lines' dates now, those a confirmation
    // number names beyond them once the lines are read (usually none). An invoice stored by an earlier release has
    // no lookup span, and reads them all.
    const lookup =
      invoice.lines_from !== null && invoice.lines_to !== null
        ? { from: invoice.lines_from, to: invoice.lines_to }
        : null;
    const staysRead = invoiceRepo.billableStays(db, airlineId, invoice.property_id, lookup && { lookup });
    // Whether there is anything beyond the lines' dates to read at all (not for a hotel's first month).
    const anyBeyond = lookup ? invoiceRepo.staysBeyond(db, airlineId, invoice.property_id, lookup) : null;
    const ratesRead = fxRepo.listRates(db);
    staysRead.catch(() => undefined);
    ratesRead.catch(() => undefined);
    anyBeyond?.catch(() => undefined);
    const payload = await invoiceRepo.invoicePayload(db, invoiceId);
    if (!payload) throw new Error('the invoice’s posted lines are missing');
    const posted: PostedLines =
      'columns_gz' in payload
        ? linesOfColumns(await gunzipText(payload.columns_gz), invoice.currency)
        : postedLines(await gunzipText(payload.posted_gz));
    const stays = await staysRead;
    const fx = fxTable(await ratesRead);
    // A stay as read is a booking as the engine's matching reads it.
    const index = indexInvoiceBookings(stays);
    // Beyond the lines' dates, the stays named by the confirmation numbers those leave unsettled (usually none),
    // read while the contracts are and the transaction takes the billing lock and reads the nights billed before.
    const unsettled =
      lookup && (await anyBeyond) ? unsettledConfirmationKeys(posted.lookups(), invoice.property_id, index) : [];
    const beyondRead: Promise<BillableStayRow[]> =
      lookup && unsettled.length > 0
        ? invoiceRepo.billableStays(db, airlineId, invoice.property_id, {
            beyond: lookup,
            confirmation_keys: unsettled,
          })
        : Promise.resolve([]);
    beyondRead.catch(() => undefined);
    const contracts = await this.contracts(airlineId, stays, new Map());
    const emitted = await db.transaction().execute(async (trx) => {
      await invoiceRepo.lockBilling(trx, airlineId, invoice.property_id);
      // The nights billed before that what the stays read so far can touch; read again, wider, in the rare case
      // that stays beyond the lines' dates widen the span.
      let billedSpan = invoiceBilledSpan(lookup, stays);
      let billed = await invoiceRepo.billedKeys(trx, airlineId, invoice.property_id, billedSpan);
      const beyond = await beyondRead;
      let matchedAgainst = index;
      if (beyond.length > 0) {
        const read = [...stays, ...beyond];
        matchedAgainst = indexInvoiceBookings(read);
        await this.contracts(airlineId, beyond, contracts);
        const wider = invoiceBilledSpan(lookup, read);
        if (wider?.from !== billedSpan?.from || wider?.to !== billedSpan?.to) {
          billedSpan = wider;
          billed = await invoiceRepo.billedKeys(trx, airlineId, invoice.property_id, billedSpan);
        }
      }
      const matcher = new InvoiceMatcher(invoice.property_id, matchedAgainst, billed, contracts, fx);
      const tally = newTally();
      await invoiceRepo.insertInvoiceLines(trx, invoiceId, reconciledLines(posted, matcher, tally, invoice.currency));
      const total = roundMinor(tally.disputed, invoice.currency);
      const reconciledAt = await invoiceRepo.markReconciled(trx, invoiceId, tally.counts, total, billedSpan);
      return webhookRepo.emitEvents(trx, [reconciledEvent(invoice, tally.counts, total, reconciledAt)]);
    });
    if (emitted > 0) this.deps.webhookKick?.();
    return 'RECONCILED';
  }

  /** `into` with the contracts of the stays that it does not have yet, keyed as the matching reads them. */
  private async contracts(
    airlineId: string,
    stays: readonly BillableStayRow[],
    into: Map<string, InvoiceContract>,
  ): Promise<Map<string, InvoiceContract>> {
    const ids = new Set<number>();
    for (const s of stays) if (s.contract_id !== null && !into.has(String(s.contract_id))) ids.add(s.contract_id);
    if (ids.size === 0) return into;
    for (const c of await invoiceRepo.invoiceContracts(this.deps.db, airlineId, [...ids]))
      into.set(String(c.contract_id), invoiceContract(c));
    return into;
  }
}

/** The lines of a stored invoice: the body as posted, or (stored before 2026-11-27) its lines alone. */
function postedLines(text: string): PostedLines {
  const posted = JSON.parse(text) as { lines: InvoiceLineBody[] } | InvoiceLineBody[];
  const lines = Array.isArray(posted) ? posted : posted.lines;
  return Object.assign(lines, { lookups: () => lines });
}

/** An invoice's lines, which can also be gone through for what their stays are looked up by alone. */
type PostedLines = Iterable<InvoiceLine> & { lookups(): Iterable<InvoiceLineLookup> };

/** Why an invoice whose job ended without reconciling it FAILED, as the airline reads it (no queue internals). */
export const RECONCILIATION_STOPPED =
  'reconciliation did not finish (the worker reconciling it stopped before the end); post the invoice again under a new number or ask the operator';

/** Why an invoice FAILED, as the airline reads it: a phrase per kind of failure, never the error's own message. */
function reason(err: unknown): string {
  return isDatabaseUnavailable(err)
    ? 'the database could not be reached while reconciling; post the invoice again under a new number or ask the operator'
    : RECONCILIATION_FAILED;
}

/** What the lines add up to as they are matched: lines per status and the disputed total. */
interface ReconciliationTally {
  counts: Record<InvoiceLineStatus, number>;
  disputed: number;
}

function newTally(): ReconciliationTally {
  return {
    counts: Object.fromEntries(INVOICE_LINE_STATUSES.map((s) => [s, 0])) as Record<InvoiceLineStatus, number>,
    disputed: 0,
  };
}

/** The invoice's lines as rows, each matched when the writer asks for it; `tally` adds them up meanwhile. */
function* reconciledLines(
  lines: Iterable<InvoiceLine>,
  matcher: InvoiceMatcher,
  tally: ReconciliationTally,
  currency: string,
): Generator<ReconciledInvoiceLine> {
  for (const line of lines) {
    const { result: r, billed_first } = matcher.next(line);
    tally.counts[r.status]++;
    tally.disputed += r.disputed.amount;
    yield {
      line_number: r.line_number,
      check_in_date: line.check_in_date,
      status: r.status,
      booking_id: r.booking_id,
      billed_amount: roundMinor(invoiceLineTotal(line), currency),
      disputed_amount: r.disputed.amount,
      disputed_currency: r.disputed.currency,
      findings: r.findings,
      needs_review: r.needs_review,
      // A night billed before stays with the line that billed it first.
      billed_keys: invoiceRepo.storedBilledKeys(r.booking_id, billed_first),
    };
  }
}

function reconciledEvent(invoice: InvoiceRow, counts: ReconciliationTally['counts'], disputed: number, at: Date) {
  const data: Static<typeof InvoiceReconciledData> = {
    invoice_id: invoice.invoice_id,
    invoice_number: invoice.invoice_number,
    property_id: invoice.property_id,
    status: 'RECONCILED',
    line_count: invoice.line_count,
    counts,
    total_billed: { amount: Number(invoice.total_billed), currency: invoice.currency },
    total_disputed: { amount: disputed, currency: invoice.currency },
    reconciled_at: at.toISOString(),
  };
  const self = `${API_PREFIX}/crew/invoices/${invoice.invoice_id}`;
  return {
    airline_id: invoice.airline_id,
    type: 'invoice.reconciled',
    data,
    links: { invoice: self, lines: `${self}/lines` },
  };
}

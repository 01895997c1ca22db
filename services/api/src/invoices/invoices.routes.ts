import {
  IDEMPOTENCY_HEADER,
  INVOICE_CSV_COLUMNS,
  INVOICE_LINE_CSV_COLUMNS,
  InvoiceAccepted,
  Invoice,
  InvoiceBody,
  InvoiceCsvQuery,
  InvoiceLineList,
  InvoiceLinesCsvQuery,
  InvoiceLinesQuery,
  InvoiceParams,
  requiredScope,
} from '@crew/contracts';
import { invoiceRepo, type Db } from '@crew/db';
import {
  ApiError,
  bindLog,
  csvText,
  jsonBodyBytes,
  decodeCursor,
  encodeCursor,
  isIntegerPosition,
  errorResponses,
  route,
  type RouteSpec,
} from '@crew/platform';
import type { OutboxRelay } from '@crew/queue';
import { principal } from '../auth/guard';
import { withIdempotency } from '../bookings/idempotency';
import { sendCsv } from '../http/csv';
import { csvInvoice } from './invoice-csv';
import {
  invoiceIssues,
  invoiceLineView,
  invoiceOr404,
  invoiceView,
  postInvoice,
  refuseIfInvalid,
} from './invoices.service';

const TAGS = ['Invoices'];
const PATH = '/crew/invoices';

const CSV_BODY = `A header row, then one invoice line per row. Columns: ${INVOICE_CSV_COLUMNS.join(', ')} (line_number, check_in_date, check_out_date, nights, nightly_rate and taxes are required; the others may be left out or empty). Amounts are numbers in the invoice's currency; a fee column charges that fee (no_show_fee: NO_SHOW, late_cancel_fee: LATE_CANCEL, incidental_fee: INCIDENTAL). invoice_number, property_id and currency are query parameters. A fault is named by row (the header is row 1) and column: /rows/4/check_in_date.`;

/** Rows of the lines export per read (keyset by line number): an invoice of 100k lines is never held whole. */
const EXPORT_PAGE = 5000;

export function invoiceRoutes(db: Db, relay: OutboxRelay): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: PATH,
      operationId: 'postInvoice',
      summary: 'Post a hotel invoice (JSON or text/csv) to check every line against the bookings',
      description:
        'The invoice is checked whole: any bad line refuses it with 422 naming each bad field (`/lines/3/check_in_date`; for CSV the row and column, `/rows/5/check_in_date`), and nothing is stored. Every amount is in the invoice’s `currency`. The same `invoice_number` from the same `property_id` again is 409. Otherwise 202: the worker matches each line to a booking night by night (`status` RECONCILING → RECONCILED, or FAILED with `error`) and sends `invoice.reconciled`. For `text/csv`, `invoice_number`, `property_id` and `currency` are query parameters.',
      tags: TAGS,
      auth: requiredScope('post', PATH),
      headers: IDEMPOTENCY_HEADER,
      body: InvoiceBody,
      bodyIssues: invoiceIssues,
      csvBody: CSV_BODY,
      query: InvoiceCsvQuery,
      bodyLimit: '64mb',
      keepJsonBytes: true,
      responses: {
        202: { description: 'Accepted: the invoice is RECONCILING', schema: InvoiceAccepted },
        ...errorResponses([400, 401, 403, 409, 413, 415, 422]),
      },
      handler: async ({ req, res, body, query }) => {
        const caller = principal(res);
        const csv = csvText(req);
        if (csv === undefined && Object.keys(query).length > 0)
          throw ApiError.invalid('invoice_number, property_id and currency go in the query only with a text/csv body', [
            { field: 'query', issue: 'only with a text/csv body' },
          ]);
        return withIdempotency(
          db,
          caller.airline_id,
          'POST /crew/invoices',
          req.get('Idempotency-Key'),
          csv === undefined ? body : { csv, query },
          async (answer) => {
            let checked: InvoiceBody;
            if (csv !== undefined) {
              const parsed = csvInvoice(csv, query);
              refuseIfInvalid(invoiceIssues(parsed.body), parsed.csvField);
              checked = parsed.body as InvoiceBody;
            } else {
              // Checked whole before the handler (bodyIssues).
              checked = body;
            }
            const accepted = await postInvoice(db, relay, caller.airline_id, checked, jsonBodyBytes(req), (trx, a) =>
              answer(trx, { status: 202, body: a }),
            );
            bindLog(res, { invoice_id: accepted.invoice_id, lines: checked.lines.length });
            return { status: 202, body: accepted };
          },
        );
      },
    }),
    route({
      method: 'get',
      path: `${PATH}/:invoice_id`,
      operationId: 'getInvoice',
      summary: 'A posted invoice: its status, the count of lines per status, what it bills and what is disputed',
      description:
        '`status` RECONCILING until the worker has matched every line, then RECONCILED (or FAILED with `error`). `counts` has every line status; `total_billed` and `total_disputed` are in the invoice’s currency. Another airline’s invoice is 404.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      params: InvoiceParams,
      responses: { 200: { description: 'The invoice', schema: Invoice }, ...errorResponses([401, 403, 404]) },
      handler: async ({ res, params }) => ({
        status: 200,
        body: invoiceView(await invoiceOr404(db, principal(res).airline_id, params.invoice_id)),
      }),
    }),
    route({
      method: 'get',
      path: `${PATH}/:invoice_id/lines`,
      operationId: 'listInvoiceLines',
      summary: 'The reconciled lines of an invoice by line number, optionally of one status',
      description:
        'Each line’s status, the booking it bills and the amount disputed (in the invoice’s currency), with every rule that applies (`findings`) and what a person should check (`needs_review`). Empty while the invoice is RECONCILING. Keyset-paginated by line number.',
      tags: TAGS,
      auth: requiredScope('get', PATH),
      params: InvoiceParams,
      query: InvoiceLinesQuery,
      responses: {
        200: { description: 'A page of lines', schema: InvoiceLineList },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        const invoice = await invoiceOr404(db, principal(res).airline_id, params.invoice_id);
        const after = decodeCursor<{ l: number }>(query.cursor, (v) => isIntegerPosition(v.l))?.l ?? null;
        const limit = query.limit ?? 50;
        const rows = await invoiceRepo.linesPage(db, invoice.invoice_id, {
          status: query.status,
          afterLine: after,
          limit,
        });
        const page = rows.slice(0, limit);
        const last = page[page.length - 1];
        return {
          status: 200,
          body: {
            lines: page.map(invoiceLineView),
            next_cursor: rows.length > limit && last ? encodeCursor({ l: last.line_number }) : null,
          },
        };
      },
    }),
    route({
      method: 'get',
      path: `${PATH}/:invoice_id/lines.csv`,
      operationId: 'exportInvoiceLinesCsv',
      summary: 'The reconciled lines of an invoice as CSV (RFC 4180): every line, no pages',
      description: `Columns: ${INVOICE_LINE_CSV_COLUMNS.join(', ')}. findings is "STATUS amount; …", needs_review "; "-separated.`,
      tags: TAGS,
      auth: requiredScope('get', PATH),
      params: InvoiceParams,
      query: InvoiceLinesCsvQuery,
      responses: {
        200: { description: 'One row per line', contentType: 'text/csv' },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        const invoice = await invoiceOr404(db, principal(res).airline_id, params.invoice_id);
        // Read page by page as the client takes the rows: a large invoice is never held whole.
        async function* rows() {
          for (let after: number | null = null; ;) {
            const page = await invoiceRepo.linesPage(db, invoice.invoice_id, {
              status: query.status,
              afterLine: after,
              limit: EXPORT_PAGE,
            });
            for (const r of page.slice(0, EXPORT_PAGE)) {
              const v = invoiceLineView(r);
              yield [
                v.line_number,
                v.status,
                v.booking_id,
                v.disputed.amount,
                v.disputed.currency,
                v.billed.amount,
                v.findings.map((f) => `${f.status} ${f.disputed.amount}`).join('; '),
                v.needs_review.join('; '),
              ];
            }
            if (page.length <= EXPORT_PAGE) return;
            after = page[EXPORT_PAGE - 1]!.line_number;
          }
        }
        return sendCsv(res, `invoice-${invoice.invoice_id}-lines.csv`, INVOICE_LINE_CSV_COLUMNS, rows());
      },
    }),
  ];
}

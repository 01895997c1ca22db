import { sql, type RawBuilder } from 'kysely';
import type { BookingStatus, DateSpan, Money, RatePeriod } from '@crew/contracts';
import { copyInsert } from '../bulk';
import { copyLiteral, copyRows } from '../copy-rows';
import type { DbOrTrx } from '../database';
import { INVOICE_LINE_COLUMNS, type InvoiceLineRow, type InvoiceRow } from './invoice.table';

/*
 * Hotel invoices: the invoice as posted (its lines compressed, one row per invoice), the lines with what
 * reconciliation found and the nights and one-time fees each line billed first.
 */

export interface NewInvoice {
  airline_id: string;
  property_id: string;
  invoice_number: string;
  currency: string;
  line_count: number;
  total_billed: number;
  /** The invoice body as posted, gzip-compressed JSON (before 2026-11-27: its lines alone). */
  lines_gz: Buffer;
  /** Its lines as columns (lineColumnsText), gzip-compressed; null when they cannot be kept so. */
  lines_columns_gz: Buffer | null;
  /** The dates its lines look stays up on (invoiceLookupSpan: `to` exclusive); null to read every stay. */
  lookup: DateSpan | null;
}

/** Stores a posted invoice as RECONCILING; null when the airline already has this number from this hotel. */
export async function createInvoice(db: DbOrTrx, inv: NewInvoice): Promise<{ invoice_id: string } | null> {
  const row = await db
    .insertInto('invoices')
    .values({
      airline_id: inv.airline_id,
      property_id: inv.property_id,
      invoice_number: inv.invoice_number,
      currency: inv.currency,
      status: 'RECONCILING',
      error: null,
      line_count: inv.line_count,
      total_billed: inv.total_billed,
      reconciled_at: null,
      lines_from: inv.lookup?.from ?? null,
      lines_to: inv.lookup?.to ?? null,
    })
    .onConflict((oc) => oc.constraint('invoices_number_key').doNothing())
    .returning('invoice_id')
    .executeTakeFirst();
  if (!row) return null;
  await db
    .insertInto('invoice_payloads')
    .values({ invoice_id: row.invoice_id, lines_gz: inv.lines_gz, lines_columns_gz: inv.lines_columns_gz })
    .execute();
  return row;
}

/** The airline's invoice (another airline's is not found). */
export function findInvoice(db: DbOrTrx, airlineId: string, invoiceId: string): Promise<InvoiceRow | undefined> {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
}

/**
 * The posted lines of an invoice: as columns when it has them (only those are read), else as posted (kept after
 * reconciliation: what the hotel sent).
 */
export async function invoicePayload(
  db: DbOrTrx,
  invoiceId: string,
): Promise<{ columns_gz: Buffer } | { posted_gz: Buffer } | null> {
  const row = await db
    .selectFrom('invoice_payloads')
    .select([
      'lines_columns_gz as columns_gz',
      // The body only when there are no columns: one compressed copy of the lines crosses the wire.
      sql<Buffer | null>`case when lines_columns_gz is null then lines_gz end`.as('posted_gz'),
    ])
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (row?.columns_gz) return { columns_gz: row.columns_gz };
  return row?.posted_gz ? { posted_gz: row.posted_gz } : null;
}

/**
 * Serialises reconciliations of one airline's invoices from one hotel until the transaction ends: each reads
 * the nights billed before it, so two invoices reconciled at once must not both miss each other's nights.
 */
export async function lockBilling(trx: DbOrTrx, airlineId: string, propertyId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`invoice|${airlineId}|${propertyId}`}, 0))`.execute(trx);
}

/**
 * The keys of the nights and one-time fees the airline was billed for at the hotel (matchInvoiceLines'
 * billed_keys), from the lines of its reconciled invoices from that hotel whose billed span meets `span` (all of
 * them when `span` is null; an invoice without a span always): a key of a line's own booking stored without its
 * booking id (no '|' in it) gets it back; a whole key (stored before 2026-11-28, a guest's) is as stored.
 */
export async function billedKeys(
  db: DbOrTrx,
  airlineId: string,
  propertyId: string,
  span: DateSpan | null,
): Promise<Set<string>> {
  const meets = span
    ? sql`and (i.billed_from is null or (i.billed_from <= ${span.to}::date and i.billed_to >= ${span.from}::date))`
    : sql``;
  const r = await sql<{ key: string }>`
    select case when l.booking_id is null or position('|' in k.key) > 0 then k.key
                else l.booking_id::text || '|' || k.key end as key
      from invoices i
      join invoice_lines l on l.invoice_id = i.invoice_id
      cross join lateral jsonb_array_elements_text(l.billed_keys) as k(key)
    where i.airline_id = ${airlineId} and i.property_id = ${propertyId} and i.status = 'RECONCILED' ${meets}
      and l.billed_keys <> '[]'::jsonb`.execute(db);
  return new Set(r.rows.map((row) => row.key));
}

/** A stay the hotel bills the airline for, as invoice matching reads it. */
export interface BillableStayRow {
  booking_id: string;
  /** The hotel asked for (every stay read is at it). */
  property_id: string;
  status: BookingStatus;
  employee_id: string | null;
  guest_name: string | null;
  confirmation_number: string | null;
  check_in_date: string;
  check_out_date: string;
  contract_id: number | null;
  contracted_rate: Money | null;
  cancellation_penalty: Money | null;
}

/**
 * What an invoice's stays read is bounded by (the engine's invoice-reads.ts): the stays overlapping its lines'
 * lookup span (`to` exclusive), or, beyond that span, those whose confirmation number has one of the read keys.
 */
export type StaysBound = { lookup: DateSpan } | { beyond: DateSpan; confirmation_keys: readonly string[] };

/**
 * The airline's hotel stays at the property that the hotel invoices: booked at a configured GDS or DIRECT
 * hotel and reserved (CONFIRMED, MODIFIED), cancelled, or in any other status while the hotel still holds the
 * room (holdsRoom: NEEDS_REVIEW, FAILED, PENDING): those within the bound, or all of them. A stay prepaid
 * through an aggregator (Duffel Stays) is paid at booking and never on a hotel's invoice. The dates are the room's
 * as the supplier holds them, else the rostered stay's. `cancellation_penalty` is read from the hotel block, where a
 * cancellation after the deadline records it.
 */
export async function billableStays(
  db: DbOrTrx,
  airlineId: string,
  propertyId: string,
  bound: StaysBound | null,
): Promise<BillableStayRow[]> {
  // Read by COPY (copy-rows.ts): a hotel's stays are thousands of rows, and every invoice from it reads them.
  type Text = string | null;
  const rows = await copyRows<[string, string, Text, Text, Text, string, string, Text, Text, Text]>(
    db,
    billableStaysQuery(airlineId, propertyId, bound),
  );
  // Most stays at a hotel share a contracted rate: each distinct text is parsed once.
  const money = new Map<string, Money>();
  const moneyOf = (json: string | null): Money | null => {
    if (json === null) return null;
    let m = money.get(json);
    if (!m) money.set(json, (m = JSON.parse(json) as Money));
    return m;
  };
  return rows.map(
    ([booking_id, status, employee_id, guest_name, confirmation, checkIn, checkOut, contract, rate, penalty]) => ({
      booking_id,
      property_id: propertyId,
      status: status as BillableStayRow['status'],
      employee_id,
      guest_name,
      confirmation_number: confirmation,
      check_in_date: checkIn,
      check_out_date: checkOut,
      contract_id: contract === null ? null : Number(contract),
      contracted_rate: moneyOf(rate),
      cancellation_penalty: penalty === null ? null : (JSON.parse(penalty) as Money),
    }),
  );
}

/*
 * A stay's dates as the invoice reads compare them: the room's as the supplier holds them, else the rostered stay's,
 * byte by byte as the engine compares them. The index of stays by check-out date (bookings_hotel_stays_idx) is on
 * exactly this check-out expression.
 */
const stayCheckIn = sql`coalesce(b.hotel->>'check_in_date', left(b.checkin_time_local, 10))`;
const stayCheckOut = sql`coalesce(b.hotel->>'check_out_date', left(b.checkout_time_local, 10))`;

/**
 * Whether the hotel holds any of the airline's stays beyond the lookup span (ending by its first day, or beginning on
 * or after its end): without one, no read beyond it can find anything. Two probes of the stays' index.
 */
export async function staysBeyond(
  db: DbOrTrx,
  airlineId: string,
  propertyId: string,
  span: DateSpan,
): Promise<boolean> {
  const atHotel = sql`b.airline_id = ${airlineId} and b.type = 'HOTEL' and b.hotel->>'property_id' = ${propertyId}`;
  const movedFrom = sql`m.airline_id = ${airlineId} and m.property_id = ${propertyId}`;
  const r = await sql<{ beyond: boolean }>`
    select exists (select 1 from bookings b where ${atHotel} and ${stayCheckOut} collate "C" <= ${span.from})
        or exists (select 1 from bookings b where ${atHotel} and ${stayCheckOut} collate "C" >= ${span.to}
                     and ${stayCheckIn} collate "C" >= ${span.to})
        or exists (select 1 from hotel_moved_stays m where ${movedFrom} and m.check_out_date collate "C" <= ${span.from})
        or exists (select 1 from hotel_moved_stays m where ${movedFrom} and m.check_out_date collate "C" >= ${span.to}
                     and m.check_in_date collate "C" >= ${span.to})
       as beyond`.execute(db);
  return r.rows[0]?.beyond === true;
}

/*
 * The hotel holds a room for the booking whatever its status (the engine's holdsSupplierReservation, its hotel
 * part): a supplier reservation not cancelled, or a DIRECT hotel's confirmed rooming-list row that is not its
 * cancellation. A stay held for review (a roster cancellation awaiting a person) or whose cancellation failed is
 * still billed by the hotel. A filter on the rows the indexes find: the bounds stay the indexes'.
 */
const holdsRoom = sql`((b.hotel->>'supplier_ref' is not null
    and coalesce(b.hotel->>'supplier_status', '') <> 'CANCELLED')
  or (b.hotel->>'rooming_status' = 'CONFIRMED' and coalesce(b.hotel->>'rooming_marking', '') <> 'CANCELLED'))`;

/**
 * billableStays' query, its values written as literals (COPY takes no bind parameters). Each bound is an index's
 * (bookings_hotel_stays_idx, bookings_hotel_confirmation_idx).
 */
export function billableStaysQuery(airlineId: string, propertyId: string, bound: StaysBound | null) {
  /** The bound on stays whose dates and confirmation number are these expressions. */
  const boundOn = (checkIn: RawBuilder<unknown>, checkOut: RawBuilder<unknown>, confirmation: RawBuilder<unknown>) => {
    const overlapping = (span: DateSpan) =>
      sql`(${checkOut} collate "C" > ${copyLiteral(span.from)} and ${checkIn} collate "C" < ${copyLiteral(span.to)})`;
    return bound === null
      ? sql``
      : 'lookup' in bound
        ? sql`and ${overlapping(bound.lookup)}`
        : sql`and regexp_replace(${confirmation}, '[^0-9]', '', 'g')
                = any(array[${sql.join(bound.confirmation_keys.map(copyLiteral))}]::text[])
              and not ${overlapping(bound.beyond)}`;
  };
  const moved = sql`m.check_in_date`;
  const movedOut = sql`m.check_out_date`;
  // A stay the booking moved away from this hotel (hotel_moved_stays): its room here, cancelled, with the late fee
  // that cost; the booking itself names the hotel it moved to. The old hotel's invoice matches its lines to it.
  return sql`
    select b.booking_id, b.status, b.employee_id, b.traveller_name,
      b.hotel->>'confirmation_number', ${stayCheckIn}, ${stayCheckOut}, (b.hotel->>'contract_id')::bigint,
      b.hotel->'contracted_rate',
      nullif(b.hotel->'cancellation_penalty', 'null'::jsonb)
    from bookings b
    where b.airline_id = ${copyLiteral(airlineId)} and b.type = 'HOTEL' and b.hotel->>'property_id' = ${copyLiteral(propertyId)}
      and (b.status in ('CONFIRMED', 'MODIFIED', 'CANCELLED') or ${holdsRoom})
      and coalesce(b.hotel->>'handler_type', 'GDS') in ('GDS', 'DIRECT')
      and coalesce(b.hotel->>'supplier', 'SANDBOX') <> 'DUFFEL'
      and coalesce(b.hotel->>'check_in_date', b.checkin_time_local) is not null
      and coalesce(b.hotel->>'check_out_date', b.checkout_time_local) is not null
      ${boundOn(stayCheckIn, stayCheckOut, sql`b.hotel->>'confirmation_number'`)}
    union all
    select m.booking_id, 'CANCELLED', b.employee_id, b.traveller_name,
      m.confirmation_number, m.check_in_date, m.check_out_date, m.contract_id,
      m.contracted_rate, nullif(m.cancellation_penalty, 'null'::jsonb)
    from hotel_moved_stays m
    join bookings b on b.booking_id = m.booking_id
    where m.airline_id = ${copyLiteral(airlineId)} and m.property_id = ${copyLiteral(propertyId)}
      ${boundOn(moved, movedOut, sql`m.confirmation_number`)}`;
}

/** A contract as invoice matching reads it: its rates, and whatever terms the contract holds. */
export interface InvoiceContractRow {
  contract_id: number;
  rate_periods: RatePeriod[];
  /** The contract's other fields as stored (cancellation terms, incidentals_covered, when the contract has them). */
  extra: Record<string, unknown>;
}

export async function invoiceContracts(
  db: DbOrTrx,
  airlineId: string,
  contractIds: readonly number[],
): Promise<InvoiceContractRow[]> {
  if (contractIds.length === 0) return [];
  // to_jsonb of the row: the terms are read by name, whichever of them this database's contracts hold.
  const r = await sql<InvoiceContractRow>`
    select c.contract_id, c.rate_periods, to_jsonb(c) - 'rate_periods' as extra
    from hotel_contracts c where c.airline_id = ${airlineId} and c.contract_id = any(${[...contractIds]}::bigint[])`.execute(
    db,
  );
  return r.rows;
}

export type NewInvoiceLine = Omit<
  InvoiceLineRow,
  'findings' | 'needs_review' | 'billed_keys' | 'airline_id' | 'property_id'
> & {
  findings: unknown;
  needs_review: string[];
  /** As stored: storedBilledKeys. */
  billed_keys: string[];
};

/** A reconciled line without its invoice's id (written once for all of them). */
export type ReconciledInvoiceLine = Omit<NewInvoiceLine, 'invoice_id'>;

/**
 * A line's billed keys as stored: those of its own booking (`<booking_id>|…`) without the booking id, which the
 * line's booking_id holds (billedKeys puts it back); any other key whole.
 */
export function storedBilledKeys(bookingId: string | null, keys: readonly string[]): string[] {
  if (bookingId === null || keys.length === 0) return keys as string[];
  const prefix = `${bookingId}|`;
  return keys.map((k) => (k.startsWith(prefix) ? k.slice(prefix.length) : k));
}

/**
 * Writes an invoice's reconciled lines set-based (COPY), each taken from `lines` as the COPY goes; the invoice's
 * id is written once for all of them.
 */
export function insertInvoiceLines(
  trx: DbOrTrx,
  invoiceId: string,
  lines: Iterable<ReconciledInvoiceLine>,
): Promise<void> {
  return copyInsert(trx, 'invoice_lines', INVOICE_LINE_COLUMNS, lines, { invoice_id: invoiceId });
}

/** The invoice RECONCILED with its counts per line status and disputed total; when. */
export async function markReconciled(
  trx: DbOrTrx,
  invoiceId: string,
  counts: Record<string, number>,
  totalDisputed: number,
  billedSpan: DateSpan | null,
): Promise<Date> {
  const row = await trx
    .updateTable('invoices')
    .set({
      status: 'RECONCILED',
      error: null,
      counts: JSON.stringify(counts),
      total_disputed: totalDisputed,
      reconciled_at: sql<Date>`now()`,
      billed_from: billedSpan?.from ?? null,
      billed_to: billedSpan?.to ?? null,
    })
    .where('invoice_id', '=', invoiceId)
    .returning('reconciled_at')
    .executeTakeFirstOrThrow();
  return row.reconciled_at!;
}

/** An invoice that could not be reconciled: FAILED with why (its lines stay unreconciled, nothing is billed). */
export async function failInvoice(db: DbOrTrx, invoiceId: string, error: string): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ status: 'FAILED', error: error.slice(0, 1000) })
    .where('invoice_id', '=', invoiceId)
    .where('status', '=', 'RECONCILING')
    .execute();
}

/**
 * Invoices RECONCILING since more than `olderThanMs` before now, by the database's clock (which stamped
 * created_at), oldest first: those whose job may be gone (invoices_reconciling_idx).
 */
export function staleReconciling(
  db: DbOrTrx,
  olderThanMs: number,
  limit: number,
): Promise<{ invoice_id: string; airline_id: string }[]> {
  return db
    .selectFrom('invoices')
    .select(['invoice_id', 'airline_id'])
    .where('status', '=', 'RECONCILING')
    .where('created_at', '<', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000}::double precision)`)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** One page of an invoice's lines by line number (keyset: after `afterLine`), `limit + 1` rows. */
export function linesPage(
  db: DbOrTrx,
  invoiceId: string,
  opts: { status?: string; afterLine: number | null; limit: number },
): Promise<InvoiceLineRow[]> {
  return db
    .selectFrom('invoice_lines')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .$if(opts.status !== undefined, (q) => q.where('status', '=', opts.status!))
    .$if(opts.afterLine !== null, (q) => q.where('line_number', '>', opts.afterLine!))
    .orderBy('line_number')
    .limit(opts.limit + 1)
    .execute();
}

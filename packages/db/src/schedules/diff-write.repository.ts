import { sql, type Selectable } from 'kysely';
import type { BookingHotelBlock } from '@crew/contracts';
import type { DbOrTrx } from '../database';
import { bulkInsert, bulkUpdate, copyInsert, ofPairings, type BulkChange, type BulkRow } from '../bulk';
import {
  BOOKING_CHANGE_COLUMNS,
  BOOKING_COLUMNS,
  BOOKING_EVENT_COLUMNS,
  type BookingEventTable,
  type BookingStatus,
  type BookingTable,
} from '../bookings/booking.table';
import { readInWindow } from './window-bookings';
import { ACTION_ITEM_COLUMNS, AUDIT_EVENT_COLUMNS, type ActionItemTable, type AuditEventTable } from './schedule.table';

/*
 * What a schedule diff reads of, and writes to, the booking and action-item aggregates: the window's
 * bookings, new action items and bookings (COPY), changes to existing bookings, audit events, travellers.
 */

/** The columns of a booking the diff reads, in the order windowBookingOf decodes them. */
const WINDOW_BOOKING_NAMES = [
  'booking_id',
  'status',
  'manual_override',
  'pending_cancel',
  'retry_count',
  'traveller_email',
  'employee_id',
  'pairing_number',
  'duty_date',
  'duty_period_num',
  'leg_sequence',
  'flight_number',
  'station',
  'checkin_time_local',
  'checkout_time_local',
  'from_airport',
  'to_airport',
  'dep_time_local',
  'arr_time_local',
] as const;

/**
 * A booking dated inside a window, as the diff reads it, with the version of its row it read (`version`: its xmin,
 * which every update of the row changes): a change to the booking is written only onto that version
 * (writeDiffResult).
 */
export type WindowBooking = Pick<Selectable<BookingTable>, (typeof WINDOW_BOOKING_NAMES)[number]> & {
  version: string;
};

const FIELD_SEP = '\u001f';
/**
 * Each column as one field of one text per row: "v" + its text, or "n" for null. Fields are joined by U+001F,
 * so a row reads back as exactly as many fields as columns unless a value holds U+001F itself.
 */
const WINDOW_BOOKING_ROW_SQL = `concat_ws(chr(31), ${WINDOW_BOOKING_NAMES.map((c) => `coalesce('v' || ${c}::text, 'n')`).join(', ')}, xmin::text)`;
/** Fields per row: the columns, then the row's version. */
const WINDOW_BOOKING_FIELDS = WINDOW_BOOKING_NAMES.length + 1;

/** A nullable field: null, or its text. */
const text = (f: string): string | null => (f === 'n' ? null : f.slice(1));
const integer = (f: string): number | null => (f === 'n' ? null : Number(f.slice(1)));

/** One row's fields, in WINDOW_BOOKING_NAMES' order, as one object literal: every row gets the same shape (V8 reads such rows fast). */
function windowBookingOf(f: string[]): WindowBooking {
  return {
    booking_id: f[0]!.slice(1),
    status: f[1]!.slice(1) as BookingStatus,
    manual_override: f[2] === 'vtrue',
    pending_cancel: f[3] === 'vtrue',
    retry_count: Number(f[4]!.slice(1)),
    traveller_email: text(f[5]!),
    employee_id: text(f[6]!),
    pairing_number: text(f[7]!),
    duty_date: text(f[8]!),
    duty_period_num: integer(f[9]!),
    leg_sequence: integer(f[10]!),
    flight_number: text(f[11]!),
    station: text(f[12]!),
    checkin_time_local: text(f[13]!),
    checkout_time_local: text(f[14]!),
    from_airport: text(f[15]!),
    to_airport: text(f[16]!),
    dep_time_local: text(f[17]!),
    arr_time_local: text(f[18]!),
    version: f[19]!,
  };
}

/**
 * The airline's bookings a diff in the window reads (readInWindow: those it may reconcile, by the engine's dates),
 * one query per type. Read as one
 * text per row and split here: a big airline's 160k rows of 19 columns are decoded in about half the time of
 * 3M separate fields. A value holding the separator is read again column by column.
 */
export async function bookingsInWindow(
  db: DbOrTrx,
  airlineId: string,
  type: 'HOTEL' | 'FLIGHT',
  start: string,
  end: string,
  pairings?: readonly string[],
): Promise<WindowBooking[]> {
  const { rows } = await sql<{ r: string }>`select ${sql.raw(WINDOW_BOOKING_ROW_SQL)} as r from bookings
    where airline_id = ${airlineId} and type = ${type} and ${readInWindow({ start, end })} and ${ofPairings(pairings)}`.execute(
    db,
  );
  const out = new Array<WindowBooking>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const fields = rows[i]!.r.split(FIELD_SEP);
    if (fields.length !== WINDOW_BOOKING_FIELDS)
      return bookingsInWindowByColumn(db, airlineId, type, start, end, pairings);
    out[i] = windowBookingOf(fields);
  }
  return out;
}

/** bookingsInWindow column by column: what it stands for, and its answer when a value holds its separator. */
export function bookingsInWindowByColumn(
  db: DbOrTrx,
  airlineId: string,
  type: 'HOTEL' | 'FLIGHT',
  start: string,
  end: string,
  pairings?: readonly string[],
): Promise<WindowBooking[]> {
  return db
    .selectFrom('bookings')
    .select([...WINDOW_BOOKING_NAMES, sql<string>`xmin::text`.as('version')])
    .where('airline_id', '=', airlineId)
    .where('type', '=', type)
    .where(readInWindow({ start, end }))
    .where(ofPairings(pairings))
    .execute();
}

/**
 * The stored hotel blocks of these bookings (the few a diff's changes may move to another hotel, or cancel where
 * terms apply: the worker's bookedStays), by booking id. No ids, no query.
 */
export async function bookedHotels(
  db: DbOrTrx,
  bookingIds: readonly string[],
): Promise<Map<string, BookingHotelBlock>> {
  const out = new Map<string, BookingHotelBlock>();
  if (bookingIds.length === 0) return out;
  const rows = await db
    .selectFrom('bookings')
    .select(['booking_id', 'hotel'])
    .where('booking_id', 'in', [...bookingIds])
    .execute();
  for (const r of rows) if (r.hotel) out.set(r.booking_id, r.hotel);
  return out;
}

/** A resubmission's audit events are those of the identical roster before it: copied, and counted. */
export async function copyAuditEvents(trx: DbOrTrx, fromScheduleId: string, toScheduleId: string): Promise<number> {
  const r =
    await sql`insert into audit_events (airline_id, schedule_id, event_key, classification, message, anchors, source_rows, details)
    select airline_id, ${toScheduleId}, event_key, classification, message, anchors, source_rows, details
    from audit_events where schedule_id = ${fromScheduleId} and classification in ('DATA_QUALITY_FLAG', 'DUPLICATE_ROW') order by seq`.execute(
      trx,
    );
  return Number(r.numAffectedRows ?? 0);
}

export type ActionItemInsert = BulkRow<ActionItemTable>;
export type BookingInsert = BulkRow<BookingTable>;
/**
 * The roster's new wish for an existing booking: null keeps the stored value (see writeDiffResult). `read_version`:
 * the version of the booking's row the diff decided on (WindowBooking.version).
 */
export type BookingChange = BulkChange<BookingTable, 'booking_id'> & { read_version: string };
export type BookingEventInsert = BulkRow<BookingEventTable>;
export type AuditEventInsert = BulkRow<AuditEventTable>;

/**
 * Memory for the statements of a diff's write transaction. The statement-level foreign-key triggers
 * (migration statement_foreign_keys) keep each COPY's rows in a transition table, which went to a temporary file
 * past the default work_mem of 4 MB (a slice of 5,000 action items is about 4.3 MB): written and read back again
 * (IO:BufFileWrite and BufFileRead in 6 % of an L first submission's write samples). Ends with the transaction.
 */
export async function reserveBulkWriteMemory(trx: DbOrTrx): Promise<void> {
  await sql`set local work_mem = '32MB'`.execute(trx);
}

/**
 * Everything one diff writes (a slice at a time), in the caller's transaction (the schedule's move out of PROCESSING
 * commits with it). Returns how many of its booking changes were not written because the booking's row
 * is no longer the version the diff read: someone changed it after the diff's read (a person's PATCH, DELETE or
 * retry, a task settling). The caller must then roll the transaction back and diff again (no change is lost);
 * the rows written are locked until the transaction ends, so nobody changes them in between.
 */
export async function writeDiffResult(
  trx: DbOrTrx,
  w: {
    actionItems: readonly ActionItemInsert[];
    newBookings: readonly BookingInsert[];
    bookingChanges: readonly BookingChange[];
    bookingEvents: readonly BookingEventInsert[];
    auditEvents: readonly AuditEventInsert[];
  },
): Promise<{ changedMeanwhile: number }> {
  // COPY for the big inserts: new ids, and item keys unique within one diff (the whole diff is one
  // transaction, so a re-run after a crash starts from nothing and needs no ON CONFLICT).
  await copyInsert(trx, 'bookings', BOOKING_COLUMNS, w.newBookings);
  const changed = await bulkUpdate(
    trx,
    'bookings',
    'booking_id',
    { ...BOOKING_CHANGE_COLUMNS, read_version: 'text' },
    w.bookingChanges,
    `status = coalesce(x.status, t.status), pending_cancel = coalesce(x.pending_cancel, t.pending_cancel), review_reason = coalesce(x.review_reason, t.review_reason),
     station = coalesce(x.station, t.station), checkin_time_local = coalesce(x.checkin_time_local, t.checkin_time_local),
     checkout_time_local = coalesce(x.checkout_time_local, t.checkout_time_local), duty_date = coalesce(x.duty_date, t.duty_date),
     from_airport = coalesce(x.from_airport, t.from_airport), to_airport = coalesce(x.to_airport, t.to_airport),
     flight_number = coalesce(x.flight_number, t.flight_number), dep_time_local = coalesce(x.dep_time_local, t.dep_time_local),
     arr_time_local = coalesce(x.arr_time_local, t.arr_time_local), hotel = case when x.hotel is null then t.hotel else coalesce(t.hotel, '{}'::jsonb) || x.hotel end,
     schedule_id = coalesce(x.schedule_id, t.schedule_id), action_id = coalesce(x.action_id, t.action_id), task_ref = coalesce(x.task_ref, t.task_ref), task_operation = coalesce(x.task_operation, t.task_operation), cancellation = coalesce(x.cancellation, t.cancellation), updated_at = now()`,
    // Only onto the row version the diff read (a row updated meanwhile is compared again once its writer commits),
    // or one this very transaction wrote: the held cancellations a roster withdraws first (keepReturnedLayovers),
    // which the diff then reads live. Without that, such a booking's change would roll back and rerun for ever.
    '(t.xmin::text = x.read_version or t.xmin = pg_current_xact_id()::xid)',
  );
  const changedMeanwhile = w.bookingChanges.length - changed;
  // Nothing more is sent: the caller rolls back.
  if (changedMeanwhile > 0) return { changedMeanwhile };
  await copyInsert(trx, 'booking_events', BOOKING_EVENT_COLUMNS, w.bookingEvents);
  await copyInsert(trx, 'action_items', ACTION_ITEM_COLUMNS, w.actionItems);
  await bulkInsert(trx, 'audit_events', AUDIT_EVENT_COLUMNS, w.auditEvents, 'on conflict do nothing');
  return { changedMeanwhile: 0 };
}

/** Crew entries create or update traveller profiles (employee_id, name); the date of birth is the operator's. */
export async function upsertTravellersFromRoster(
  trx: DbOrTrx,
  airlineId: string,
  crew: { traveller_email: string; employee_id: string; name: string }[],
): Promise<void> {
  const rows = crew.map((c) => ({
    airline_id: airlineId,
    traveller_email: c.traveller_email.toLowerCase(),
    employee_id: c.employee_id,
    name: c.name,
  }));
  // Every chunk's statement is queued on the connection at once, so Postgres runs them back to back while the caller goes on.
  const statements = [];
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    statements.push(
      // Only the crew whose profile is missing or differs reach the upsert: a roster mostly repeats the profiles it
      // set before, and ON CONFLICT DO UPDATE locks every conflicting row, updated or not (an L roster's 14k
      // unchanged travellers: 74-83 ms as one upsert, 24-26 ms compared first).
      sql`insert into travellers (airline_id, traveller_email, employee_id, name)
      select x.airline_id, x.traveller_email, x.employee_id, x.name
      from json_to_recordset(${JSON.stringify(chunk)}::json) as x(airline_id uuid, traveller_email text, employee_id text, name text)
      left join travellers t on t.airline_id = x.airline_id and t.traveller_email = x.traveller_email
      where t.traveller_email is null or t.employee_id is distinct from x.employee_id or t.name is distinct from x.name
      on conflict (airline_id, traveller_email) do update set employee_id = excluded.employee_id, name = excluded.name, updated_at = now()
      where travellers.employee_id is distinct from excluded.employee_id or travellers.name is distinct from excluded.name`.execute(
        trx,
      ),
    );
  }
  await Promise.all(statements);
}

import type { RowSettlement } from '@crew/contracts';
import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import { newestFirst } from '../keyset';
import type { RoomingListRow, RoomingRowRow, RoomingRowState } from './rooming.table';

/** Serialises changes to one hotel's lists (version numbers, joining a waiting list, claiming one to send, answers). */
const HOTEL_LOCK = 7310;

export async function lockHotel(trx: DbOrTrx, hotelConfigId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(${HOTEL_LOCK}, ${hotelConfigId}::int)`.execute(trx);
}

export function findHotelConfig(db: DbOrTrx, hotelConfigId: number) {
  return db
    .selectFrom('hotel_configs')
    .select([
      'hotel_config_id',
      'airline_id',
      'name',
      'property_id',
      'base_station',
      'reservations_email',
      'handler_type',
    ])
    .where('hotel_config_id', '=', hotelConfigId)
    .executeTakeFirst();
}

export function listsOfNight(trx: DbOrTrx, hotelConfigId: number, night: string) {
  return trx
    .selectFrom('rooming_lists')
    .select(['list_id', 'version', 'status'])
    .where('hotel_config_id', '=', hotelConfigId)
    .where('night', '=', night)
    .orderBy('version')
    .execute();
}

export function findList(db: DbOrTrx, listId: string) {
  return db.selectFrom('rooming_lists').selectAll().where('list_id', '=', listId).executeTakeFirst();
}

export function lockList(trx: DbOrTrx, listId: string) {
  return trx.selectFrom('rooming_lists').selectAll().where('list_id', '=', listId).forUpdate().executeTakeFirst();
}

/** Every row of a stay, oldest first, with the status of the list carrying it. */
export function rowsOfBooking(db: DbOrTrx, bookingId: string) {
  return db
    .selectFrom('rooming_rows as r')
    .innerJoin('rooming_lists as l', 'l.list_id', 'r.list_id')
    .selectAll('r')
    .select(['l.status as list_status', 'l.night', 'l.version', 'l.hotel_config_id'])
    .where('r.booking_id', '=', bookingId)
    .orderBy('r.row_id')
    .execute();
}

/** The hotels whose lists carry rows of a stay (the stay's hotel now, and those it moved away from), in id order. */
export async function hotelsOfBooking(db: DbOrTrx, bookingId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('rooming_rows as r')
    .innerJoin('rooming_lists as l', 'l.list_id', 'r.list_id')
    .select('l.hotel_config_id')
    .distinct()
    .where('r.booking_id', '=', bookingId)
    .orderBy('l.hotel_config_id')
    .execute();
  return rows.map((r) => r.hotel_config_id);
}

/**
 * The number the hotel confirmed a stay under (its row `rowRef`'s last confirmed NEW or AMENDED row): what its
 * invoice names the stay by once the stay moved away; null when it confirmed none.
 */
export async function confirmedNumberOfStay(db: DbOrTrx, bookingId: string, rowRef: string): Promise<string | null> {
  const r = await db
    .selectFrom('rooming_rows')
    .select('hotel_confirmation_number')
    .where('booking_id', '=', bookingId)
    .where('row_ref', '=', rowRef)
    .where('marking', '<>', 'CANCELLED')
    .where('state', '=', 'CONFIRMED')
    .where('hotel_confirmation_number', 'is not', null)
    .orderBy('row_id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.hotel_confirmation_number ?? null;
}

export function rowsOfList(db: DbOrTrx, listId: string) {
  return db.selectFrom('rooming_rows').selectAll().where('list_id', '=', listId).orderBy('row_id').execute();
}

export async function insertList(
  trx: DbOrTrx,
  l: { airline_id: string; hotel_config_id: number; night: string; version: number; recipient: string; due_at: Date },
): Promise<string> {
  const r = await trx
    .insertInto('rooming_lists')
    .values({
      ...l,
      status: 'QUEUED',
      next_attempt_at: l.due_at,
      last_error: null,
      message_id: null,
      sent_at: null,
      opened_at: null,
      answered_at: null,
      expires_at: null,
    })
    .returning('list_id')
    .executeTakeFirstOrThrow();
  return r.list_id;
}

/** A waiting list leaves when its earliest row must. */
export async function pullDue(trx: DbOrTrx, listId: string, dueAt: Date): Promise<void> {
  await sql`update rooming_lists set due_at = least(due_at, ${dueAt}), next_attempt_at = least(next_attempt_at, ${dueAt}) where list_id = ${listId} and status = 'QUEUED'`.execute(
    trx,
  );
}

export function insertRow(
  trx: DbOrTrx,
  row: Omit<RoomingRowRow, 'row_id' | 'hotel_confirmation_number' | 'reject_reason' | 'answered_at'>,
) {
  return trx
    .insertInto('rooming_rows')
    .values({ ...row, hotel_confirmation_number: null, reject_reason: null, answered_at: null })
    .onConflict((oc) => oc.columns(['list_id', 'booking_id']).doUpdateSet({ ...row }))
    .execute();
}

export async function setRowState(trx: DbOrTrx, rowIds: number[], state: RoomingRowState): Promise<void> {
  if (rowIds.length) await trx.updateTable('rooming_rows').set({ state }).where('row_id', 'in', rowIds).execute();
}

/** Drops rows never sent; a waiting list left with none is deleted (nothing was ever sent with it). */
export async function dropQueuedRows(trx: DbOrTrx, rows: { row_id: number; list_id: string }[]): Promise<void> {
  if (!rows.length) return;
  await trx
    .deleteFrom('rooming_rows')
    .where(
      'row_id',
      'in',
      rows.map((r) => r.row_id),
    )
    .execute();
  await sql`delete from rooming_lists l where l.list_id in (${sql.join(rows.map((r) => r.list_id))}) and l.status = 'QUEUED'
    and not exists (select 1 from rooming_rows r where r.list_id = l.list_id)`.execute(trx);
}

/** The lists to send now: due ones waiting (or whose sender's claim lapsed), and operator resends. */
export function dueLists(db: DbOrTrx, now: Date, limit: number) {
  return db
    .selectFrom('rooming_lists')
    .select('list_id')
    .where((eb) => eb.or([eb('status', 'in', ['QUEUED', 'SENDING']), eb('resend_requested', '=', true)]))
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

export function expiredLists(db: DbOrTrx, now: Date, limit: number) {
  return db
    .selectFrom('rooming_lists')
    .select('list_id')
    .where('status', '=', 'SENT')
    .where('expires_at', '<=', now)
    .limit(limit)
    .execute();
}

export function updateList(
  trx: DbOrTrx,
  listId: string,
  patch: Partial<Omit<RoomingListRow, 'list_id' | 'seq' | 'created_at'>>,
) {
  return trx.updateTable('rooming_lists').set(patch).where('list_id', '=', listId).execute();
}

export function markOpened(db: DbOrTrx, listId: string, at: Date) {
  return db
    .updateTable('rooming_lists')
    .set({ opened_at: at })
    .where('list_id', '=', listId)
    .where('opened_at', 'is', null)
    .execute();
}

/**
 * The names a rooming list shows: the hotel's (its name, else its property id) and its airline's, and the hotel's
 * property id; null when the hotel is gone.
 */
export async function namesOfHotel(
  db: DbOrTrx,
  hotelConfigId: number,
): Promise<{ hotel: string; airline: string; property_id: string } | null> {
  const r = await db
    .selectFrom('hotel_configs as h')
    .innerJoin('airlines as a', 'a.airline_id', 'h.airline_id')
    .select(['h.name', 'h.property_id', 'a.name as airline_name'])
    .where('h.hotel_config_id', '=', hotelConfigId)
    .executeTakeFirst();
  return r ? { hotel: r.name ?? r.property_id, airline: r.airline_name, property_id: r.property_id } : null;
}

/** The airline's lists of one hotel, newest first (keyset on seq), with their rows. */
export async function listsOfHotel(
  db: DbOrTrx,
  airlineId: string,
  hotelConfigId: number,
  limit: number,
  beforeSeq: number | null,
) {
  const lists = await newestFirst(
    db
      .selectFrom('rooming_lists')
      .selectAll()
      .where('airline_id', '=', airlineId)
      .where('hotel_config_id', '=', hotelConfigId),
    limit,
    beforeSeq,
  );
  const rows = lists.length
    ? await db
        .selectFrom('rooming_rows')
        .selectAll()
        .where(
          'list_id',
          'in',
          lists.map((l) => l.list_id),
        )
        .orderBy('row_id')
        .execute()
    : [];
  return lists.map((l) => ({ ...l, rows: rows.filter((r) => r.list_id === l.list_id) }));
}

/**
 * A row's answer (the hotel's, or the deadline's), on the row. What it does to the stay's booking is the
 * caller's next step (the engine's settleRowAnswer, written by the bookings repository).
 */
export async function answerRow(
  trx: DbOrTrx,
  rowId: number,
  settlement: Pick<RowSettlement, 'state' | 'answered' | 'confirmation_number' | 'reject_reason'>,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('rooming_rows')
    .set({
      state: settlement.state,
      answered_at: settlement.answered ? at : null,
      hotel_confirmation_number: settlement.confirmation_number,
      reject_reason: settlement.reject_reason,
    })
    .where('row_id', '=', rowId)
    .execute();
}

import { BOOKING_SETTLED_CHANNEL, bookingRepo, roomingRepo, sql, type BookingRow, type DbOrTrx } from '@crew/db';
import {
  blockWithRow,
  hotelHoldsStay,
  hotelMayHoldStay,
  movedAwayHolders,
  movedAwayRowKey,
  roomingChange,
  roomingNight,
  roomingRecipientIssue,
  roomingRowRef,
  roomingStayMovedAway,
  roomingSendAt,
  roomingTaskKey,
  settleBooking,
  taskCancellationDeadline,
  versionForRow,
  withoutRoomingRow,
  type RoomingMarking,
  type RoomingTiming,
} from '@crew/engine';
import type { JobData } from '@crew/queue';

type Data = JobData<'bookings', 'execute-booking'>;
type Row = Awaited<ReturnType<typeof roomingRepo.rowsOfBooking>>[number];
type HotelConfig = NonNullable<Awaited<ReturnType<typeof roomingRepo.findHotelConfig>>>;

const ENGINE = 'engine';

/** A row on a list: the list, its night and version, and whether it leaves now. */
export interface PlacedRow {
  list_id: string;
  night: string;
  version: number;
  due: boolean;
}

/** A CANCELLED row on the list of a hotel the stay moved away from (named as its lists name it). */
export interface MovedAwayRow extends PlacedRow {
  hotel: string;
}

/** What a task did at the hotels the stay moved away from: CANCELLED rows placed, rows never sent withdrawn. */
export interface MovedAway {
  away: MovedAwayRow[];
  /** The hotels never sent the stay: their waiting rows were withdrawn (nothing to cancel, no fee). */
  withdrawn: string[];
}

/** Where a DIRECT stay's task left it: settled without a list, or its row on a list (to send now when due). */
export type Placement =
  | null
  | { kind: 'settled'; status: string; schedule_id: string | null }
  | ({ kind: 'placed'; marking: string } & PlacedRow & MovedAway);

/** Rows the hotel was told of: sent, or in a list being e-mailed right now (which counts as sent). */
const told = (r: Row) => r.state !== 'QUEUED' || r.list_status === 'SENDING';
/** Rows never sent: dropped when a change replaces them. */
const unsent = (r: Row) => r.state === 'QUEUED' && r.list_status === 'QUEUED';
/** Rows sent and not answered: superseded by a later row for the stay at the same hotel. */
const awaitingAnswer = (r: Row) => r.state === 'SENT' || (r.state === 'QUEUED' && r.list_status === 'SENDING');
const hotelName = (cfg: Pick<HotelConfig, 'name' | 'property_id'>) => cfg.name ?? cfg.property_id;

/**
 * Locks, in id order, the lists of every hotel a task of the stay may write: its hotel now and every hotel with a
 * row of it (one it moved away from). In one order, so two tasks moving stays between the same hotels never wait
 * on each other. Then the booking, which every writer of its rows locks after the hotels. Null: the task is no
 * longer the booking's current one.
 */
async function lockStay(
  trx: DbOrTrx,
  b: BookingRow,
  hotelConfigId: number | null,
  isCurrentTask: (b: BookingRow) => boolean,
): Promise<{ cur: BookingRow; rows: Row[] } | null> {
  const locked = new Set(await roomingRepo.hotelsOfBooking(trx, b.booking_id));
  if (hotelConfigId !== null) locked.add(hotelConfigId);
  for (const id of [...locked].sort((x, y) => x - y)) await roomingRepo.lockHotel(trx, id);
  const cur = await bookingRepo.lockBooking(trx, b.booking_id);
  if (!cur || !isCurrentTask(cur)) return null;
  let rows = await roomingRepo.rowsOfBooking(trx, b.booking_id);
  // A row another task of the stay placed at a further hotel before this one held the booking: that hotel too.
  const more = [...new Set(rows.map((r) => r.hotel_config_id))].filter((id) => !locked.has(id)).sort((x, y) => x - y);
  if (more.length) {
    for (const id of more) await roomingRepo.lockHotel(trx, id);
    rows = await roomingRepo.rowsOfBooking(trx, b.booking_id);
  }
  return { cur, rows };
}

/**
 * One row on the hotel's rooming list of the stay's first night: the night's list still waiting (pulled forward when
 * this row must leave sooner), else a new version after the last one sent.
 */
async function putRow(
  trx: DbOrTrx,
  cur: BookingRow,
  cfg: HotelConfig,
  row: { task_ref: string; marking: RoomingMarking; checkin: string; checkout: string; rank: string | null },
  sendAt: number,
  now: Date,
  priority: string | null,
): Promise<PlacedRow & { row_ref: string; send_at: number }> {
  const night = roomingNight(row.checkin);
  const lists = await roomingRepo.listsOfNight(trx, cfg.hotel_config_id, night);
  const target = versionForRow(lists);
  let listId: string;
  if (target.existing) {
    listId = lists.find((l) => l.version === target.version)!.list_id;
    await roomingRepo.pullDue(trx, listId, new Date(sendAt));
  } else {
    listId = await roomingRepo.insertList(trx, {
      airline_id: cur.airline_id,
      hotel_config_id: cfg.hotel_config_id,
      night,
      version: target.version,
      recipient: cfg.reservations_email!,
      due_at: new Date(sendAt),
    });
  }
  const rowRef = roomingRowRef(cur.booking_id);
  await roomingRepo.insertRow(trx, {
    list_id: listId,
    booking_id: cur.booking_id,
    task_ref: row.task_ref,
    row_ref: rowRef,
    marking: row.marking,
    state: 'QUEUED',
    priority,
    send_at: new Date(sendAt),
    crew_name: cur.traveller_name,
    rank: row.rank,
    employee_id: cur.employee_id,
    pairing_number: cur.pairing_number,
    checkin_time_local: row.checkin,
    checkout_time_local: row.checkout,
  });
  return {
    list_id: listId,
    night,
    version: target.version,
    due: sendAt <= now.getTime(),
    row_ref: rowRef,
    send_at: sendAt,
  };
}

/** The crew member's rank, as the stay's action item has it (the list shows it). */
async function rankOf(trx: DbOrTrx, cur: BookingRow, data: Data): Promise<string | null> {
  const actionId = data.action_id ?? cur.action_id;
  const item = actionId ? await bookingRepo.findActionItemById(trx, actionId) : undefined;
  return (item?.details as { rank?: string | null } | undefined)?.rank ?? null;
}

/** The moved-away rows a task placed before (a re-delivered job finds them by their own key). */
async function placedBefore(trx: DbOrTrx, rows: Row[], key: string, now: Date): Promise<MovedAwayRow[]> {
  const out: MovedAwayRow[] = [];
  for (const r of rows.filter((x) => x.task_ref === key)) {
    const cfg = await roomingRepo.findHotelConfig(trx, r.hotel_config_id);
    out.push({
      list_id: r.list_id,
      night: r.night,
      version: r.version,
      due: r.send_at <= now,
      hotel: cfg ? hotelName(cfg) : String(r.hotel_config_id),
    });
  }
  return out;
}

/**
 * The stay's rows at the hotels other than its hotel now (`hotelConfigId`: the roster moved it away from them),
 * under those hotels' locks. A hotel never sent the stay has nothing to cancel: its waiting rows are withdrawn (no
 * fee either way). A hotel that holds it (engine movedAwayHolders) gets a CANCELLED row for the stay it holds, with
 * the task's key for moved-away rows (movedAwayRowKey), leaving by the deadline of the cancellation the booking
 * stores for this task (the move's: roomingSendAt), as a DIRECT cancellation does; its rows awaiting an answer are
 * superseded by it. `issue`: such a hotel can no longer be sent its list (no address): nothing is placed.
 */
async function cancelAtHotelsMovedAwayFrom(
  trx: DbOrTrx,
  cur: BookingRow,
  rows: Row[],
  hotelConfigId: number | null,
  taskKey: string,
  data: Data,
  now: Date,
  timing: RoomingTiming,
): Promise<MovedAway | { issue: string }> {
  const others = rows.filter((r) => r.hotel_config_id !== hotelConfigId);
  if (others.length === 0) return { away: [], withdrawn: [] };
  const holders = movedAwayHolders(
    others.filter(told).map((r) => ({
      hotel_config_id: r.hotel_config_id,
      marking: r.marking,
      state: r.state === 'QUEUED' ? 'SENT' : r.state,
      checkin_time_local: r.checkin_time_local,
      checkout_time_local: r.checkout_time_local,
    })),
    hotelConfigId,
  );
  const configs = new Map<number, HotelConfig>();
  for (const h of holders) {
    const cfg = await roomingRepo.findHotelConfig(trx, h.hotel_config_id);
    const issue = cfg ? roomingRecipientIssue(cfg.reservations_email) : 'the hotel is no longer configured';
    if (!cfg || issue)
      return {
        issue: `the stay moved away from ${cfg ? hotelName(cfg) : `hotel ${h.hotel_config_id}`}, which still holds it and cannot be sent its cancellation: ${issue}`,
      };
    configs.set(h.hotel_config_id, cfg);
  }
  const dropped = others.filter(unsent);
  await roomingRepo.dropQueuedRows(trx, dropped);
  const withdrawn: string[] = [];
  for (const id of new Set(dropped.map((r) => r.hotel_config_id))) {
    if (configs.has(id)) continue;
    const cfg = await roomingRepo.findHotelConfig(trx, id);
    withdrawn.push(cfg ? hotelName(cfg) : String(id));
  }
  const cancelBy = taskCancellationDeadline(cur.cancellation, cur.task_ref);
  const rank = holders.length ? await rankOf(trx, cur, data) : null;
  const away: MovedAwayRow[] = [];
  for (const h of holders) {
    const cfg = configs.get(h.hotel_config_id)!;
    await roomingRepo.setRowState(
      trx,
      others.filter((r) => r.hotel_config_id === h.hotel_config_id && awaitingAnswer(r)).map((r) => r.row_id),
      'SUPERSEDED',
    );
    const sendAt = roomingSendAt(h.checkin_time_local, data.priority, timing, now.getTime(), cancelBy);
    const placed = await putRow(
      trx,
      cur,
      cfg,
      {
        task_ref: movedAwayRowKey(taskKey),
        marking: 'CANCELLED',
        checkin: h.checkin_time_local,
        checkout: h.checkout_time_local,
        rank,
      },
      sendAt,
      now,
      data.priority ?? null,
    );
    away.push({
      list_id: placed.list_id,
      night: placed.night,
      version: placed.version,
      due: placed.due,
      hotel: hotelName(cfg),
    });
  }
  return { away, withdrawn };
}

/**
 * A DIRECT stay's booking task, in its transaction: its row on the hotel's rooming list of the night (a new
 * version when the current one was sent), superseding rows the hotel was told of and replacing those never
 * sent; or the task's end without a list (nothing to tell the hotel, no address, no stay). A stay the roster moved
 * here from another DIRECT hotel: that hotel is told too (a CANCELLED row on its list, cancelAtHotelsMovedAwayFrom),
 * and this hotel, which never had the stay, gets a NEW row; whether a hotel holds the stay is judged on its own
 * rows. Idempotent on the task: a re-delivered job finds its rows, each by its own key. Null: the task is no
 * longer the booking's current one.
 */
export async function placeStay(
  trx: DbOrTrx,
  b: BookingRow,
  data: Data,
  now: Date,
  isCurrentTask: (b: BookingRow) => boolean,
  timing: RoomingTiming,
): Promise<Placement> {
  const hotel = b.hotel ?? {};
  const hotelConfigId = typeof hotel.hotel_config_id === 'number' ? hotel.hotel_config_id : null;
  const locked = await lockStay(trx, b, hotelConfigId, isCurrentTask);
  if (!locked) return null;
  const { cur, rows } = locked;
  const taskKey = roomingTaskKey(data.ref ?? 'task', data.attempt);
  const again = rows.find((r) => r.task_ref === taskKey);
  // A re-delivered job: its rows are on their lists already.
  if (again)
    return {
      kind: 'placed',
      list_id: again.list_id,
      night: again.night,
      version: again.version,
      marking: again.marking,
      due: again.send_at <= now,
      away: await placedBefore(trx, rows, movedAwayRowKey(taskKey), now),
      withdrawn: [],
    };

  const settle = async (status: 'CANCELLED' | 'NEEDS_REVIEW', reason: string) => {
    const { item } = await bookingRepo.writeSettlement(
      trx,
      cur.booking_id,
      settleBooking(
        { status, reason },
        { actor: ENGINE, actionId: data.action_id ?? cur.action_id, urgency: { task: data.priority, orItem: false } },
      ),
    );
    return { kind: 'settled' as const, status, schedule_id: item?.schedule_id ?? null };
  };
  const cfg = hotelConfigId !== null ? await roomingRepo.findHotelConfig(trx, hotelConfigId) : undefined;
  if (!cfg) return settle('NEEDS_REVIEW', 'the booking names no configured DIRECT hotel');

  // This hotel's rows only: the stay's rows at a hotel it moved away from say nothing of what this one holds.
  const mine = rows.filter((r) => r.hotel_config_id === cfg.hotel_config_id);
  // A row in a list being e-mailed right now counts as sent.
  const toldHere = mine.filter(told);
  const sent = toldHere.map((r) => ({ marking: r.marking, state: r.state === 'QUEUED' ? ('SENT' as const) : r.state }));
  const operation = data.operation ?? 'BOOK';
  const change = roomingChange(operation, hotelHoldsStay(sent), hotelMayHoldStay(sent));
  // Rows never sent are replaced by this change; sent, unanswered ones are superseded by it.
  await roomingRepo.dropQueuedRows(trx, mine.filter(unsent));
  if (change.marking === null) return settle('CANCELLED', change.reason);
  const issue = roomingRecipientIssue(cfg.reservations_email);
  if (issue) return settle('NEEDS_REVIEW', issue);
  // A booking or change of a stay that moved here: the hotels it moved away from are told first.
  const moved: MovedAway | { issue: string } =
    operation === 'CANCEL'
      ? { away: [], withdrawn: [] }
      : await cancelAtHotelsMovedAwayFrom(trx, cur, rows, cfg.hotel_config_id, taskKey, data, now, timing);
  if ('issue' in moved) return settle('NEEDS_REVIEW', moved.issue);
  await roomingRepo.setRowState(
    trx,
    mine.filter(awaitingAnswer).map((r) => r.row_id),
    'SUPERSEDED',
  );

  // A cancellation names the stay the hotel holds; a booking or amendment the stay asked for now.
  const lastHeld = [...toldHere].reverse().find((r) => r.marking !== 'CANCELLED');
  const checkin =
    change.marking === 'CANCELLED' ? (lastHeld?.checkin_time_local ?? cur.checkin_time_local) : cur.checkin_time_local;
  const checkout =
    change.marking === 'CANCELLED'
      ? (lastHeld?.checkout_time_local ?? cur.checkout_time_local)
      : cur.checkout_time_local;
  if (!checkin || !checkout) return settle('NEEDS_REVIEW', 'the booking names no stay to put on a rooming list');
  // A cancellation under the contract's terms reaches the hotel by its deadline, whatever the batch.
  const cancelBy = change.marking === 'CANCELLED' ? taskCancellationDeadline(cur.cancellation, cur.task_ref) : null;
  const sendAt = roomingSendAt(checkin, data.priority, timing, now.getTime(), cancelBy);
  const placed = await putRow(
    trx,
    cur,
    cfg,
    { task_ref: taskKey, marking: change.marking, checkin, checkout, rank: await rankOf(trx, cur, data) },
    sendAt,
    now,
    data.priority ?? null,
  );
  await bookingRepo.updateBooking(
    trx,
    cur.booking_id,
    {
      status: 'PENDING',
      hotel: blockWithRow(cur.hotel ?? {}, { ...placed, marking: change.marking }),
    },
    {
      reason: `${change.marking} row ${placed.row_ref} on the rooming list of ${placed.night} (version ${placed.version}), to be sent ${placed.due ? 'now' : `at ${new Date(sendAt).toISOString()}`}`,
      actor: ENGINE,
    },
  );
  // The task is done though the booking stays PENDING: wake an api call waiting for it (a DELETE, say).
  await sql`select pg_notify(${BOOKING_SETTLED_CHANNEL}, ${cur.booking_id})`.execute(trx);
  return {
    kind: 'placed',
    list_id: placed.list_id,
    night: placed.night,
    version: placed.version,
    marking: change.marking,
    due: placed.due,
    ...moved,
  };
}

/**
 * A DIRECT hotel's stay the roster moved to a supplier's hotel (engine roomingStayMovedAway), before the supplier
 * books the new room, in its own transaction: the old hotel gets its CANCELLED row (cancelAtHotelsMovedAwayFrom, by
 * the move's deadline), and the booking's block drops that hotel's row and number, which the diff's merge left on
 * it, so the supplier's room is the block's. Once done, the block no longer carries the row: a re-delivered job, or
 * a retry after the supplier failed, places nothing again. `issue`: the old hotel cannot be sent its list, and the
 * task ends in review with nothing placed nor booked. Null: the task is no longer the booking's current one.
 */
export async function cancelStayMovedAway(
  trx: DbOrTrx,
  b: BookingRow,
  data: Data,
  now: Date,
  isCurrentTask: (b: BookingRow) => boolean,
  timing: RoomingTiming,
): Promise<MovedAway | { issue: string } | null> {
  const hotelConfigId = typeof b.hotel?.hotel_config_id === 'number' ? b.hotel.hotel_config_id : null;
  const locked = await lockStay(trx, b, hotelConfigId, isCurrentTask);
  if (!locked) return null;
  const { cur, rows } = locked;
  if (!roomingStayMovedAway(cur.hotel, data.operation)) return { away: [], withdrawn: [] };
  const taskKey = roomingTaskKey(data.ref ?? 'task', data.attempt);
  const moved = await cancelAtHotelsMovedAwayFrom(trx, cur, rows, hotelConfigId, taskKey, data, now, timing);
  if ('issue' in moved) return moved;
  const told = moved.away.map(
    (a) => `CANCELLED row on the rooming list of ${a.night} (version ${a.version}) of ${a.hotel}`,
  );
  await bookingRepo.updateBooking(
    trx,
    cur.booking_id,
    { status: cur.status, hotel: withoutRoomingRow(cur.hotel ?? {}) },
    {
      reason: `the stay moved away from its DIRECT hotel: ${told.length ? told.join('; ') : 'no hotel still held it'}`,
      actor: ENGINE,
    },
  );
  return moved;
}

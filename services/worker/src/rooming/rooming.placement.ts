import { BOOKING_SETTLED_CHANNEL, bookingRepo, roomingRepo, sql, type BookingRow, type DbOrTrx } from '@crew/db';
import {
  hotelHoldsStay,
  hotelMayHoldStay,
  roomingChange,
  roomingNight,
  roomingRecipientIssue,
  roomingRowRef,
  roomingSendAt,
  roomingTaskKey,
  settleBooking,
  taskCancellationDeadline,
  versionForRow,
  type RoomingTiming,
} from '@crew/engine';
import type { JobData } from '@crew/queue';

type Data = JobData<'bookings', 'execute-booking'>;

const ENGINE = 'engine';

/** Where a DIRECT stay's task left it: settled without a list, or its row on a list (to send now when due). */
export type Placement =
  | null
  | { kind: 'settled'; status: string; schedule_id: string | null }
  | { kind: 'placed'; list_id: string; night: string; version: number; marking: string; due: boolean };

/**
 * A DIRECT stay's booking task, in its transaction: its row on the hotel's rooming list of the night (a new
 * version when the current one was sent), superseding rows the hotel was told of and replacing those never
 * sent; or the task's end without a list (nothing to tell the hotel, no address, no stay). Idempotent on the
 * task: a re-delivered job finds its row. Null: the task is no longer the booking's current one.
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
  if (hotelConfigId !== null) await roomingRepo.lockHotel(trx, hotelConfigId);
  const cur = await bookingRepo.lockBooking(trx, b.booking_id);
  if (!cur || !isCurrentTask(cur)) return null;
  const taskKey = roomingTaskKey(data.ref, data.attempt);
  const rows = await roomingRepo.rowsOfBooking(trx, b.booking_id);
  const again = rows.find((r) => r.task_ref === taskKey);
  // A re-delivered job: its row is on a list already.
  if (again)
    return {
      kind: 'placed',
      list_id: again.list_id,
      night: again.night,
      version: again.version,
      marking: again.marking,
      due: again.send_at <= now,
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

  // A row in a list being e-mailed right now counts as sent.
  const told = rows.filter((r) => r.state !== 'QUEUED' || r.list_status === 'SENDING');
  const sent = told.map((r) => ({ marking: r.marking, state: r.state === 'QUEUED' ? ('SENT' as const) : r.state }));
  const operation = data.operation ?? 'BOOK';
  const change = roomingChange(operation, hotelHoldsStay(sent), hotelMayHoldStay(sent));
  // Rows never sent are replaced by this change; sent, unanswered ones are superseded by it.
  await roomingRepo.dropQueuedRows(
    trx,
    rows.filter((r) => r.state === 'QUEUED' && r.list_status === 'QUEUED'),
  );
  if (change.marking === null) return settle('CANCELLED', change.reason);
  const issue = roomingRecipientIssue(cfg.reservations_email);
  if (issue) return settle('NEEDS_REVIEW', issue);
  await roomingRepo.setRowState(
    trx,
    rows
      .filter((r) => r.state === 'SENT' || (r.state === 'QUEUED' && r.list_status === 'SENDING'))
      .map((r) => r.row_id),
    'SUPERSEDED',
  );

  // A cancellation names the stay the hotel holds; a booking or amendment the stay asked for now.
  const lastHeld = [...told].reverse().find((r) => r.marking !== 'CANCELLED');
  const checkin =
    change.marking === 'CANCELLED' ? (lastHeld?.checkin_time_local ?? cur.checkin_time_local) : cur.checkin_time_local;
  const checkout =
    change.marking === 'CANCELLED'
      ? (lastHeld?.checkout_time_local ?? cur.checkout_time_local)
      : cur.checkout_time_local;
  if (!checkin || !checkout) return settle('NEEDS_REVIEW', 'the booking names no stay to put on a rooming list');
  const night = roomingNight(checkin);
  // A cancellation under the contract's terms reaches the hotel by its deadline, whatever the batch.
  const cancelBy = change.marking === 'CANCELLED' ? taskCancellationDeadline(cur.cancellation, cur.task_ref) : null;
  const sendAt = roomingSendAt(checkin, data.priority, timing, now.getTime(), cancelBy);
  const target = versionForRow(await roomingRepo.listsOfNight(trx, cfg.hotel_config_id, night));
  let listId: string;
  if (target.existing) {
    listId = (await roomingRepo.listsOfNight(trx, cfg.hotel_config_id, night)).find(
      (l) => l.version === target.version,
    )!.list_id;
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
  const actionId = data.action_id ?? cur.action_id;
  const item = actionId ? await bookingRepo.findActionItemById(trx, actionId) : undefined;
  const rank = (item?.details as { rank?: string | null } | undefined)?.rank ?? null;
  const rowRef = roomingRowRef(cur.booking_id);
  await roomingRepo.insertRow(trx, {
    list_id: listId,
    booking_id: cur.booking_id,
    task_ref: taskKey,
    row_ref: rowRef,
    marking: change.marking,
    state: 'QUEUED',
    priority: data.priority ?? null,
    send_at: new Date(sendAt),
    crew_name: cur.traveller_name,
    rank,
    employee_id: cur.employee_id,
    pairing_number: cur.pairing_number,
    checkin_time_local: checkin,
    checkout_time_local: checkout,
  });
  await bookingRepo.updateBooking(
    trx,
    cur.booking_id,
    {
      status: 'PENDING',
      hotel: {
        ...(cur.hotel ?? {}),
        rooming_ref: rowRef,
        rooming_status: 'QUEUED',
        rooming_marking: change.marking,
        rooming_list_id: listId,
        rooming_list_version: target.version,
      },
    },
    {
      reason: `${change.marking} row ${rowRef} on the rooming list of ${night} (version ${target.version}), to be sent ${sendAt <= now.getTime() ? 'now' : `at ${new Date(sendAt).toISOString()}`}`,
      actor: ENGINE,
    },
  );
  // The task is done though the booking stays PENDING: wake an api call waiting for it (a DELETE, say).
  await sql`select pg_notify(${BOOKING_SETTLED_CHANNEL}, ${cur.booking_id})`.execute(trx);
  return {
    kind: 'placed',
    list_id: listId,
    night,
    version: target.version,
    marking: change.marking,
    due: sendAt <= now.getTime(),
  };
}

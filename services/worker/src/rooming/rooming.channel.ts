import {
  BOOKING_SETTLED_CHANNEL,
  bookingRepo,
  scheduleLifecycleRepo,
  roomingRepo,
  sql,
  type BookingRow,
  type Db,
  type DbOrTrx,
} from '@crew/db';
import {
  answerDeadline,
  hotelHoldsStay,
  roomingChange,
  roomingNight,
  roomingRecipientIssue,
  roomingRowRef,
  roomingSendAt,
  rowSettlement,
  settleBooking,
  settleRowAnswer,
  versionForRow,
  type RoomingTiming,
} from '@crew/engine';
import { roomingLinkKey, signRoomingLink, type Config, type Logger } from '@crew/platform';
import type { JobData } from '@crew/queue';
import type { Mailer } from './rooming.mail';

type Data = JobData<'bookings', 'execute-booking'>;

export interface RoomingDeps {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  config: Pick<Config, 'publicApiUrl' | 'roomingLeadHours' | 'roomingAnswerHours' | 'roomingPollMs' | 'opsToken'>;
  now?: () => Date;
}

/** How long a worker holds a list it is e-mailing before another may try (it died mid-send). */
const SEND_LEASE_MS = 2 * 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;
const ENGINE = 'engine';
const MS_PER_HOUR = 3_600_000;

/** The path of the hotel confirmation page (served by the api, outside /api/v1: the link is the credential). */
export const CONFIRMATION_PATH = '/hotel/rooming-lists';

/**
 * The booking channel of DIRECT hotels: a stay becomes a row on the hotel's rooming list instead of a
 * supplier call. The booking task ends once the row is on the list (after the list was e-mailed, when it is
 * due now); the booking stays PENDING until the hotel answers on the confirmation page (api), or NEEDS_REVIEW
 * when it does not answer in time. Lists wait in Postgres for their send time and for the SMTP server.
 */
export class RoomingChannel {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private again = false;
  private readonly key: Buffer;
  private readonly timing: RoomingTiming;

  constructor(private readonly deps: RoomingDeps) {
    this.key = roomingLinkKey(deps.config.opsToken);
    this.timing = { leadHours: deps.config.roomingLeadHours, answerHours: deps.config.roomingAnswerHours };
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** A DIRECT hotel's stay (the engine chose a hotel outside the GDS inventory). */
  handles(b: BookingRow): boolean {
    return b.type === 'HOTEL' && (b.hotel as { handler_type?: string } | null)?.handler_type === 'DIRECT';
  }

  // ---- the booking task ----

  /** Runs a booking task of a DIRECT stay: places its row (idempotent on the task), sends a due list, settles the task. */
  async run(b: BookingRow, data: Data, isCurrentTask: (b: BookingRow) => boolean): Promise<void> {
    const log = this.deps.logger.child({ booking_id: b.booking_id, channel: 'rooming-list' });
    const now = this.now();
    const placed = await this.deps.db.transaction().execute((trx) => this.place(trx, b, data, now, isCurrentTask));
    if (!placed) return;
    if (placed.kind === 'settled') {
      if (placed.schedule_id) await scheduleLifecycleRepo.completeIfSettled(this.deps.db, placed.schedule_id);
      log.info({ status: placed.status }, 'rooming-list task settled without a list');
      return;
    }
    // P1/P2 changes and stays inside the lead time go now; a failure leaves the list waiting for the SMTP server.
    if (placed.due) await this.send(placed.list_id).catch((err) => log.warn({ err }, 'rooming list not sent yet'));
    else this.kick();
    // The task is done: the booking waits for the hotel (PENDING), the action item counts as booked.
    const actionId = data.action_id ?? b.action_id;
    if (actionId) {
      const r = await sql<{
        schedule_id: string | null;
      }>`update action_items set disposition = 'AUTO_BOOKED', disposition_at = now(),
          message = ${`on the hotel's rooming list of ${placed.night} (version ${placed.version}), awaiting the hotel's confirmation`}
        where action_id = ${actionId} and disposition is null returning schedule_id`.execute(this.deps.db);
      const scheduleId = r.rows[0]?.schedule_id;
      if (scheduleId) await scheduleLifecycleRepo.completeIfSettled(this.deps.db, scheduleId);
    }
    log.info(
      { list_id: placed.list_id, night: placed.night, version: placed.version, marking: placed.marking },
      'stay placed on the rooming list',
    );
  }

  private async place(
    trx: DbOrTrx,
    b: BookingRow,
    data: Data,
    now: Date,
    isCurrentTask: (b: BookingRow) => boolean,
  ): Promise<
    | null
    | { kind: 'settled'; status: string; schedule_id: string | null }
    | { kind: 'placed'; list_id: string; night: string; version: number; marking: string; due: boolean }
  > {
    const hotel = b.hotel ?? {};
    const hotelConfigId = typeof hotel.hotel_config_id === 'number' ? hotel.hotel_config_id : null;
    if (hotelConfigId !== null) await roomingRepo.lockHotel(trx, hotelConfigId);
    const cur = await bookingRepo.lockBooking(trx, b.booking_id);
    if (!cur || !isCurrentTask(cur)) return null;
    const taskKey = `${data.ref ?? 'task'}#${data.attempt}`;
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
    const holds = hotelHoldsStay(
      told.map((r) => ({ marking: r.marking, state: r.state === 'QUEUED' ? 'SENT' : r.state })),
    );
    const operation = data.operation ?? 'BOOK';
    const change = roomingChange(operation, holds);
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
      change.marking === 'CANCELLED'
        ? (lastHeld?.checkin_time_local ?? cur.checkin_time_local)
        : cur.checkin_time_local;
    const checkout =
      change.marking === 'CANCELLED'
        ? (lastHeld?.checkout_time_local ?? cur.checkout_time_local)
        : cur.checkout_time_local;
    if (!checkin || !checkout) return settle('NEEDS_REVIEW', 'the booking names no stay to put on a rooming list');
    const night = roomingNight(checkin);
    const sendAt = roomingSendAt(checkin, data.priority, this.timing, now.getTime());
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

  // ---- sending ----

  /** E-mails one list if it is due (or the operator asked for a resend). Throws when the SMTP server refuses; the list waits. */
  async send(listId: string): Promise<boolean> {
    const { db } = this.deps;
    const now = this.now();
    const found = await roomingRepo.findList(db, listId);
    if (!found) return false;
    const claim = await db.transaction().execute(async (trx) => {
      await roomingRepo.lockHotel(trx, found.hotel_config_id);
      const list = await roomingRepo.lockList(trx, listId);
      if (!list || list.next_attempt_at > now) return null;
      const resend = list.resend_requested && ['SENT', 'ANSWERED', 'EXPIRED'].includes(list.status);
      if (!resend && list.status !== 'QUEUED' && list.status !== 'SENDING') return null;
      await roomingRepo.updateList(trx, listId, {
        ...(resend ? { resend_requested: false } : { status: 'SENDING' }),
        next_attempt_at: new Date(now.getTime() + SEND_LEASE_MS),
        send_attempts: list.send_attempts + 1,
      });
      const rows = (await roomingRepo.rowsOfList(trx, listId)).filter((r) => r.state !== 'WITHDRAWN');
      return { list, resend, rows };
    });
    if (!claim) return false;
    const { list, resend, rows } = claim;
    if (rows.length === 0) {
      await db.deleteFrom('rooming_lists').where('list_id', '=', listId).where('status', '=', 'SENDING').execute();
      return false;
    }
    const firstCheckin = rows.map((r) => r.checkin_time_local).sort((a, b) => Date.parse(a) - Date.parse(b))[0]!;
    const deadline =
      resend && list.status === 'SENT' && list.expires_at
        ? list.expires_at
        : resend
          ? new Date(now.getTime() + this.timing.answerHours * MS_PER_HOUR)
          : new Date(answerDeadline(now.getTime(), firstCheckin, this.timing));
    const token = signRoomingLink(this.key, {
      list_id: listId,
      hotel_config_id: list.hotel_config_id,
      version: list.version,
      exp: Math.floor(deadline.getTime() / 1000),
    });
    const names = await roomingRepo.namesOfHotel(db, list.hotel_config_id);
    try {
      const info = await this.deps.mailer.send({
        to: list.recipient,
        hotelName: names?.hotel ?? 'your hotel',
        airlineName: names?.airline ?? 'the airline',
        night: list.night,
        version: list.version,
        resend,
        rows,
        link: `${this.deps.config.publicApiUrl}${CONFIRMATION_PATH}/${token}`,
        deadline,
      });
      await db.transaction().execute(async (trx) => {
        await roomingRepo.lockHotel(trx, list.hotel_config_id);
        const fresh = (await roomingRepo.lockList(trx, listId))!;
        await roomingRepo.updateList(trx, listId, {
          ...(resend ? {} : { status: 'SENT', sent_at: now, expires_at: deadline }),
          sends: fresh.sends + 1,
          message_id: info.messageId,
          last_error: null,
          next_attempt_at: now,
        });
        const ids = rows.map((r) => r.row_id);
        await trx
          .updateTable('rooming_rows')
          .set({ state: 'SENT' })
          .where('row_id', 'in', ids)
          .where('state', '=', 'QUEUED')
          .execute();
        for (const r of rows) {
          const b = await bookingRepo.lockBooking(trx, r.booking_id);
          const h = b?.hotel ?? {};
          if (b && b.status === 'PENDING' && h.rooming_list_id === listId && h.rooming_status === 'QUEUED') {
            await bookingRepo.updateBooking(trx, b.booking_id, { hotel: { ...h, rooming_status: 'SENT' } });
          }
        }
      });
      this.deps.logger.info(
        { list_id: listId, night: list.night, version: list.version, rows: rows.length, resend },
        'rooming list sent',
      );
      return true;
    } catch (err) {
      const backoff = Math.min(MAX_BACKOFF_MS, this.deps.config.roomingPollMs * 2 ** Math.min(10, list.send_attempts));
      await db
        .updateTable('rooming_lists')
        .set({
          ...(resend ? { resend_requested: true } : { status: 'QUEUED' }),
          next_attempt_at: new Date(now.getTime() + backoff),
          last_error: (err as Error).message.slice(0, 500),
        })
        .where('list_id', '=', listId)
        .execute();
      throw err;
    }
  }

  // ---- the periodic pass ----

  /** Sends every due list and expires unanswered ones past their deadline. */
  async tick(): Promise<void> {
    const now = this.now();
    for (const { list_id } of await roomingRepo.dueLists(this.deps.db, now, 100)) {
      await this.send(list_id).catch((err) =>
        this.deps.logger.warn(
          { list_id, err: (err as Error).message },
          'rooming list not sent; it waits for the mail server',
        ),
      );
    }
    for (const { list_id } of await roomingRepo.expiredLists(this.deps.db, now, 100)) await this.expire(list_id, now);
  }

  private async expire(listId: string, now: Date): Promise<void> {
    const list = await roomingRepo.findList(this.deps.db, listId);
    if (!list) return;
    const schedules = await this.deps.db.transaction().execute(async (trx) => {
      await roomingRepo.lockHotel(trx, list.hotel_config_id);
      const l = await roomingRepo.lockList(trx, listId);
      if (!l || l.status !== 'SENT' || !l.expires_at || l.expires_at > now) return [];
      await roomingRepo.updateList(trx, listId, { status: 'EXPIRED' });
      const out: string[] = [];
      for (const r of (await roomingRepo.rowsOfList(trx, listId)).filter((x) => x.state === 'SENT')) {
        const settlement = rowSettlement(r.marking, { kind: 'EXPIRED', deadline: l.expires_at.getTime() });
        await roomingRepo.answerRow(trx, r.row_id, settlement, now);
        const b = await bookingRepo.lockBooking(trx, r.booking_id);
        const settled = b && settleRowAnswer(b, r, settlement, ENGINE, now);
        if (!settled) continue;
        const { item } = await bookingRepo.writeSettlement(trx, r.booking_id, settled);
        if (item?.schedule_id) out.push(item.schedule_id);
      }
      return out;
    });
    for (const s of new Set(schedules)) await scheduleLifecycleRepo.completeIfSettled(this.deps.db, s);
    if (schedules.length) this.deps.logger.info({ list_id: listId }, 'rooming list expired unanswered');
  }

  /** Runs a pass soon (coalesced with one in progress). */
  kick(): void {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = (async () => {
      do {
        this.again = false;
        await this.tick().catch((err) => this.deps.logger.warn({ err }, 'rooming-list pass failed'));
      } while (this.again);
    })().finally(() => {
      this.ticking = null;
    });
  }

  start(): this {
    this.timer = setInterval(() => this.kick(), this.deps.config.roomingPollMs);
    this.timer.unref();
    this.kick();
    return this;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    this.deps.mailer.close();
  }
}

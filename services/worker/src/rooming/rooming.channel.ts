import {
  bookingRepo,
  reviewWritesRepo,
  roomingRepo,
  scheduleLifecycleRepo,
  sql,
  type BookingRow,
  type Db,
} from '@crew/db';
import {
  rowSettlement,
  settleMovedAwayAnswer,
  settleRowAnswer,
  storedReviewStateOf,
  type RoomingTiming,
} from '@crew/engine';
import type { Config, Logger } from '@crew/platform';
import { roomingLinkKey } from '@crew/rooming';
import type { JobData } from '@crew/queue';
import type { Mailer } from './rooming.mail';
import { cancelStayMovedAway, placeStay, type MovedAway, type PlacedRow } from './rooming.placement';
import { sendList } from './rooming.sender';

type Data = JobData<'bookings', 'execute-booking'>;

export interface RoomingDeps {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  config: Pick<Config, 'publicApiUrl' | 'roomingLeadHours' | 'roomingAnswerHours' | 'roomingPollMs' | 'opsToken'>;
  now?: () => Date;
}

const ENGINE = 'engine';

/** What the item says of the hotels a stay moved away from: told of its cancellation, or never sent it. */
export function movedAwayNotes(m: MovedAway): string[] {
  return [
    ...m.away.map(
      (a) =>
        `${a.hotel}, which the stay moved away from, gets a CANCELLED row on its rooming list of ${a.night} (version ${a.version})`,
    ),
    ...m.withdrawn.map((h) => `${h}, which the stay moved away from, was never sent it: its row withdrawn, no fee`),
  ];
}

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

  /**
   * Runs a booking task of a DIRECT stay: places its row (idempotent on the task), sends a due list, settles the
   * task. `note`: what the task did before (the supplier's room of a stay moved here cancelled), for the item.
   */
  async run(
    b: BookingRow,
    data: Data,
    isCurrentTask: (b: BookingRow) => boolean,
    note: string | null = null,
  ): Promise<void> {
    const log = this.deps.logger.child({ booking_id: b.booking_id, channel: 'rooming-list' });
    const now = this.now();
    const placed = await this.deps.db
      .transaction()
      .execute((trx) => placeStay(trx, b, data, now, isCurrentTask, this.timing));
    if (!placed) return;
    if (placed.kind === 'settled') {
      if (placed.schedule_id) await scheduleLifecycleRepo.completeIfSettled(this.deps.db, placed.schedule_id);
      log.info({ status: placed.status }, 'rooming-list task settled without a list');
      return;
    }
    // P1/P2 changes and stays inside the lead time go now; a failure leaves the list waiting for the SMTP server.
    // The cancellations of the hotels the stay moved away from likewise.
    await this.sendDue([placed, ...placed.away], log);
    // The task is done: the booking waits for the hotel (PENDING), the action item counts as booked.
    const actionId = data.action_id ?? b.action_id;
    if (actionId) {
      const notes = [...movedAwayNotes(placed), ...(note ? [note] : [])];
      const r = await sql<{
        schedule_id: string | null;
        review_status: string | null;
      }>`update action_items set disposition = 'AUTO_BOOKED', disposition_at = now(),
          message = ${`on the hotel's rooming list of ${placed.night} (version ${placed.version}), awaiting the hotel's confirmation${notes.map((n) => `; ${n}`).join('')}`}
        where action_id = ${actionId} and disposition is null returning schedule_id, review_status`.execute(
        this.deps.db,
      );
      // An item that was with the desk (a person's retry) is settled for the review queue too.
      if (r.rows[0]?.review_status)
        await this.deps.db
          .transaction()
          .execute((trx) => reviewWritesRepo.refreshReviewState(trx, actionId, storedReviewStateOf));
      const scheduleId = r.rows[0]?.schedule_id;
      if (scheduleId) await scheduleLifecycleRepo.completeIfSettled(this.deps.db, scheduleId);
    }
    log.info(
      { list_id: placed.list_id, night: placed.night, version: placed.version, marking: placed.marking },
      'stay placed on the rooming list',
    );
  }

  /** Sends the lists of these rows that are due now (a failure leaves a list waiting); a later one at its time. */
  private async sendDue(rows: readonly PlacedRow[], log: Logger): Promise<void> {
    for (const listId of new Set(rows.filter((r) => r.due).map((r) => r.list_id)))
      await this.send(listId).catch((err) => log.warn({ err, list_id: listId }, 'rooming list not sent yet'));
    if (rows.some((r) => !r.due)) this.kick();
  }

  /**
   * A DIRECT hotel's stay the roster moved to a supplier's hotel, before the supplier books the new room: the old
   * hotel's CANCELLED row placed (and its list sent when due). Returns what the item says of it, an issue that ends
   * the task in review, or null when the task is no longer current.
   */
  async cancelMovedAway(
    b: BookingRow,
    data: Data,
    isCurrentTask: (b: BookingRow) => boolean,
  ): Promise<{ notes: string[] } | { issue: string } | null> {
    const log = this.deps.logger.child({ booking_id: b.booking_id, channel: 'rooming-list' });
    const now = this.now();
    const moved = await this.deps.db
      .transaction()
      .execute((trx) => cancelStayMovedAway(trx, b, data, now, isCurrentTask, this.timing));
    if (!moved || 'issue' in moved) return moved;
    await this.sendDue(moved.away, log);
    if (moved.away.length)
      log.info({ lists: moved.away.map((a) => a.list_id) }, 'moved-away stay cancelled on rooming lists');
    return { notes: movedAwayNotes(moved) };
  }

  // ---- sending ----

  /** E-mails one list if it is due (or the operator asked for a resend). Throws when the SMTP server refuses; the list waits. */
  send(listId: string): Promise<boolean> {
    return sendList(this.deps, this.key, this.timing, listId, this.now());
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
      let hotel: string | null = null;
      for (const r of (await roomingRepo.rowsOfList(trx, listId)).filter((x) => x.state === 'SENT')) {
        const settlement = rowSettlement(r.marking, { kind: 'EXPIRED', deadline: l.expires_at.getTime() });
        await roomingRepo.answerRow(trx, r.row_id, settlement, now);
        const b = await bookingRepo.lockBooking(trx, r.booking_id);
        const settled = b && settleRowAnswer(b, r, settlement, ENGINE, now);
        if (!settled) {
          // The cancellation of a stay moved away from this hotel, unanswered: the move's item goes to a person.
          hotel ??= (await roomingRepo.namesOfHotel(trx, l.hotel_config_id))?.hotel ?? 'the hotel';
          const away = b && settleMovedAwayAnswer(b, r, settlement, hotel, ENGINE);
          const item = away ? await bookingRepo.writeMovedAwayAnswer(trx, r.booking_id, away) : undefined;
          if (item?.schedule_id) out.push(item.schedule_id);
          continue;
        }
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

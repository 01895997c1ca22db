import { bookingRepo, roomingRepo, type Db } from '@crew/db';
import { answerDeadline, roomingResend, type RoomingTiming } from '@crew/engine';
import type { Config, Logger } from '@crew/platform';
import { CONFIRMATION_PATH, signRoomingLink } from '@crew/rooming';
import type { Mailer } from './rooming.mail';

/** What sending a list needs of the channel's dependencies. */
export interface SenderDeps {
  db: Db;
  logger: Logger;
  mailer: Mailer;
  config: Pick<Config, 'publicApiUrl' | 'roomingPollMs'>;
}

/** How long a worker holds a list it is e-mailing before another may try (it died mid-send). */
const SEND_LEASE_MS = 2 * 60_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** E-mails one list if it is due (or the operator asked for a resend). Throws when the SMTP server refuses; the list waits. */
export async function sendList(
  deps: SenderDeps,
  key: Buffer,
  timing: RoomingTiming,
  listId: string,
  now: Date,
): Promise<boolean> {
  const { db } = deps;
  const found = await roomingRepo.findList(db, listId);
  if (!found) return false;
  const claim = await db.transaction().execute(async (trx) => {
    await roomingRepo.lockHotel(trx, found.hotel_config_id);
    const list = await roomingRepo.lockList(trx, listId);
    if (!list || list.next_attempt_at > now) return null;
    // An operator's resend, while the hotel can still answer the list (engine roomingResend).
    const resend = list.resend_requested && roomingResend(list, now.getTime()).kind === 'RESEND';
    if (!resend && list.status !== 'QUEUED' && list.status !== 'SENDING') {
      // Asked for before the hotel answered or the deadline passed: nothing is left to ask of the hotel.
      if (list.resend_requested) await roomingRepo.updateList(trx, listId, { resend_requested: false });
      return null;
    }
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
  // A resend keeps the deadline the hotel was given.
  const deadline =
    resend && list.expires_at ? list.expires_at : new Date(answerDeadline(now.getTime(), firstCheckin, timing));
  const token = signRoomingLink(key, {
    list_id: listId,
    hotel_config_id: list.hotel_config_id,
    version: list.version,
    exp: Math.floor(deadline.getTime() / 1000),
  });
  const names = await roomingRepo.namesOfHotel(db, list.hotel_config_id);
  try {
    const info = await deps.mailer.send({
      to: list.recipient,
      hotelName: names?.hotel ?? 'your hotel',
      airlineName: names?.airline ?? 'the airline',
      night: list.night,
      version: list.version,
      resend,
      rows,
      link: `${deps.config.publicApiUrl}${CONFIRMATION_PATH}/${token}`,
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
    deps.logger.info(
      { list_id: listId, night: list.night, version: list.version, rows: rows.length, resend },
      'rooming list sent',
    );
    return true;
  } catch (err) {
    const backoff = Math.min(MAX_BACKOFF_MS, deps.config.roomingPollMs * 2 ** Math.min(10, list.send_attempts));
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

import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import express, { type Request, type Response, type Router } from 'express';
import type { RouteDoc } from '@crew/contracts';
import {
  bookingRepo,
  roomingRepo,
  scheduleLifecycleRepo,
  type Db,
  type RoomingListRow,
  type RoomingRowRow,
} from '@crew/db';
import { rowSettlement, settleMovedAwayAnswer, settleRowAnswer } from '@crew/engine';
import { crossSiteOrigin, type Logger } from '@crew/platform';
import { CONFIRMATION_PATH, roomingFormToken, roomingLinkKey, verifyRoomingLink } from '@crew/rooming';

/*
 * The hotel confirmation page of a rooming list: server-rendered HTML, no login, no script. The
 * signed link is the credential (one list version of one hotel, until the answer deadline). The form posts
 * back to the same link with an anti-forgery field bound to it, and a cross-site Origin is refused; there are
 * no cookies, so nothing ambient could be ridden by another site anyway. helmet's default CSP (form-action
 * 'self', no scripts) fits the page as it is.
 */

const TokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 4096, description: 'The signed token of the e-mailed link' }),
});
const html = (description: string) => ({ description, contentType: 'text/html' });

/** The page's two routes, as the OpenAPI document describes them (HTML for hotels; no bearer: the link is the credential). */
export const CONFIRMATION_PAGE_ROUTES: readonly RouteDoc[] = [
  {
    method: 'get',
    path: `${CONFIRMATION_PATH}/:token`,
    operationId: 'hotelRoomingListPage',
    summary: 'The hotel confirmation page of a rooming list (HTML; the e-mailed link)',
    description:
      'Server-rendered HTML for the hotel named by the link: the list version’s rows (NEW, AMENDED, CANCELLED) and a form to confirm them or reject rows with a reason. ' +
      'No login: the signed link is the credential, for one list version of one hotel, until the answer deadline. The first view is recorded as `opened_at`. ' +
      'A tampered link, or one for another version, is 404; an expired one is 410.',
    tags: ['Hotel confirmation'],
    auth: 'none',
    params: TokenParams,
    responses: { 200: html('The page'), 404: html('Not a valid link'), 410: html('The link has expired') },
  },
  {
    method: 'post',
    path: `${CONFIRMATION_PATH}/:token`,
    operationId: 'hotelRoomingListAnswer',
    summary: 'The hotel’s answer to a rooming list (the page’s form)',
    description:
      'The page’s form, `application/x-www-form-urlencoded`: `form_token` (the page’s anti-forgery field), `list_number` (one confirmation number for the list), and per row ' +
      '`number_<row>` (the row’s own number, wins over the list’s) or `reject_<row>=1` with `reason_<row>`. Every row awaiting an answer needs a number or a rejection with a reason (else 422, the page again). ' +
      'Confirmed rows make their bookings CONFIRMED (AMENDED: MODIFIED; CANCELLED: CANCELLED) with the hotel’s number; rejected ones NEEDS_REVIEW with the reason. ' +
      'Answers 200 with the page showing the answer. A list already answered or expired is 409; without the page’s field, or from another site’s Origin, 403.',
    tags: ['Hotel confirmation'],
    auth: 'none',
    params: TokenParams,
    responses: {
      200: html('Recorded: the page, now showing the answer'),
      403: html('Not sent from the page'),
      404: html('Not a valid link'),
      409: html('Already answered, or expired'),
      410: html('The link has expired'),
      422: html('A row lacks a number or a reason; the page again with the error'),
    },
  },
];

const esc = (s: string | number | null | undefined) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const STYLE = `body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:980px;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%;margin:1rem 0}th,td{border:1px solid #c9cfdb;padding:.4rem .5rem;text-align:left;font-size:.9rem;vertical-align:top}
th{background:#eef1f6}.NEW{color:#05610f}.AMENDED{color:#8a5300}.CANCELLED{color:#a0001c}.mark{font-weight:700}
input[type=text]{width:11rem}.err{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem}.note{color:#555;font-size:.85rem}
button{font-size:1rem;padding:.5rem 1.2rem;margin-top:.5rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><title>${esc(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

function refuse(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .type('html')
    .send(page(title, `<h1>${esc(title)}</h1><p>${esc(text)}</p>`));
}

interface Loaded {
  list: RoomingListRow;
  rows: RoomingRowRow[];
  names: { hotel: string; airline: string; property_id: string | null };
}

function render(token: string, formToken: string, l: Loaded, error: string | null): string {
  const open = l.list.status === 'SENT';
  const rows = l.rows.filter((r) => r.state !== 'WITHDRAWN');
  const cells = rows
    .map((r) => {
      const answerable = open && r.state === 'SENT';
      const answer = answerable
        ? `<td><input type="text" name="number_${r.row_id}" aria-label="Confirmation number for ${esc(r.row_ref)}" maxlength="64"></td>
           <td><label><input type="checkbox" name="reject_${r.row_id}" value="1"> reject</label><br><input type="text" name="reason_${r.row_id}" aria-label="Reason for rejecting ${esc(r.row_ref)}" maxlength="500" placeholder="reason"></td>`
        : `<td colspan="2">${esc(r.state)}${r.hotel_confirmation_number ? ` · ${esc(r.hotel_confirmation_number)}` : ''}${r.reject_reason ? ` · ${esc(r.reject_reason)}` : ''}</td>`;
      return `<tr data-row-ref="${esc(r.row_ref)}"><td>${esc(r.row_ref)}</td><td class="mark ${esc(r.marking)}">${esc(r.marking)}</td><td>${esc(r.crew_name)}</td><td>${esc(r.rank)}</td>
        <td>${esc(r.checkin_time_local)}</td><td>${esc(r.checkout_time_local)}</td><td>${esc(r.pairing_number)}</td>${answer}</tr>`;
    })
    .join('');
  const status =
    l.list.status === 'ANSWERED'
      ? `<p><strong>This list was answered on ${esc(l.list.answered_at?.toISOString())}.</strong> Thank you.</p>`
      : l.list.status === 'EXPIRED'
        ? '<p><strong>This list was not answered in time;</strong> the airline handles these stays itself now.</p>'
        : open
          ? `<p>Please confirm by ${esc(l.list.expires_at?.toISOString())}. Give one confirmation number for the whole list, or one per row (a row’s own number wins). Tick “reject” and give a reason for any row you cannot honour.</p>`
          : '<p>This list has not been sent yet.</p>';
  const form = open
    ? `<form method="post" action="${CONFIRMATION_PATH}/${esc(token)}">
      <input type="hidden" name="form_token" value="${esc(formToken)}">
      <table><thead><tr><th>Reference</th><th>Change</th><th>Crew</th><th>Rank</th><th>Check-in (local)</th><th>Check-out (local)</th><th>Pairing</th><th>Your confirmation no.</th><th>Reject</th></tr></thead><tbody>${cells}</tbody></table>
      <p><label>Confirmation number for the whole list: <input type="text" name="list_number" maxlength="64"></label></p>
      <button type="submit">Send answer</button></form>`
    : `<table><thead><tr><th>Reference</th><th>Change</th><th>Crew</th><th>Rank</th><th>Check-in (local)</th><th>Check-out (local)</th><th>Pairing</th><th colspan="2">Answer</th></tr></thead><tbody>${cells}</tbody></table>`;
  return page(
    `Rooming list ${l.list.night} v${l.list.version}`,
    `<h1>Rooming list: ${esc(l.names.airline)} crew at ${esc(l.names.hotel)}</h1>
     <p>Night of <strong>${esc(l.list.night)}</strong>, version ${l.list.version}. NEW: a room to hold; AMENDED: the stay with this reference changed; CANCELLED: release it.</p>
     ${error ? `<p class="err" role="alert">${esc(error)}</p>` : ''}${status}${form}
     <p class="note">Each stay keeps its reference in every version of the list: a reference you already hold is never a second room.</p>`,
  );
}

export function confirmationPage(db: Db, opsToken: string, logger: Logger, now: () => Date = () => new Date()): Router {
  const key = roomingLinkKey(opsToken);
  const router = express.Router();

  /** The list the link names, or the refusal already sent. */
  async function load(req: Request, res: Response): Promise<{ token: string; loaded: Loaded } | null> {
    const token = String(req.params.token ?? '');
    const check = verifyRoomingLink(key, token, now().getTime());
    if (!check.ok) {
      if (check.reason === 'EXPIRED')
        refuse(
          res,
          410,
          'This link has expired',
          'The answer deadline of this rooming list has passed. Please contact the airline.',
        );
      else
        refuse(res, 404, 'This link is not valid', 'Please use the link from the rooming-list e-mail as it was sent.');
      return null;
    }
    const list = await roomingRepo.findList(db, check.claims.list_id);
    if (!list || list.hotel_config_id !== check.claims.hotel_config_id || list.version !== check.claims.version) {
      refuse(res, 404, 'This link is not valid', 'Please use the link from the rooming-list e-mail as it was sent.');
      return null;
    }
    const names = await roomingRepo.namesOfHotel(db, list.hotel_config_id);
    return {
      token,
      loaded: {
        list,
        rows: await roomingRepo.rowsOfList(db, list.list_id),
        names: { hotel: names?.hotel ?? '', airline: names?.airline ?? '', property_id: names?.property_id ?? null },
      },
    };
  }

  const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });

  router.get(`${CONFIRMATION_PATH}/:token`, async (req, res, next) => {
    try {
      noStore(res);
      const l = await load(req, res);
      if (!l) return;
      await roomingRepo.markOpened(db, l.loaded.list.list_id, now());
      res
        .status(200)
        .type('html')
        .send(render(l.token, roomingFormToken(key, l.token), l.loaded, null));
    } catch (err) {
      next(err);
    }
  });

  router.post(
    `${CONFIRMATION_PATH}/:token`,
    express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 2000 }),
    async (req, res, next) => {
      try {
        noStore(res);
        const l = await load(req, res);
        if (!l) return;
        // Anti-forgery: the page's own field, and no cross-site Origin.
        if (crossSiteOrigin(req))
          return refuse(res, 403, 'Refused', 'The answer must be sent from the confirmation page itself.');
        const given = Buffer.from(
          String((req.body as Record<string, string | string[] | undefined> | undefined)?.form_token ?? ''),
        );
        const expected = Buffer.from(roomingFormToken(key, l.token));
        if (given.length !== expected.length || !timingSafeEqual(given, expected))
          return refuse(res, 403, 'Refused', 'The answer must be sent from the confirmation page itself.');
        const body = (req.body ?? {}) as Record<string, string | undefined>;
        // What the hotel typed, as text Postgres stores: no control characters (a NUL is refused by Postgres), no
        // half of a character cut at the length limit.
        const field = (name: string) =>
          typeof body[name] === 'string'
            ? body[name]
                .replace(/(?![\t\n\r])\p{Cc}/gu, '')
                .trim()
                .slice(0, 500)
                .toWellFormed()
            : '';
        const at = now();
        const result = await db.transaction().execute(async (trx) => {
          await roomingRepo.lockHotel(trx, l.loaded.list.hotel_config_id);
          const list = (await roomingRepo.lockList(trx, l.loaded.list.list_id))!;
          if (list.status !== 'SENT')
            return {
              error:
                list.status === 'ANSWERED' ? 'This list was already answered.' : 'This list can no longer be answered.',
              status: 409,
            };
          const rows = (await roomingRepo.rowsOfList(trx, list.list_id)).filter((r) => r.state === 'SENT');
          const listNumber = field('list_number').slice(0, 64);
          const answers = rows.map((r) => {
            if (field(`reject_${r.row_id}`))
              return {
                r,
                answer: field(`reason_${r.row_id}`)
                  ? ({ kind: 'REJECTED', reason: field(`reason_${r.row_id}`) } as const)
                  : null,
                missing: `a reason for rejecting ${r.row_ref}`,
              };
            const number = field(`number_${r.row_id}`).slice(0, 64) || listNumber;
            return {
              r,
              answer: number ? ({ kind: 'CONFIRMED', confirmation_number: number } as const) : null,
              missing: `a confirmation number for ${r.row_ref} (or one for the whole list)`,
            };
          });
          const missing = answers.filter((a) => !a.answer).map((a) => a.missing);
          if (missing.length) return { error: `Please give ${missing.join('; ')}.`, status: 422 };
          const schedules: string[] = [];
          for (const a of answers) {
            const settlement = rowSettlement(a.r.marking, a.answer!);
            await roomingRepo.answerRow(trx, a.r.row_id, settlement, at);
            const b = await bookingRepo.lockBooking(trx, a.r.booking_id);
            // The list's first sending told the hotel (a cancellation sent after its deadline is judged late).
            const row = { list_id: a.r.list_id, task_ref: a.r.task_ref, sent_at: list.sent_at, marking: a.r.marking };
            const actor = `hotel (${list.recipient})`;
            const settled = b && settleRowAnswer(b, row, settlement, actor, at);
            if (!settled) {
              // The cancellation of a stay the roster moved away from this hotel: its fee on the booking, or (the
              // hotel keeps the room) the move's item handed to a person.
              const away =
                b &&
                settleMovedAwayAnswer(
                  b,
                  {
                    task_ref: a.r.task_ref,
                    sent_at: list.sent_at,
                    property_id: l.loaded.names.property_id,
                    checkin_time_local: a.r.checkin_time_local,
                    checkout_time_local: a.r.checkout_time_local,
                    stay_confirmation_number: await roomingRepo.confirmedNumberOfStay(trx, a.r.booking_id, a.r.row_ref),
                  },
                  settlement,
                  l.loaded.names.hotel,
                  actor,
                );
              const item = away ? await bookingRepo.writeMovedAwayAnswer(trx, a.r.booking_id, away) : undefined;
              if (item?.schedule_id) schedules.push(item.schedule_id);
              continue;
            }
            const { item } = await bookingRepo.writeSettlement(trx, a.r.booking_id, settled);
            if (item?.schedule_id) schedules.push(item.schedule_id);
          }
          await roomingRepo.updateList(trx, list.list_id, { status: 'ANSWERED', answered_at: at });
          return { schedules };
        });
        if ('error' in result) {
          const fresh = await load(req, res);
          if (fresh)
            res
              .status(result.status ?? 409)
              .type('html')
              .send(render(fresh.token, roomingFormToken(key, fresh.token), fresh.loaded, result.error!));
          return;
        }
        for (const s of new Set(result.schedules)) await scheduleLifecycleRepo.completeIfSettled(db, s);
        logger.info({ list_id: l.loaded.list.list_id }, 'rooming list answered by the hotel');
        // The page as it now stands (a reload that posts again is told the list was already answered).
        const fresh = await load(req, res);
        if (fresh)
          res
            .status(200)
            .type('html')
            .send(render(fresh.token, roomingFormToken(key, fresh.token), fresh.loaded, null));
      } catch (err) {
        next(err);
      }
    },
  );
  return router;
}

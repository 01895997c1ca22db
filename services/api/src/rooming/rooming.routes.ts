import {
  HotelConfigIdParams,
  RoomingList,
  RoomingListPage,
  RoomingListParams,
  RoomingListQuery,
  requiredScope,
} from '@crew/contracts';
import { roomingRepo, type Db, type RoomingListRow, type RoomingRowRow } from '@crew/db';
import { roomingResend } from '@crew/engine';
import { ApiError, errorResponses, keysetPage, route, seqCursor, type RouteSpec } from '@crew/platform';
import { principal } from '../auth/guard';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function roomingListView(l: RoomingListRow & { rows: RoomingRowRow[] }): RoomingList {
  return {
    list_id: l.list_id,
    hotel_config_id: l.hotel_config_id,
    night: l.night,
    version: l.version,
    // A list being e-mailed right now still waits, as far as anyone reading is concerned.
    status: l.status === 'SENDING' ? 'QUEUED' : l.status,
    recipient: l.recipient,
    due_at: l.due_at.toISOString(),
    sends: l.sends,
    send_attempts: l.send_attempts,
    last_error: l.last_error,
    sent_at: iso(l.sent_at),
    opened_at: iso(l.opened_at),
    answered_at: iso(l.answered_at),
    expires_at: iso(l.expires_at),
    rows: l.rows.map((r) => ({
      row_ref: r.row_ref,
      booking_id: r.booking_id,
      marking: r.marking,
      state: r.state,
      crew_name: r.crew_name,
      rank: r.rank,
      employee_id: r.employee_id,
      pairing_number: r.pairing_number,
      checkin_time_local: r.checkin_time_local,
      checkout_time_local: r.checkout_time_local,
      hotel_confirmation_number: r.hotel_confirmation_number,
      reject_reason: r.reject_reason,
      answered_at: iso(r.answered_at),
    })),
  };
}

/** GET …/hotels/{hotel_config_id}/rooming-lists: every list version sent (or waiting) to a DIRECT hotel. */
export function roomingRoutes(db: Db): RouteSpec[] {
  const path = '/crew/config/hotels/:hotel_config_id/rooming-lists';
  return [
    route({
      method: 'get',
      path,
      operationId: 'listRoomingLists',
      summary: 'Rooming lists of a DIRECT hotel: every version sent, opened and answered, newest first',
      tags: ['Hotel contracts'],
      auth: requiredScope('get', path),
      params: HotelConfigIdParams,
      query: RoomingListQuery,
      responses: {
        200: { description: 'Rooming lists', schema: RoomingListPage },
        ...errorResponses([400, 401, 403, 404]),
      },
      handler: async ({ res, params, query }) => {
        const airlineId = principal(res).airline_id;
        const hotel = await db
          .selectFrom('hotel_configs')
          .select('hotel_config_id')
          .where('airline_id', '=', airlineId)
          .where('hotel_config_id', '=', params.hotel_config_id)
          .executeTakeFirst();
        if (!hotel) throw ApiError.notFound('Hotel');
        const limit = query.limit ?? 50;
        const p = keysetPage(
          await roomingRepo.listsOfHotel(db, airlineId, params.hotel_config_id, limit, seqCursor(query.cursor)),
          limit,
        );
        return { status: 200, body: { rooming_lists: p.rows.map(roomingListView), next_cursor: p.next_cursor } };
      },
    }),
  ];
}

/**
 * POST /ops/v1/rooming-lists/{list_id}/resend: the same version again (same rows, same references), as soon as the
 * worker can, while the hotel can still answer it (engine roomingResend).
 */
export function opsRoomingRoutes(db: Db): RouteSpec[] {
  return [
    route({
      method: 'post',
      path: '/rooming-lists/:list_id/resend',
      operationId: 'opsResendRoomingList',
      summary: 'E-mail a rooming list version to its hotel again',
      tags: ['Operator API'],
      auth: 'ops',
      params: RoomingListParams,
      responses: {
        202: { description: 'The list, its resend queued (or already under way)', schema: RoomingList },
        ...errorResponses([401, 404, 409]),
      },
      handler: async ({ params }) => {
        const found = await roomingRepo.findList(db, params.list_id);
        if (!found) throw ApiError.notFound('Rooming list');
        // Decided on the list locked as the sender locks it: a claim to send it is seen, not overwritten.
        await db.transaction().execute(async (trx) => {
          await roomingRepo.lockHotel(trx, found.hotel_config_id);
          const list = await roomingRepo.lockList(trx, found.list_id);
          if (!list) throw ApiError.notFound('Rooming list');
          const resend = roomingResend(list, Date.now());
          if (resend.kind === 'REFUSED') throw ApiError.conflict(resend.message);
          if (resend.kind === 'SEND_NOW')
            await roomingRepo.updateList(trx, list.list_id, { next_attempt_at: new Date() });
          if (resend.kind === 'RESEND')
            await roomingRepo.updateList(trx, list.list_id, { resend_requested: true, next_attempt_at: new Date() });
        });
        const fresh = (await roomingRepo.findList(db, found.list_id))!;
        return {
          status: 202,
          body: roomingListView({ ...fresh, rows: await roomingRepo.rowsOfList(db, found.list_id) }),
        };
      },
    }),
  ];
}

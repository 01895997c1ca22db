/**
 * A FLIGHT commit carrying `pnr` and `ticket_id`: the airline booked the crew seat in its own reservation
 * system (how a BOOK_IN_OWN_SYSTEM review item is resolved). Nothing is left to ask a supplier, so the
 * booking settles in the request's own transaction, with what the worker's settle would write: the
 * status, the item's disposition and the booking's webhook events.
 */
import type { BookingFlightBlock, BookingRequestBody, Priority } from '@crew/contracts';
import { bookingRepo, webhookRepo, type DbOrTrx } from '@crew/db';
import { BOOKING_EVENT_STATUSES, DISPOSITION_OF_TASK, storedReviewStateOf, urgentEvents } from '@crew/engine';
import { ApiError } from '@crew/platform';

export interface OwnSystemTicket {
  pnr: string;
  ticket_id: string;
}

/** The ticket a commit records, null when it names none; 422 naming the field when half of it is missing. */
export function ownSystemTicket(body: Pick<BookingRequestBody, 'type' | 'flight'>): OwnSystemTicket | null {
  const f = body.type === 'FLIGHT' ? body.flight : undefined;
  if (!f || (f.pnr === undefined && f.ticket_id === undefined)) return null;
  if (f.pnr === undefined) throw ApiError.validation([{ field: '/flight/pnr', issue: 'is required with ticket_id' }]);
  if (f.ticket_id === undefined)
    throw ApiError.validation([{ field: '/flight/ticket_id', issue: 'is required with pnr' }]);
  // The seat is already booked: an offer to book as well would be a second ticket.
  if (f.flight_option_id !== undefined)
    throw ApiError.validation([
      {
        field: '/flight/flight_option_id',
        issue: 'must be absent with pnr and ticket_id (the seat is already booked)',
      },
    ]);
  return { pnr: f.pnr.toUpperCase(), ticket_id: f.ticket_id };
}

/** The booking's flight block: the leg as requested, held in the airline's own system (real, not a test). */
export function ownSystemBlock(requested: BookingFlightBlock | null, t: OwnSystemTicket): BookingFlightBlock {
  return {
    ...(requested ?? {}),
    supplier: 'OWN_AIRLINE',
    live_mode: true,
    pnr: t.pnr,
    ticket_id: t.ticket_id,
    supplier_status: 'CONFIRMED',
  };
}

export const ownSystemReason = (t: OwnSystemTicket) =>
  `booked by the airline in its own reservation system (PNR ${t.pnr})`;

/**
 * In the request's transaction, once the booking is written CONFIRMED: the item it fulfils (a roster's
 * review item) is AUTO_BOOKED like any committed booking, and booking.confirmed (and irop.completed when it
 * ends its irop_ref) is emitted. Returns the item's schedule, for the caller to complete after commit.
 */
export async function settleOwnSystem(
  trx: DbOrTrx,
  b: { bookingId: string; airlineId: string; actionId: string | null; iropRef: string | null; priority: Priority },
  t: OwnSystemTicket,
): Promise<{ scheduleId: string | null }> {
  const item = b.actionId
    ? await bookingRepo.setDisposition(
        trx,
        b.actionId,
        DISPOSITION_OF_TASK.CONFIRMED,
        { message: ownSystemReason(t), recommended_action: null },
        // The review item it fulfils is RESOLVED.
        storedReviewStateOf,
      )
    : undefined;
  const urgent = urgentEvents((item?.priority as Priority | undefined) ?? b.priority);
  await webhookRepo.emitBookingEvents(trx, [b.bookingId], urgent, BOOKING_EVENT_STATUSES);
  if (b.iropRef) await webhookRepo.emitIropCompletedIfDone(trx, b.airlineId, b.iropRef, urgent);
  return { scheduleId: item?.schedule_id ?? null };
}

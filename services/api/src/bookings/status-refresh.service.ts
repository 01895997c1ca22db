import { bookingRepo, type BookingRow } from '@crew/db';
import { flightSupplierNamed, isSupplierError } from '@crew/suppliers';
import type { Principal } from '../auth/token-verifier';
import { bookingOr404, registryOf, type BookingDeps } from './bookings.service';

/**
 * GET …/status: refreshes the supplier's live state (PNR, ticket, transaction and trip-session ids, or
 * the room's status) into the booking. A supplier that cannot be reached leaves the stored state as is.
 * A flight is asked of the supplier named on the booking (none: the sandbox, as before supplier orders);
 * a seat the airline booked in its own system has nobody to ask.
 */
export async function refreshBooking(deps: BookingDeps, caller: Principal, bookingId: string): Promise<BookingRow> {
  const b = await bookingOr404(deps.db, caller.airline_id, bookingId);
  const ref = (b.type === 'FLIGHT' ? b.flight : b.hotel)?.supplier_ref;
  if (!ref) return b;
  try {
    if (b.type === 'FLIGHT') {
      const named = b.flight?.supplier ?? 'SANDBOX';
      const holder =
        named === 'OWN_AIRLINE' ? null : flightSupplierNamed(await registryOf(deps).forAirline(b.airline_id), named);
      if (!holder) {
        // The airline's order no longer holds that supplier (or its credentials): nothing can be asked.
        if (named !== 'OWN_AIRLINE')
          deps.logger.warn(
            { booking_id: b.booking_id, supplier: named },
            'status refresh: the booking’s supplier is not in the airline’s order; answering with the stored state',
          );
        return b;
      }
      const order = await holder.supplier.getOrder(ref);
      if (order) {
        // A supplier that has not ticketed yet (Duffel issues the e-ticket after the order) answers empty ids: those are not written.
        const ids = {
          pnr: order.pnr,
          ticket_id: order.ticket_id,
          transaction_id: order.transaction_id,
          trip_session_id: order.trip_session_id,
        };
        const flight = {
          ...(b.flight ?? {}),
          ...Object.fromEntries(Object.entries(ids).filter(([, v]) => v)),
          supplier_status: order.status,
        };
        await deps.db.transaction().execute((trx) => bookingRepo.updateBooking(trx, b.booking_id, { flight }));
      }
    } else {
      // A room at Duffel is read from the airline's own Stays; there the hotel's confirmation number comes after the booking.
      const stays = b.hotel?.supplier === 'DUFFEL' && deps.staysOf ? await deps.staysOf(b.airline_id) : null;
      const r = await (stays ?? deps.suppliers.hotels).getReservation(ref);
      if (r) {
        const hotel = {
          ...(b.hotel ?? {}),
          supplier_status: r.status,
          check_in_date: r.check_in_date,
          check_out_date: r.check_out_date,
          ...(r.confirmation_number !== undefined ? { confirmation_number: r.confirmation_number } : {}),
        };
        await deps.db.transaction().execute((trx) => bookingRepo.updateBooking(trx, b.booking_id, { hotel }));
      }
    }
  } catch (err) {
    if (!isSupplierError(err)) throw err;
    deps.logger.warn(
      { booking_id: b.booking_id, err: err.message },
      'status refresh: supplier unavailable; answering with the stored state',
    );
  }
  return (await bookingRepo.findBooking(deps.db, b.booking_id))!;
}

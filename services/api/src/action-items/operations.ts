import type { BookingFlightBlock, BookingRequestBody, Priority } from '@crew/contracts';
import { airlinePolicyRepo, bookingRepo, type ActionItemRow, type BookingRow, type DbOrTrx } from '@crew/db';
import {
  acceptedFlightBlock,
  lostOrderReference,
  patchPlan,
  settleBooking,
  type ReviewOperation,
  type StationHotel,
} from '@crew/engine';
import { ApiError, openBookingContext, type TravellerVault } from '@crew/platform';
import type { SupplierName } from '@crew/suppliers';
import { registryOf, startTask, type BookingDeps } from '../bookings/bookings.service';
import { ownSystemBlock, ownSystemReason, settleOwnSystem } from '../bookings/own-system';
import { committedOffer } from '../bookings/request-lookups';
import { startRetry } from '../bookings/retries.service';
import { acceptAtDuffel, changeToAccept, type AirlineChangesOf, type ChangeToAccept } from './airline-changes';

/*
 * A person's action carried out on the item's own booking, through the paths the airline's own calls take:
 * a supplier task started as PATCH and DELETE start theirs, a retry as POST …/retry, a seat booked in the
 * airline's own system as a commit with a PNR records it. The booking keeps its id: the item never gets a
 * second live booking.
 */

export type OperationDeps = Pick<BookingDeps, 'db' | 'relay' | 'suppliers' | 'registry' | 'vault' | 'logger'> & {
  /** Each airline's Duffel changes client (ACCEPT_CHANGE); absent: no airline's change can be accepted here. */
  airlineChanges?: AirlineChangesOf;
};

/** What an operation looks up before its transaction (a supplier or the airline's configuration). */
export interface Prepared {
  /** BOOK_FLIGHT_OPTION: the supplier that issued the option (null: none could say; the task finds out). */
  offerSupplier?: SupplierName | null;
  /** BOOK_HOTEL: the hotel configured at the booking's station, and the booking account. */
  hotel?: { stationHotel: StationHotel | undefined; crewBooker: string | null };
  /** ACCEPT_CHANGE: the airline's open change as Duffel has it now, and the flight the booking takes. */
  change?: ChangeToAccept;
}

/** The hotel configured at the booking's station (BOOK_HOTEL without a property_id books it), and the booking account. */
export async function hotelChoiceOf(
  deps: OperationDeps,
  airlineId: string,
  b: BookingRow,
): Promise<NonNullable<Prepared['hotel']>> {
  const { policy } = openBookingContext(
    deps.vault,
    airlineId,
    await airlinePolicyRepo.loadBookingFacts(deps.db, airlineId, []),
    new Date().toISOString(),
  );
  return { stationHotel: policy.hotels.get(b.station ?? ''), crewBooker: policy.crew_booker_email };
}

export async function prepareOperation(
  deps: OperationDeps,
  airlineId: string,
  op: ReviewOperation,
  b: BookingRow,
): Promise<Prepared> {
  if (op.kind === 'BOOK_FLIGHT_OPTION') {
    const body = {
      anchors: { duty_date: b.duty_date ?? undefined },
      flight: { flight_option_id: op.flight_option_id },
    } as BookingRequestBody;
    const found = await committedOffer(await registryOf(deps).forAirline(airlineId), body);
    return { offerSupplier: found?.supplier ?? null };
  }
  if (op.kind === 'BOOK_HOTEL') return { hotel: await hotelChoiceOf(deps, airlineId, b) };
  if (op.kind === 'ACCEPT_CHANGE')
    return { change: await changeToAccept(deps.airlineChanges, b, op.airline_change_id) };
  return {};
}

/**
 * A person's booking choice on a booking whose last order may be outstanding (FAILED: its answer lost; NEEDS_REVIEW:
 * held for the person, or its call overtaken by a roster's review and maybe still running): that order's reference
 * is recorded with the choice's task, which then looks it up and replaces what it finds (cancelled, or kept when it
 * is the very stay chosen) before ordering under a reference of its own (engine lostOrderReference).
 */
function replacingLostOrder(b: BookingRow): { order_reference?: string } {
  const lost = lostOrderReference(b);
  return lost ? { order_reference: lost } : {};
}

export interface Acting {
  /** Who acts (action_taken_by): the booking's history names them. */
  actingUser: string;
  /** The caller's e-mail: a chosen flight is booked under it (spec rule 11). */
  callerEmail: string;
  /** Opens the airline's facts where a cancellation is priced under the contract's terms. */
  vault: TravellerVault;
}

/**
 * Runs the operation on the locked booking, in the caller's transaction. Returns the schedule to complete
 * after commit when the booking settled here (a recorded PNR, an accepted price), else null.
 */
export async function runOperation(
  trx: DbOrTrx,
  op: ReviewOperation,
  b: BookingRow,
  item: ActionItemRow,
  who: Acting,
  prepared: Prepared,
): Promise<string | null> {
  const actor = who.actingUser;
  switch (op.kind) {
    case 'BOOK_FLIGHT_OPTION': {
      // A held ticket is cancelled and the option booked in one task on this booking (a flight AMEND is a
      // cancel-and-rebook); the held ticket's supplier cancels it, so the block keeps it then.
      const supplier = !op.replaces_reservation && prepared.offerSupplier ? { supplier: prepared.offerSupplier } : {};
      const flight = { ...(b.flight ?? {}), flight_option_id: op.flight_option_id, ...supplier } as BookingFlightBlock;
      await startTask(
        trx,
        b,
        op.replaces_reservation ? 'AMEND' : 'BOOK',
        {
          flight,
          booked_by: who.callerEmail,
          manual_override: true,
          review_reason: null,
          last_error: null,
          ...replacingLostOrder(b),
        },
        { reason: `flight option chosen by ${actor} from the review queue`, actor },
        who,
      );
      return null;
    }
    case 'BOOK_HOTEL': {
      const h = prepared.hotel!;
      if (!b.checkin_time_local || !b.checkout_time_local)
        throw ApiError.conflict('The booking has no stay dates to book a hotel for; request a new booking');
      // The engine's property swap decides the block (the station's configured hotel at its contracted rate).
      const plan = patchPlan(
        { ...b, hotel: null },
        { hotel: { property_id: op.property_id } },
        who.callerEmail,
        h.stationHotel,
        h.crewBooker,
      );
      if (plan.kind !== 'REBOOK') throw ApiError.conflict('The hotel cannot be booked on this booking');
      await startTask(
        trx,
        b,
        'BOOK',
        { ...plan.changes, manual_override: true, review_reason: null, last_error: null, ...replacingLostOrder(b) },
        { reason: `hotel ${op.property_id} chosen by ${actor} from the review queue`, actor },
        who,
      );
      return null;
    }
    case 'ACCEPT_PRICE': {
      const reason = `the supplier's price accepted by ${actor}`;
      await bookingRepo.writeSettlement(
        trx,
        b.booking_id,
        settleBooking(
          { status: op.status, reason },
          {
            actor,
            actionId: item.action_id,
            urgency: { task: null, orItem: true },
            irop: { airline_id: b.airline_id, irop_ref: b.irop_ref },
          },
        ),
      );
      return item.schedule_id;
    }
    case 'RECORD_PNR': {
      const ticket = { pnr: op.pnr, ticket_id: op.ticket_id };
      // The failed order may have ticketed with its answer lost: the worker looks it up under its reference and
      // cancels what it made beside the recorded seat (stray-orders.ts). The api calls no supplier.
      const lost = lostOrderReference(b);
      await bookingRepo.updateBooking(
        trx,
        b.booking_id,
        {
          status: 'CONFIRMED',
          flight: ownSystemBlock(b.flight, ticket),
          manual_override: true,
          review_reason: null,
          last_error: null,
          next_attempt_at: null,
          ...(lost ? { order_reference: lost, stray_order_reference: lost, stray_order_due_at: new Date() } : {}),
        },
        { reason: ownSystemReason(ticket), actor },
      );
      const { scheduleId } = await settleOwnSystem(
        trx,
        {
          bookingId: b.booking_id,
          airlineId: b.airline_id,
          actionId: item.action_id,
          iropRef: b.irop_ref,
          priority: item.priority as Priority,
        },
        ticket,
      );
      return scheduleId;
    }
    case 'RETRY':
      await startRetry(trx, b, actor);
      return null;
    case 'CANCEL':
      await startTask(
        trx,
        b,
        'CANCEL',
        { manual_override: true },
        { reason: op.reason ?? `cancelled by ${actor} from the review queue`, actor },
        who,
      );
      return null;
    case 'ACCEPT_CHANGE': {
      const c = prepared.change!;
      if (c.change.id !== op.airline_change_id)
        throw ApiError.conflict('The airline changed the flight again meanwhile; read the item again');
      // Accepted at Duffel with the booking and the item locked: a second person waits, then finds it RESOLVED.
      await acceptAtDuffel(c);
      const f = c.flight;
      await bookingRepo.writeSettlement(
        trx,
        b.booking_id,
        settleBooking(
          {
            status: 'CONFIRMED',
            reason: `the airline's change ${c.change.id} accepted by ${actor}: ${f.flight_number} ${f.dep_time} to ${f.arr_time}`,
          },
          {
            actor,
            actionId: item.action_id,
            fields: { flight: acceptedFlightBlock(b.flight, f) },
            urgency: { task: null, orItem: true },
            irop: { airline_id: b.airline_id, irop_ref: b.irop_ref },
          },
        ),
      );
      return item.schedule_id;
    }
  }
}

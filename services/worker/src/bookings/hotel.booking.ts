/**
 * A stay at the airline's hotel suppliers, in its order: the first that reserves a room (the next on no
 * availability or a refusal, never after an unknown outcome, which may have made a room). An earlier attempt
 * whose answer was lost is looked up by its reference before booking again. The contract goes with the
 * request, so a supplier that offers several rates (Duffel Stays) books only one the airline's lever accepts.
 */
import { travellerRepo, type BookingRow, type Db } from '@crew/db';
import type { TravellerVault } from '@crew/platform';
import {
  madeCancellationCost,
  nextSupplierApplies,
  orderMayExist,
  reservationOutcome,
  roomDates,
  stayRateCheck,
  supplierReference,
  type AirlineBookingContext,
} from '@crew/engine';
import {
  hotelSupplierNamed,
  isSupplierError,
  type AirlineSupplierSet,
  type ContractedStay,
  type HotelLookupHint,
  type HotelReservation,
  type HotelSupplier,
  type OrderedSupplier,
  type SupplierError,
  type SupplierRegistry,
} from '@crew/suppliers';
import type { AttemptFacts } from './flight.booking';
import type { Outcome } from './outcome';

export interface HotelBookingDeps {
  registry: SupplierRegistry;
  db: Db;
  /** Opens the traveller's sealed personal fields (the phone a guest-reaching supplier needs). */
  vault: TravellerVault;
  /** The worker's clock: when a cancellation was made, to judge it by (tests pin it). */
  now?: () => Date;
}

const clockOf = (deps: HotelBookingDeps) => deps.now?.() ?? new Date();

interface HotelBlock {
  property_id?: string;
  contract_id?: number;
  contracted_rate?: { amount: number; currency: string };
  supplier?: string;
  supplier_ref?: string;
  rate_access_code?: string;
}

const blockOf = (b: BookingRow) => (b.hotel ?? {}) as HotelBlock;

/** The contract the policy chose for the stay, judged night by night under the airline's lever and rates. */
export function contractedStay(b: BookingRow, ctx: AirlineBookingContext): ContractedStay | undefined {
  const { contract_id, rate_access_code } = blockOf(b);
  if (contract_id === undefined) return undefined;
  for (const hotel of ctx.policy.hotels.values()) {
    const contract = hotel.contracts.find((c) => c.contract_id === contract_id);
    if (!contract) continue;
    return {
      rate_periods: contract.rate_periods,
      ...(rate_access_code ? { rate_access_code } : {}),
      judge: (base, nights) => stayRateCheck(contract.rate_periods, base, nights, ctx.rateMatchMode, ctx.fxRates),
    };
  }
  return undefined;
}

export async function bookStay(
  deps: HotelBookingDeps,
  b: BookingRow,
  reference: string,
  ctx: AirlineBookingContext,
  success: 'CONFIRMED' | 'MODIFIED',
  attempt: AttemptFacts,
): Promise<Outcome> {
  const hotel = blockOf(b);
  if (!hotel.property_id || !b.checkin_time_local || !b.checkout_time_local)
    return { status: 'NEEDS_REVIEW', reason: 'the booking names no hotel or stay to book' };
  const set = await deps.registry.forAirline(b.airline_id);
  const dates = roomDates(b.checkin_time_local, b.checkout_time_local);
  const traveller = { email: b.traveller_email ?? '', name: b.traveller_name ?? b.traveller_email ?? '' };
  if (
    orderMayExist({ attemptsStarted: attempt.attemptsStarted, retry_count: b.retry_count, last_error: b.last_error })
  ) {
    const found = await findEarlierStay(set, reference, { property_id: hotel.property_id, ...dates, traveller });
    if (found) return reserved(b, found.supplier, found.reservation, ctx, success);
  }
  // Only a supplier that reaches the guest needs the phone: the sandbox alone costs no read.
  const phone =
    set.hotels.some((s) => s.name !== 'SANDBOX') && traveller.email
      ? await travellerPhone(deps, b.airline_id, traveller.email)
      : null;
  const contract = contractedStay(b, ctx);
  const request = {
    reference,
    property_id: hotel.property_id,
    ...dates,
    traveller,
    booker_email: b.booked_by ?? ctx.policy.crew_booker_email ?? '',
    ...(hotel.contracted_rate ? { rate: hotel.contracted_rate } : {}),
    ...(phone ? { phone_number: phone } : {}),
    ...(contract ? { contract } : {}),
  };
  let refusal: SupplierError | null = null;
  for (const supplier of set.hotels) {
    try {
      return reserved(b, supplier, await supplier.supplier.bookHotel(request), ctx, success);
    } catch (err) {
      if (!isSupplierError(err) || !nextSupplierApplies({ kind: 'ERROR', transient: err.transient })) throw err;
      refusal = err;
    }
  }
  if (refusal) throw refusal;
  return { status: 'NEEDS_REVIEW', reason: 'no hotel supplier is configured' };
}

/**
 * At the supplier that holds the room: a different hotel is cancel-and-rebook (through the order); new dates
 * are the holder's amendment, whose refusal keeps the room and ends in review.
 */
export async function amendStay(
  deps: HotelBookingDeps,
  b: BookingRow,
  ctx: AirlineBookingContext,
  taskRef: string,
  attempt: AttemptFacts,
): Promise<Outcome> {
  const hotel = blockOf(b);
  if (!hotel.supplier_ref)
    return bookStay(deps, b, supplierReference('book', b.booking_id, taskRef), ctx, 'MODIFIED', attempt);
  const set = await deps.registry.forAirline(b.airline_id);
  const holder = hotelSupplierNamed(set, hotel.supplier);
  if (!holder)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the room is held at ${hotel.supplier ?? 'SANDBOX'}, which is no longer in the airline's hotel suppliers`,
    };
  const current = await holder.supplier.getReservation(hotel.supplier_ref);
  if (current && current.property_id !== hotel.property_id) {
    // A different hotel (city change): cancel the old room, book the new one.
    await holder.supplier.cancelHotel({
      supplier_ref: hotel.supplier_ref,
      reference: supplierReference('cancel', b.booking_id, taskRef),
    });
    const cancelledAt = clockOf(deps);
    const rebooked = await bookStay(
      deps,
      b,
      supplierReference('book', b.booking_id, taskRef),
      ctx,
      'MODIFIED',
      attempt,
    );
    return withMoveCost(rebooked, b, cancelledAt);
  }
  const contract = contractedStay(b, ctx);
  const r = await holder.supplier.amendHotel({
    supplier_ref: hotel.supplier_ref,
    reference: supplierReference('amend', b.booking_id, taskRef),
    ...roomDates(b.checkin_time_local!, b.checkout_time_local!),
    ...(contract ? { contract } : {}),
  });
  return reserved(b, holder, r, ctx, 'MODIFIED');
}

/**
 * The old room of a move cancelled: the fee it cost or avoided under its own contract's terms, as planned with the
 * move (engine planHotelMove), on the booking's hotel block and in the item's message, as a cancellation records
 * it. Judged when the supplier cancelled it (`cancelledAt`): planned in time but made after the deadline (the
 * supplier down until then), it costs the late fee. Nothing when the task stores no cancellation (no terms, or not
 * a roster's move).
 */
function withMoveCost(outcome: Outcome, b: BookingRow, cancelledAt: Date): Outcome {
  // The old room was there to cancel (the supplier had it): reserved.
  const cost = madeCancellationCost(b.cancellation, b.task_ref, outcome.reason, true, {
    at: cancelledAt,
    as: 'the old room cancelled at the supplier',
  });
  if (!cost) return outcome;
  const hotel = outcome.patch?.hotel ?? b.hotel ?? {};
  return { ...outcome, reason: cost.reason, patch: { ...outcome.patch, hotel: { ...hotel, ...cost.fields } } };
}

/**
 * A stay the roster moved from a supplier's room to a DIRECT hotel (engine supplierRoomMovedAway): the old room is
 * cancelled at the supplier that holds it, before the new hotel's rooming list carries the stay. Returns when the
 * supplier's cancellation succeeded (the worker's clock: the cancellation is judged then), or the task's end when
 * the room's supplier is no longer the airline's. Throws the supplier's error, as any supplier task does.
 */
export async function cancelRoomMovedAway(
  deps: HotelBookingDeps,
  b: BookingRow,
  room: { supplier: string | undefined; supplier_ref: string },
  taskRef: string,
): Promise<{ cancelled_at: Date } | Outcome> {
  const set = await deps.registry.forAirline(b.airline_id);
  const holder = hotelSupplierNamed(set, room.supplier);
  if (!holder)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the old room is held at ${room.supplier ?? 'SANDBOX'}, which is no longer in the airline's hotel suppliers`,
    };
  await holder.supplier.cancelHotel({
    supplier_ref: room.supplier_ref,
    reference: supplierReference('cancel', b.booking_id, taskRef),
  });
  return { cancelled_at: clockOf(deps) };
}

/**
 * Cancels every room of the stay at the supplier that holds it; a lost booking answer is looked up first. A room
 * held at a supplier no longer in the airline's order is a person's to cancel there (review).
 */
export async function cancelStay(deps: HotelBookingDeps, b: BookingRow): Promise<Outcome> {
  const hotel = blockOf(b);
  const set = await deps.registry.forAirline(b.airline_id);
  let holder = hotelSupplierNamed(set, hotel.supplier);
  let supplierRef = hotel.supplier_ref ?? null;
  // Reserved at a supplier the operator has since taken out of the order: the room is still held there, and
  // nothing here can cancel it. A person does (review); no fee or fee avoided is recorded (nothing was cancelled).
  if (supplierRef && !holder)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the room is held at ${hotel.supplier ?? 'SANDBOX'}, which is no longer in the airline's hotel suppliers: cancel it there`,
    };
  if (!supplierRef) {
    // No answer was recorded: a timed-out booking call may still have made a room.
    const dates =
      b.checkin_time_local && b.checkout_time_local ? roomDates(b.checkin_time_local, b.checkout_time_local) : null;
    const hint =
      hotel.property_id && dates
        ? {
            property_id: hotel.property_id,
            ...dates,
            traveller: { email: b.traveller_email ?? '', name: b.traveller_name ?? '' },
          }
        : undefined;
    const found = await findEarlierStay(set, supplierReference('book', b.booking_id), hint);
    holder = found?.supplier ?? holder;
    supplierRef = found?.reservation.supplier_ref ?? null;
  }
  if (!supplierRef || !holder)
    return { status: 'CANCELLED', reason: 'nothing was reserved at the supplier', nothing_reserved: true };
  const r = await holder.supplier.cancelHotel({
    supplier_ref: supplierRef,
    reference: supplierReference('cancel', b.booking_id),
  });
  return {
    status: 'CANCELLED',
    reason: null,
    cancelled_at: clockOf(deps),
    patch: {
      hotel: {
        ...(b.hotel ?? {}),
        supplier: holder.name as 'SANDBOX' | 'DUFFEL',
        supplier_ref: r.supplier_ref,
        supplier_status: r.status,
      },
    },
  };
}

async function findEarlierStay(set: AirlineSupplierSet, reference: string, hint: HotelLookupHint | undefined) {
  for (const supplier of set.hotels) {
    const reservation = await supplier.supplier.findReservation(reference, hint);
    if (reservation) return { supplier, reservation };
  }
  return null;
}

/**
 * The room as the supplier holds it, in the hotel block. A supplier that judged the contract itself (it says
 * so with rate_flag) booked only a rate the lever accepts; any other is compared here, first night's rate.
 */
function reserved(
  b: BookingRow,
  supplier: OrderedSupplier<HotelSupplier>,
  r: HotelReservation,
  ctx: AirlineBookingContext,
  success: 'CONFIRMED' | 'MODIFIED',
): Outcome {
  const judged = r.rate_flag !== undefined;
  const outcome = judged
    ? { status: success, reason: r.rate_flag ?? null, rate_flag: r.rate_flag ?? null }
    : reservationOutcome(
        blockOf(b).contracted_rate,
        r.nightly_rate,
        r.check_in_date,
        ctx.rateMatchMode,
        ctx.fxRates,
        success,
      );
  const block = {
    ...(b.hotel ?? {}),
    supplier: supplier.name as 'SANDBOX' | 'DUFFEL',
    live_mode: r.live_mode ?? supplier.live_mode,
    supplier_ref: r.supplier_ref,
    confirmation_number: r.confirmation_number === undefined ? r.supplier_ref : r.confirmation_number,
    ...(r.supplier_booking_ids
      ? { supplier_booking_id: r.supplier_booking_ids[0]!, supplier_booking_ids: r.supplier_booking_ids }
      : {}),
    ...(r.cancellation_timeline ? { cancellation_timeline: r.cancellation_timeline } : {}),
    property_id: r.property_id,
    name: r.property_name,
    check_in_date: r.check_in_date,
    check_out_date: r.check_out_date,
    nights: r.nights,
    nightly_rate: r.nightly_rate,
    total_price: r.total_price,
    rate_flag: outcome.rate_flag,
    supplier_status: r.status,
  };
  // STRICT and a price difference: the room is held, and a person decides.
  return { status: outcome.status, reason: outcome.reason, patch: { hotel: block } };
}

/** The guest's phone from the airline's traveller profile (sealed at rest), or null. */
async function travellerPhone(deps: HotelBookingDeps, airlineId: string, email: string): Promise<string | null> {
  const row = await travellerRepo.findByEmail(deps.db, airlineId, email);
  if (!row) return null;
  return (
    deps.vault.open(airlineId, { personal_sealed: row.personal_sealed, legacy_date_of_birth: row.date_of_birth }).data
      .phone_number ?? null
  );
}

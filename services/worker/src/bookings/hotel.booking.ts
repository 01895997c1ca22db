/**
 * A stay at the airline's hotel suppliers, in its order: the first that reserves a room (the next on no
 * availability or a refusal, never after an unknown outcome, which may have made a room). An earlier attempt
 * whose answer was lost is looked up by its reference before booking again. The contract goes with the
 * request, so a supplier that offers several rates (Duffel Stays) books only one the airline's lever accepts.
 */
import { bookingRepo, travellerRepo, type BookingPatch, type BookingRow, type Db } from '@crew/db';
import type { TravellerVault } from '@crew/platform';
import {
  latestOrderReference,
  madeCancellationCost,
  mayKeepFound,
  movedAwayStay,
  nextSupplierApplies,
  orderMayExist,
  replacesEarlierOrder,
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
import { SUPERSEDED, type Outcome, type RecordBeforeOrder } from './outcome';

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
  supplier_status?: string;
  confirmation_number?: string | null;
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
 * are the holder's amendment, whose refusal keeps the room and ends in review. With no live room recorded (none
 * yet, or the old one cancelled by an earlier attempt whose new room's answer was lost), whatever an earlier order
 * left is replaced first and the stay is booked under this task's reference.
 */
export async function amendStay(
  deps: HotelBookingDeps,
  b: BookingRow,
  ctx: AirlineBookingContext,
  taskRef: string,
  attempt: AttemptFacts,
  record: RecordBeforeOrder,
): Promise<Outcome> {
  const hotel = blockOf(b);
  const rebook = supplierReference('book', b.booking_id, taskRef);
  if (!liveRoomOf(hotel)) {
    const current = await replaceEarlierStay(deps, b, rebook, taskRef, ctx, 'MODIFIED', record);
    return 'booking_id' in current ? bookStay(deps, current, rebook, ctx, 'MODIFIED', attempt) : current;
  }
  const set = await deps.registry.forAirline(b.airline_id);
  const holder = hotelSupplierNamed(set, hotel.supplier);
  if (!holder)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the room is held at ${hotel.supplier ?? 'SANDBOX'}, which is no longer in the airline's hotel suppliers`,
    };
  const current = await holder.supplier.getReservation(hotel.supplier_ref!);
  if (current && current.property_id !== hotel.property_id) {
    // A different hotel (city change): cancel the old room, record it cancelled (with the fee it cost or avoided
    // under its own terms) and the new room's reference, then book the new one. Whatever becomes of that booking,
    // the block shows the old room cancelled, and a later cancellation finds a new room whose answer was lost.
    const cancelled = await holder.supplier.cancelHotel({
      supplier_ref: hotel.supplier_ref!,
      reference: supplierReference('cancel', b.booking_id, taskRef),
    });
    const cost = moveCost(b, clockOf(deps));
    // The stay at the old hotel, for its invoice: the booking names the new hotel from now on.
    const old = movedRoomOf(current, hotel);
    const recorded = await record(
      { hotel: { ...(b.hotel ?? {}), supplier_status: cancelled.status, ...cost?.fields } },
      rebook,
      cost,
      movedAwayStay(b, taskRef, old, cost?.fields),
    );
    return recorded ? bookStay(deps, recorded, rebook, ctx, 'MODIFIED', attempt) : SUPERSEDED;
  }
  const contract = contractedStay(b, ctx);
  const r = await holder.supplier.amendHotel({
    supplier_ref: hotel.supplier_ref!,
    reference: supplierReference('amend', b.booking_id, taskRef),
    ...roomDates(b.checkin_time_local!, b.checkout_time_local!),
    ...(contract ? { contract } : {}),
  });
  return reserved(b, holder, r, ctx, 'MODIFIED');
}

/**
 * The old room of a move cancelled: the fee it cost or avoided under its own contract's terms, as planned with the
 * move (engine planHotelMove), for the booking's hotel block and the item's message, as a cancellation records
 * it. Judged when the supplier cancelled it (`cancelledAt`): planned in time but made after the deadline (the
 * supplier down until then), it costs the late fee. Null when the task stores no cancellation (no terms, or not a
 * roster's move).
 */
function moveCost(b: BookingRow, cancelledAt: Date) {
  // The old room was there to cancel (the supplier had it): reserved.
  return madeCancellationCost(b.cancellation, b.task_ref, null, true, {
    at: cancelledAt,
    as: 'the old room cancelled at the supplier',
  });
}

/** The old room of a move as its hotel knows it: where, for which nights, under which confirmation number. */
export interface MovedRoom {
  property_id: string;
  check_in_date: string;
  check_out_date: string;
  confirmation_number: string | null;
}

/** The supplier's reservation of a move's old room, under the number the block records for it. */
function movedRoomOf(r: HotelReservation, hotel: HotelBlock): MovedRoom {
  return {
    property_id: r.property_id,
    check_in_date: r.check_in_date,
    check_out_date: r.check_out_date,
    confirmation_number: hotel.confirmation_number ?? hotel.supplier_ref ?? r.supplier_ref,
  };
}

/** The room the block records as held (a supplier reference not cancelled), or null. */
function liveRoomOf(hotel: HotelBlock): string | null {
  return hotel.supplier_ref && hotel.supplier_status !== 'CANCELLED' ? hotel.supplier_ref : null;
}

/** What a booking's lost room is looked up with besides its reference (a supplier without metadata search). */
function lookupHint(b: BookingRow): HotelLookupHint | undefined {
  const hotel = blockOf(b);
  const dates =
    b.checkin_time_local && b.checkout_time_local ? roomDates(b.checkin_time_local, b.checkout_time_local) : null;
  return hotel.property_id && dates
    ? {
        property_id: hotel.property_id,
        ...dates,
        traveller: { email: b.traveller_email ?? '', name: b.traveller_name ?? '' },
      }
    : undefined;
}

/**
 * A room held at a supplier the operator has since taken out of the airline's order: still held there, and nothing
 * here can cancel it. A person does (review), and no second room is booked beside it.
 */
function roomAtSupplierGone(supplier: string): Outcome {
  return {
    status: 'NEEDS_REVIEW',
    reason: `the room is held at ${supplier}, which is no longer in the airline's hotel suppliers: cancel it there`,
  };
}

/**
 * The room the booking holds: the one it records, unless cancelled; else one an order whose answer was lost made
 * under the booking's latest order reference (a first booking's, a rebook's). `gone`: the recorded room's supplier
 * is no longer in the airline's order (roomAtSupplierGone).
 */
async function heldRoom(
  set: AirlineSupplierSet,
  b: BookingRow,
): Promise<
  | { holder: OrderedSupplier<HotelSupplier>; supplier_ref: string; lost: HotelReservation | null }
  | { gone: string }
  | null
> {
  const hotel = blockOf(b);
  const recorded = liveRoomOf(hotel);
  const holder = hotelSupplierNamed(set, hotel.supplier);
  // A room recorded at a supplier the operator has since taken out of the order is still held there.
  if (recorded) return holder ? { holder, supplier_ref: recorded, lost: null } : { gone: hotel.supplier ?? 'SANDBOX' };
  const found = await findEarlierStay(set, latestOrderReference(b), lookupHint(b));
  if (!found || found.reservation.status === 'CANCELLED') return null;
  return { holder: found.supplier, supplier_ref: found.reservation.supplier_ref, lost: found.reservation };
}

/**
 * Before a task books under `reference` (a rebook's, or a booking's that replaces a room whose answer was lost):
 * the room the booking holds under an earlier reference is cancelled, and that and `reference` are recorded on the
 * booking before the new room is asked for. A lost room that is the very stay asked for is kept instead (its end:
 * reserved, as a retry that finds it). Returns the booking to book on, or the task's end. Nothing to do when the
 * booking's latest order reference is `reference` already: an earlier attempt of this task got that far.
 */
export async function replaceEarlierStay(
  deps: HotelBookingDeps,
  b: BookingRow,
  reference: string,
  taskRef: string,
  ctx: AirlineBookingContext,
  success: 'CONFIRMED' | 'MODIFIED',
  record: RecordBeforeOrder,
): Promise<BookingRow | Outcome> {
  if (!replacesEarlierOrder(b, reference)) return b;
  const set = await deps.registry.forAirline(b.airline_id);
  const held = await heldRoom(set, b);
  // Never a second room beside one nothing here can cancel.
  if (held && 'gone' in held) return roomAtSupplierGone(held.gone);
  if (held?.lost && sameStay(held.lost, b) && (await notBeingCancelled(deps, b, held.holder.name, held.lost)))
    return reserved(b, held.holder, held.lost, ctx, success);
  let patch: BookingPatch = {};
  if (held) {
    const r = await held.holder.supplier.cancelHotel({
      supplier_ref: held.supplier_ref,
      reference: supplierReference('cancel', b.booking_id, taskRef),
    });
    patch = {
      hotel: {
        ...(b.hotel ?? {}),
        supplier: held.holder.name as 'SANDBOX' | 'DUFFEL',
        supplier_ref: r.supplier_ref,
        supplier_status: r.status,
      },
    };
  }
  return (await record(patch, reference)) ?? SUPERSEDED;
}

/**
 * A lost room that is the stay asked for is kept, unless a superseded task of the booking is having it cancelled
 * (engine mayKeepFound): read now, as it may have been marked since this task read the booking.
 */
async function notBeingCancelled(
  deps: HotelBookingDeps,
  b: BookingRow,
  supplier: string,
  r: HotelReservation,
): Promise<boolean> {
  const now = await bookingRepo.findBooking(deps.db, b.booking_id);
  return mayKeepFound({ supplier, supplier_ref: r.supplier_ref }, now?.being_cancelled);
}

/** A reservation for exactly the stay the booking asks for: its hotel and its room dates. */
function sameStay(r: HotelReservation, b: BookingRow): boolean {
  const hotel = blockOf(b);
  if (!b.checkin_time_local || !b.checkout_time_local || r.property_id !== hotel.property_id) return false;
  const dates = roomDates(b.checkin_time_local, b.checkout_time_local);
  return r.check_in_date === dates.check_in_date && r.check_out_date === dates.check_out_date;
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
): Promise<{ cancelled_at: Date; room: MovedRoom | null; supplier_status: string } | Outcome> {
  const set = await deps.registry.forAirline(b.airline_id);
  const holder = hotelSupplierNamed(set, room.supplier);
  if (!holder)
    return {
      status: 'NEEDS_REVIEW',
      reason: `the old room is held at ${room.supplier ?? 'SANDBOX'}, which is no longer in the airline's hotel suppliers`,
    };
  const cancelled = await holder.supplier.cancelHotel({
    supplier_ref: room.supplier_ref,
    reference: supplierReference('cancel', b.booking_id, taskRef),
  });
  // The stay at the old hotel, for its invoice (the block names the DIRECT hotel now).
  return { cancelled_at: clockOf(deps), room: movedRoomOf(cancelled, blockOf(b)), supplier_status: cancelled.status };
}

/**
 * Cancels every room of the stay at the supplier that holds it: the room the booking records, unless cancelled
 * already; else one an order whose answer was lost may have made (a first booking's, or a rebook's after the old
 * room was cancelled), looked up under the booking's latest order reference. A room held at a supplier no longer in
 * the airline's order is a person's to cancel there (review).
 */
export async function cancelStay(deps: HotelBookingDeps, b: BookingRow): Promise<Outcome> {
  const set = await deps.registry.forAirline(b.airline_id);
  const held = await heldRoom(set, b);
  // No fee or fee avoided is recorded for a room at a supplier gone from the order (nothing was cancelled).
  if (held && 'gone' in held) return roomAtSupplierGone(held.gone);
  if (!held) return { status: 'CANCELLED', reason: 'nothing was reserved at the supplier', nothing_reserved: true };
  const r = await held.holder.supplier.cancelHotel({
    supplier_ref: held.supplier_ref,
    reference: supplierReference('cancel', b.booking_id),
  });
  return {
    status: 'CANCELLED',
    reason: null,
    cancelled_at: clockOf(deps),
    patch: {
      hotel: {
        ...(b.hotel ?? {}),
        supplier: held.holder.name as 'SANDBOX' | 'DUFFEL',
        supplier_ref: r.supplier_ref,
        supplier_status: r.status,
      },
    },
  };
}

export async function findEarlierStay(set: AirlineSupplierSet, reference: string, hint: HotelLookupHint | undefined) {
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
export function reserved(
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

import { randomUUID } from 'node:crypto';
import type { PatchBookingBody } from '@crew/contracts';
import {
  bookingRepo,
  outboxRepo,
  type BookingRow,
  type Db,
  type DbOrTrx,
  type PgListener,
  airlinePolicyRepo,
} from '@crew/db';
import {
  CALLER_WAITS_PRIORITY,
  deleteNeedsSupplierCall,
  manualOverrideOf,
  patchBlockIssue,
  patchPlan,
  type PatchPlan,
  taskInFlight,
  taskRefOf,
} from '@crew/engine';
import { ApiError, type Logger, type TravellerVault, openBookingContext } from '@crew/platform';
import { bookingJob, type BookingOperation, type OutboxRelay } from '@crew/queue';
import { SupplierRegistry, type Suppliers } from '@crew/suppliers';
import type { Principal } from '../auth/token-verifier';
import { cancellationForTask, keepHeldForPatch } from './cancellation';
import type { AirlineStays } from '../config/hotels.service';

export interface BookingDeps {
  db: Db;
  relay: OutboxRelay;
  suppliers: Suppliers;
  /**
   * Each airline's suppliers: a committed offer is found, and a flight booking's status asked, at the
   * supplier that holds it. Absent: every airline has the sandbox alone (as before supplier orders).
   */
  registry?: SupplierRegistry;
  logger: Logger;
  /** Opens the travellers' sealed personal fields. */
  vault: TravellerVault;
  /** How long PATCH and DELETE wait for the worker's outcome before answering with the booking as it stands. */
  settleWaitMs?: number;
  /**
   * LISTENs on BOOKING_SETTLED_CHANNEL (the worker's settle transaction notifies at commit): PATCH and
   * DELETE wake on their booking's notification. Without it, or while it reconnects, they re-read every 500 ms.
   */
  bookingSettled?: PgListener;
  /** The airline's Duffel Stays: a DUFFEL hotel booking's status refresh reads the room there. */
  staysOf?: AirlineStays;
  /** The clock a cancellation is judged against the hotel's deadline with (tests set it). */
  now?: () => Date;
}

export const actorOf = (p: Principal) => p.email || p.client_id;

/** The deps' registry, or one that gives every airline the sandbox alone. */
export function registryOf(deps: { suppliers: Suppliers; registry?: SupplierRegistry }): SupplierRegistry {
  return deps.registry ?? new SupplierRegistry({ factories: { sandbox: deps.suppliers }, load: async () => null });
}

export async function bookingOr404(db: DbOrTrx, airlineId: string, bookingId: string): Promise<BookingRow> {
  const b = await bookingRepo.findBooking(db, bookingId, airlineId);
  if (!b) throw ApiError.notFound('Booking');
  return b;
}

/** Re-read of a waiting booking while no notification can arrive (no listener, or it is reconnecting). */
const UNLISTENED_RECHECK_MS = 500;

/**
 * Waits until the booking leaves PENDING (the worker settled its task), up to `ms`: reads it, then sleeps
 * until its settle notification, the listener's reconnect or the deadline. Subscribed before each read, so
 * a settle committed between the read and the sleep still wakes it.
 */
async function settled(deps: BookingDeps, bookingId: string, ms: number): Promise<BookingRow> {
  const until = Date.now() + ms;
  let wake = () => {};
  const unsubscribe = deps.bookingSettled?.subscribe(bookingId, () => wake());
  let timer: NodeJS.Timeout | undefined;
  try {
    for (;;) {
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const b = (await bookingRepo.findBooking(deps.db, bookingId))!;
      const left = until - Date.now();
      if (!taskInFlight(b) || left <= 0) return b;
      await Promise.race([
        woken,
        new Promise<void>(
          (resolve) =>
            (timer = setTimeout(
              resolve,
              deps.bookingSettled?.listening ? left : Math.min(left, UNLISTENED_RECHECK_MS),
            )),
        ),
      ]);
      clearTimeout(timer);
    }
  } finally {
    clearTimeout(timer);
    unsubscribe?.();
  }
}

/**
 * A supplier task already in flight must end before another starts on the same booking. (A DIRECT hotel's
 * stay waiting on its rooming list is not: nobody waits hours for the hotel, and a new change may follow it.)
 */
async function idleOr409(deps: BookingDeps, b: BookingRow): Promise<BookingRow> {
  if (b.status !== 'PENDING') return b;
  const now = await settled(deps, b.booking_id, 5000);
  if (taskInFlight(now)) throw ApiError.conflict('A supplier call for this booking is in flight; try again shortly');
  return now;
}

/**
 * The booking locked for a change in the caller's transaction (FOR UPDATE), or 409 when a supplier task is in flight
 * on it. Two changes at once are decided one after the other: the second sees the first's task and is refused.
 */
async function lockedIdleOr409(trx: DbOrTrx, bookingId: string): Promise<BookingRow> {
  const b = (await bookingRepo.lockBooking(trx, bookingId))!;
  if (taskInFlight(b)) throw ApiError.conflict('A supplier call for this booking is in flight; try again shortly');
  return b;
}

/**
 * Starts a supplier task on an existing booking (PENDING + job), in the caller's transaction: PATCH, DELETE
 * and a person's action from the review queue.
 */
export async function startTask(
  trx: DbOrTrx,
  b: BookingRow,
  operation: BookingOperation,
  patch: bookingRepo.BookingPatch,
  event: { reason: string | null; actor: string },
  deps: { vault: TravellerVault; now?: () => Date },
  /** Why a hotel is cancelled: the airline's DELETE (and a person's action), or a PATCH's rebook. */
  cause: 'DELETE' | 'PATCH' = 'DELETE',
): Promise<void> {
  const ref = taskRefOf(operation, randomUUID());
  // A hotel cancellation under the contract's terms: the fee it records or avoids; a held one on the booking ends.
  const cost = await cancellationForTask(
    trx,
    deps,
    b,
    operation,
    ref,
    cause,
    CALLER_WAITS_PRIORITY,
    deps.now?.() ?? new Date(),
  );
  await bookingRepo.updateBooking(
    trx,
    b.booking_id,
    {
      ...patch,
      ...(cost.cancellation !== undefined ? { cancellation: cost.cancellation } : {}),
      status: 'PENDING',
      task_ref: ref,
      task_operation: operation,
      next_attempt_at: null,
    },
    event,
  );
  // The airline's caller waits for the outcome (PATCH and DELETE answer when the task settles).
  await outboxRepo.addToOutbox(trx, [
    bookingJob({
      airline_id: b.airline_id,
      booking_id: b.booking_id,
      attempt: b.retry_count + 1,
      action_id: b.action_id,
      operation,
      ref,
      priority: CALLER_WAITS_PRIORITY,
      type: b.type,
    }),
  ]);
}

/**
 * PATCH (spec 4.4, 3.2): hotel dates → supplier amend on the same booking; hotel property or any flight
 * change → cancel-and-rebook (original CANCELLED, a new booking). Never gated by booking_modification.
 */
export async function patchBooking(
  deps: BookingDeps,
  caller: Principal,
  bookingId: string,
  body: PatchBookingBody,
): Promise<{ booking: BookingRow; replaces?: string }> {
  let b = await bookingOr404(deps.db, caller.airline_id, bookingId);
  const mismatch = patchBlockIssue(b.type, body);
  if (mismatch) throw ApiError.validation([mismatch], 'The block must match the booking type');
  const override = manualOverrideOf(body.manual_override);
  const actor = actorOf(caller);
  const reason = body.reason ?? null;
  if (!body.hotel && !body.flight) {
    await deps.db.transaction().execute(async (trx) => {
      const locked = (await bookingRepo.lockBooking(trx, b.booking_id))!;
      // A roster cancellation held on the booking ends: the PATCH supersedes it, and the booking stays.
      await keepHeldForPatch(trx, locked, override, deps.now?.() ?? new Date());
      await bookingRepo.updateBooking(trx, b.booking_id, { manual_override: override });
    });
    return { booking: (await bookingRepo.findBooking(deps.db, b.booking_id))! };
  }
  b = await idleOr409(deps, b);
  // A property change rebooks at the station's configured hotel (its contracted rate and channel) under the booking account.
  const ctx =
    b.type === 'HOTEL' && body.hotel?.property_id !== undefined
      ? openBookingContext(
          deps.vault,
          caller.airline_id,
          await airlinePolicyRepo.loadBookingFacts(deps.db, caller.airline_id, []),
          new Date().toISOString(),
        )
      : null;
  const planOf = (row: BookingRow): PatchPlan => {
    const plan = patchPlan(
      row,
      body,
      caller.email,
      ctx?.policy.hotels.get(row.station ?? ''),
      ctx?.policy.crew_booker_email ?? null,
    );
    if (plan.kind === 'INVALID') throw ApiError.validation([{ field: plan.field, issue: plan.issue }]);
    if (plan.kind === 'CONFLICT') throw ApiError.conflict(plan.message);
    return plan;
  };
  // Decided once on what is read now (a refusal costs no lock), then again on the booking locked for the change.
  const seen = planOf(b);
  if (seen.kind === 'OVERRIDE_ONLY') return { booking: b };
  const started = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockedIdleOr409(trx, b.booking_id);
    const plan = planOf(locked);
    if (plan.kind !== seen.kind) throw ApiError.conflict('The booking changed meanwhile; read it again');
    if (plan.kind === 'REBOOK') return rebook(trx, deps, locked, caller, override, reason, plan.changes);
    if (plan.kind === 'AMEND')
      await startTask(
        trx,
        locked,
        plan.operation,
        { manual_override: override, ...plan.changes },
        { reason: reason ?? 'dates changed by the airline', actor },
        deps,
      );
    return null;
  });
  deps.relay.kick();
  const wait = deps.settleWaitMs ?? 10_000;
  if (!started) return { booking: await settled(deps, b.booking_id, wait) };
  const [fresh] = await Promise.all([settled(deps, started, wait), settled(deps, b.booking_id, wait)]);
  return { booking: fresh, replaces: b.booking_id };
}

/**
 * Cancel-and-rebook, in the caller's transaction on the locked booking: the original is cancelled at the supplier,
 * a new booking (new id, returned) is made.
 */
async function rebook(
  trx: DbOrTrx,
  deps: BookingDeps,
  b: BookingRow,
  caller: Principal,
  override: boolean,
  reason: string | null,
  changes: bookingRepo.BookingPatch,
): Promise<string> {
  const newId = randomUUID();
  const ref = taskRefOf('BOOK', randomUUID());
  await bookingRepo.insertBookings(trx, [
    {
      booking_id: newId,
      airline_id: b.airline_id,
      type: b.type,
      status: 'PENDING',
      source: b.source,
      manual_override: override,
      config_version_used: b.config_version_used,
      schedule_id: b.schedule_id,
      action_id: null,
      employee_id: b.employee_id,
      pairing_number: b.pairing_number,
      duty_date: b.duty_date,
      duty_period_num: b.duty_period_num,
      leg_sequence: b.leg_sequence,
      // The anchor stays the airline's (spec 2.5): the rebooking is found by it, and it routes an own-carrier leg.
      flight_number: b.flight_number,
      irop_ref: b.irop_ref,
      traveller_email: b.traveller_email,
      traveller_name: b.traveller_name,
      station: b.station,
      checkin_time_local: b.checkin_time_local,
      checkout_time_local: b.checkout_time_local,
      from_airport: b.from_airport,
      to_airport: b.to_airport,
      dep_time_local: b.dep_time_local,
      arr_time_local: b.arr_time_local,
      booked_by: b.booked_by,
      review_reason: null,
      hotel: null,
      flight: null,
      task_ref: ref,
      task_operation: 'BOOK',
      ...changes,
    },
  ]);
  await bookingRepo.insertBookingEvents(trx, [
    {
      booking_id: newId,
      status: 'PENDING',
      reason: `rebooked from ${b.booking_id}${reason ? `: ${reason}` : ''}`,
      actor: actorOf(caller),
    },
  ]);
  await outboxRepo.addToOutbox(trx, [
    bookingJob({
      airline_id: b.airline_id,
      booking_id: newId,
      attempt: 1,
      action_id: null,
      operation: 'BOOK',
      ref,
      priority: CALLER_WAITS_PRIORITY,
      type: b.type,
    }),
  ]);
  await startTask(
    trx,
    b,
    'CANCEL',
    { manual_override: true },
    { reason: `replaced by ${newId}${reason ? `: ${reason}` : ''}`, actor: actorOf(caller) },
    deps,
    'PATCH',
  );
  return newId;
}

/** DELETE: cancels at the supplier (again on NEEDS_REVIEW); a CANCELLED booking makes no supplier call. */
export async function deleteBooking(
  deps: BookingDeps,
  caller: Principal,
  bookingId: string,
  reason: string | undefined,
): Promise<BookingRow> {
  let b = await bookingOr404(deps.db, caller.airline_id, bookingId);
  b = await idleOr409(deps, b);
  // Decided on the booking locked for the change: a PATCH or DELETE at the same moment is refused, not raced.
  const started = await deps.db.transaction().execute(async (trx) => {
    const locked = await lockedIdleOr409(trx, b.booking_id);
    if (!deleteNeedsSupplierCall(locked.status)) {
      await bookingRepo.updateBooking(trx, locked.booking_id, { manual_override: true });
      return false;
    }
    await startTask(
      trx,
      locked,
      'CANCEL',
      { manual_override: true },
      { reason: reason ?? 'cancelled by the airline', actor: actorOf(caller) },
      deps,
    );
    return true;
  });
  if (!started) return (await bookingRepo.findBooking(deps.db, b.booking_id))!;
  deps.relay.kick();
  return settled(deps, b.booking_id, deps.settleWaitMs ?? 10_000);
}

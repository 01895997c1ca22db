import type { Job } from 'bullmq';
import {
  airlinePolicyRepo,
  bookingRepo,
  orderSightingRepo,
  outboxRepo,
  type BookingPatch,
  type BookingRow,
  type Db,
  type DbOrTrx,
} from '@crew/db';
import {
  amendedStatus,
  automaticRetryApplies,
  bookTaskReference,
  cancelledBeforeRecord,
  DISPOSITION_OF_TASK,
  flightTravellerIssue,
  internalErrorOutcome,
  isCurrentTask,
  cancellationReviewDeadline,
  keptForOldRoom,
  madeCancellationCost,
  nextAutomaticRetry,
  oldRoomRefusal,
  roomingStayMovedAway,
  settleBooking,
  supplierErrorOutcome,
  supplierPlan,
  supplierReference,
  supplierRoomMovedAway,
  taskIdentity,
  withoutSupplierRoom,
  movedAwayStay,
  type AirlineBookingContext,
  type MadeCancellationCost,
  type MovedAwayStay,
  type SupplierBlock,
} from '@crew/engine';
import type { Logger, PersonalData, TravellerVault } from '@crew/platform';
import { automaticRetryJob, type JobData, type OutboxRelay } from '@crew/queue';
import { isSupplierError, type FlightTraveller, type SupplierRegistry, type Suppliers } from '@crew/suppliers';
import {
  bookDeadhead,
  cancelDeadhead,
  replaceEarlierOrder,
  type AttemptFacts,
  type FlightBookingDeps,
} from './flight.booking';
import { SupplierLanePauses, SupplierPaced, type Outcome, type RecordBeforeOrder } from './outcome';
import {
  amendStay,
  bookStay,
  cancelRoomMovedAway,
  cancelStay,
  replaceEarlierStay,
  type MovedRoom,
} from './hotel.booking';
import type { WorkerMetrics } from '../operability/hooks';
import type { RoomingChannel } from '../rooming/rooming.channel';
import { heldTask, releaseHeldCancellation, withCancellationCost } from './cancellation-hold';
import type { ScheduleCompletion } from '../schedules/schedule-completion';
import { madeBySupersededTask, settleSupersededTask } from './superseded-task';
import { sweepStrayOrders } from './stray-orders';
import { openBookingContext } from '@crew/platform';

export type BookingJob = Job<JobData<'bookings', 'execute-booking'>, void, 'execute-booking'>;
type Data = JobData<'bookings', 'execute-booking'>;

export interface BookingProcessorDeps {
  db: Db;
  relay: OutboxRelay;
  logger: Logger;
  suppliers: Suppliers;
  /** Each airline's ordered suppliers (flights and hotels; no setting: the sandbox alone). */
  registry: SupplierRegistry;
  /** The api's address as suppliers reach it (the airline's own system calls back there). */
  callbackBase: string;
  /** Opens the travellers' sealed personal fields (the date of birth a flight needs). */
  vault: TravellerVault;
  metrics: WorkerMetrics;
  /** Seconds before each automatic retry of a FAILED booking (AUTO_RETRY_DELAYS). */
  retryDelays: readonly number[];
  now?: () => Date;
  /** Called after a commit that wrote webhook deliveries (the delivery worker looks at once). */
  webhookKick?: () => void;
  /** DIRECT hotels' channel: their stays go on the hotel's rooming list, not to the GDS supplier. */
  rooming?: RoomingChannel;
  /** Told of each settled item's schedule: completes it once none of its items is open. */
  completion: Pick<ScheduleCompletion, 'settled'>;
}

const ref = (booking: BookingRow, data: Data) => taskIdentity(data, booking.booking_id);

export { SupplierPaced } from './outcome';

/** How long an airline's booking context (policy, contracts) is reused by hotel tasks: a config change applies within this. */
const CONTEXT_TTL_MS = 1000;

/**
 * One booking, amendment or cancellation at the supplier. Every supplier call carries a reference derived
 * from the booking, so a re-delivered job (stalled worker, crash after the supplier answered) finds the
 * reservation it already made instead of making a second one.
 */
export class BookingProcessor {
  private readonly contexts = new Map<string, { at: number; ctx: Promise<AirlineBookingContext> }>();

  /** What deadheads need: each airline's suppliers, its paused lanes, and who hears of an empty balance. */
  private readonly flights: FlightBookingDeps;

  constructor(private readonly deps: BookingProcessorDeps) {
    this.flights = {
      registry: deps.registry,
      callbackBase: deps.callbackBase,
      sightedOrders: (airlineId, supplier, reference, since) =>
        orderSightingRepo.sightedOrders(deps.db, airlineId, supplier, reference, since),
      pauses: new SupplierLanePauses(),
      onInsufficientBalance: (airlineId, supplier) =>
        deps.logger.error(
          { airline_id: airlineId, supplier, alert: 'SUPPLIER_BALANCE_INSUFFICIENT' },
          'duffel balance insufficient: the airline must top up its supplier account',
        ),
    };
  }

  /**
   * One pass over the bookings where a person recorded a PNR after an order whose answer was lost: that order is
   * looked up and cancelled beside the recorded seat (stray-orders.ts). Returns how many bookings it looked at.
   */
  sweepStrayOrders(): Promise<number> {
    return sweepStrayOrders({
      db: this.deps.db,
      flights: this.flights,
      logger: this.deps.logger.child({ component: 'stray-orders' }),
      now: this.deps.now,
      webhookKick: this.deps.webhookKick,
      settled: (scheduleId) => this.deps.completion.settled(scheduleId),
    });
  }

  /**
   * Hotel tasks reuse the airline's context for a few seconds: at 64 tasks/s per process the three queries
   * behind it would otherwise be most of the task's Postgres work. Flight tasks need their traveller's
   * profile and read it fresh.
   */
  /** The airline's booking context as of `now`, with the travellers named (a task needs one, or none). */
  private async loadContext(airlineId: string, now: Date, travellerEmails: string[]): Promise<AirlineBookingContext> {
    const facts = await airlinePolicyRepo.loadBookingFacts(this.deps.db, airlineId, travellerEmails);
    return openBookingContext(this.deps.vault, airlineId, facts, now.toISOString());
  }

  private context(b: BookingRow, now: Date): Promise<AirlineBookingContext> {
    if (b.type !== 'HOTEL') return this.loadContext(b.airline_id, now, b.traveller_email ? [b.traveller_email] : []);
    const hit = this.contexts.get(b.airline_id);
    const t = Date.now();
    if (hit && t - hit.at < CONTEXT_TTL_MS) return hit.ctx;
    const ctx = this.loadContext(b.airline_id, now, []);
    this.contexts.set(b.airline_id, { at: t, ctx });
    ctx.catch(() => this.contexts.delete(b.airline_id));
    if (this.contexts.size > 1000)
      for (const [k, v] of this.contexts) if (t - v.at >= CONTEXT_TTL_MS) this.contexts.delete(k);
    return ctx;
  }

  async process(job: BookingJob): Promise<void> {
    const data = job.data;
    const log = this.deps.logger.child({
      queue: 'bookings',
      job_id: job.id,
      airline_id: data.airline_id,
      booking_id: data.booking_id,
    });
    if (data.automatic && !(await this.acceptAutomaticRetry(data))) return;
    let booking = await bookingRepo.findBooking(this.deps.db, data.booking_id, data.airline_id);
    // A held cancellation's timer: released now as the one cancellation, unless a roster kept it meanwhile.
    if (booking && heldTask(booking, data)) {
      const release = await releaseHeldCancellation(this.deps, booking, data);
      if (release.kind === 'REVIEW') {
        // Judged at the release, it went to a person: nothing to send, the item waits in the queue.
        if (release.events) this.deps.webhookKick?.();
        if (release.schedule_id) this.deps.completion.settled(release.schedule_id);
      }
      if (release.kind !== 'RELEASED') return;
      booking = await bookingRepo.findBooking(this.deps.db, data.booking_id, data.airline_id);
    }
    // A stale or duplicate attempt (superseded by another task or a retry, or already settled) does nothing, but for
    // what an earlier start of it may have made at the supplier before it stopped mid-call (superseded-task.ts).
    if (!booking || !isCurrentTask(booking, data)) {
      if (booking && (job.attemptsStarted ?? job.attemptsMade + 1) > 1)
        await this.supersededTask(
          booking,
          data,
          null,
          await this.context(booking, this.deps.now?.() ?? new Date()),
          log,
          { rerun: true },
        );
      return;
    }
    if (this.deps.rooming?.handles(booking)) {
      // Moved here from a supplier's room: that room is cancelled first, under its own terms.
      const room = supplierRoomMovedAway(booking.hotel, data.operation);
      const moved = room ? await this.cancelRoomMovedAway(job, booking, room, log) : { booking, note: null };
      if (!moved) return;
      return this.deps.rooming.run(moved.booking, data, (b) => isCurrentTask(b, data), moved.note);
    }
    // Moved here from a DIRECT hotel: that hotel's CANCELLED row goes on its rooming list before the new room is
    // booked; its fee is recorded when that hotel confirms it, judged by its list, not by this supplier's clock.
    let note: string | null = null;
    if (this.deps.rooming && roomingStayMovedAway(booking.hotel, data.operation)) {
      const told = await this.deps.rooming.cancelMovedAway(booking, data, (b) => isCurrentTask(b, data));
      if (!told) return;
      const now = this.deps.now?.() ?? new Date();
      if ('issue' in told) {
        await this.settle(
          booking,
          data,
          await this.context(booking, now),
          { status: 'NEEDS_REVIEW', reason: told.issue },
          now,
        );
        return;
      }
      note = told.notes.join('; ') || null;
      booking = await bookingRepo.findBooking(this.deps.db, data.booking_id, data.airline_id);
      if (!booking || !isCurrentTask(booking, data)) return;
    }
    const now = this.deps.now?.() ?? new Date();
    const ctx = await this.context(booking, now);
    const task = booking;
    // What the task recorded before ordering again (an old reservation cancelled): its note joins the end's reason.
    const recorded: { note: string | null } = { note: null };
    const record: RecordBeforeOrder = async (patch, orderReference, cost, moved) => {
      const written = await this.recordBeforeOrder(task, data, patch, orderReference, cost, moved);
      if (written && cost?.reason) recorded.note = cost.reason;
      return written;
    };
    let outcome: Outcome;
    try {
      outcome = await this.execute(
        booking,
        data,
        ctx,
        { attemptsStarted: job.attemptsStarted ?? job.attemptsMade + 1 },
        record,
      );
    } catch (err) {
      outcome = this.failureOutcome(err, job, booking, log);
    }
    if (outcome.superseded) return;
    if (recorded.note) note = note ? `${note}; ${recorded.note}` : recorded.note;
    if (note) outcome = { ...outcome, reason: outcome.reason ? `${outcome.reason}; ${note}` : note };
    if (outcome.awaiting) return this.awaitCallback(booking, data, outcome, log);
    // Replaced while its call was in flight (a later roster, an injected cancellation): what it made is not lost.
    if (!(await this.settle(booking, data, ctx, outcome, now)))
      return this.supersededTask(booking, data, outcome, ctx, log, { rerun: false });
    log.info(
      { status: outcome.status, reason: outcome.reason, operation: data.operation ?? 'BOOK' },
      'booking task settled',
    );
  }

  /**
   * How a task that threw ends: a supplier pacing us puts it back (SupplierPaced), a supplier's error is its
   * outcome (transient FAILED, a refusal NEEDS_REVIEW), an internal error is retried by BullMQ and then FAILED.
   */
  private failureOutcome(err: unknown, job: BookingJob, booking: BookingRow, log: Logger): Outcome {
    if (err instanceof SupplierPaced) throw err;
    if (isSupplierError(err) && err.rateLimited) {
      // A supplier account of the airline's own (Duffel) paces that airline only; the shared sandbox paces all.
      const lane = err.supplier ? { airline_id: booking.airline_id, supplier: err.supplier } : undefined;
      if (lane) this.flights.pauses.pause(lane.airline_id, lane.supplier, err.retryAfterMs!);
      throw new SupplierPaced(err.retryAfterMs!, err.message, lane);
    }
    if (!isSupplierError(err)) {
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      log.error({ err, last }, 'booking task failed');
      if (!last) throw err;
      return internalErrorOutcome((err as Error).message);
    }
    return supplierErrorOutcome(err);
  }

  /**
   * A stay moved from a supplier's room to a DIRECT hotel: the old room is cancelled at its supplier, and the fee
   * it cost or avoided under its own terms (engine planHotelMove, judged when the supplier cancelled it) goes on
   * the hotel block, which no longer names that room. Returns the booking for the rooming list and the item's note,
   * or null when the task ended here (the cancellation failed: settled as any supplier task) or is not current.
   */
  private async cancelRoomMovedAway(
    job: BookingJob,
    booking: BookingRow,
    room: { supplier: string | undefined; supplier_ref: string },
    log: Logger,
  ): Promise<{ booking: BookingRow; note: string | null } | null> {
    const data = job.data;
    let made: { cancelled_at: Date; room: MovedRoom | null; supplier_status: string } | Outcome;
    try {
      made = await cancelRoomMovedAway(this.deps, booking, room, ref(booking, data));
    } catch (err) {
      made = this.failureOutcome(err, job, booking, log);
    }
    if ('status' in made) {
      const now = this.deps.now?.() ?? new Date();
      await this.settle(booking, data, await this.context(booking, now), made, now);
      return null;
    }
    const cancelledAt = made.cancelled_at;
    const oldRoom = made.room;
    const cancelled = {
      supplier: room.supplier,
      supplier_ref: room.supplier_ref,
      supplier_status: made.supplier_status,
    };
    // The fee the old room's cancellation cost or avoided under the terms `b` holds, judged when it was made.
    const costUnder = (b: BookingRow) =>
      madeCancellationCost(b.cancellation, b.task_ref, null, true, {
        at: cancelledAt,
        as: 'the old room cancelled at the supplier',
      });
    const note = await this.deps.db.transaction().execute(async (trx) => {
      const cur = await bookingRepo.lockBooking(trx, booking.booking_id);
      if (!cur) return undefined;
      if (!isCurrentTask(cur, data)) {
        // Superseded meanwhile: the room is cancelled at the supplier all the same (engine cancelledBeforeRecord),
        // priced by the terms this task was given, as it would have priced it.
        const cost = costUnder(booking);
        const stay = oldRoom ? movedAwayStay(booking, ref(booking, data), oldRoom, cost?.fields) : null;
        await this.recordCancelledBeforeRecord(trx, cur, cancelled, cost, stay);
        return undefined;
      }
      const cost = costUnder(cur);
      await bookingRepo.updateBooking(
        trx,
        cur.booking_id,
        { hotel: { ...withoutSupplierRoom(cur.hotel ?? {}), ...cost?.fields } },
        { reason: cost?.reason ?? 'the old room cancelled at the supplier', actor: 'engine' },
      );
      // The old hotel's invoice finds the stay there (the booking names the DIRECT hotel now).
      if (oldRoom) await bookingRepo.recordMovedStay(trx, movedAwayStay(cur, ref(cur, data), oldRoom, cost?.fields));
      return cost?.reason ?? null;
    });
    if (note === undefined) return null;
    const current = await bookingRepo.findBooking(this.deps.db, booking.booking_id, booking.airline_id);
    return current ? { booking: current, note } : null;
  }

  /** An automatic retry fires: accepted only if the booking still waits for it (FAILED, same retry count). */
  private async acceptAutomaticRetry(data: Data): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      const b = await bookingRepo.lockBooking(trx, data.booking_id);
      if (!b || !automaticRetryApplies(b, data)) return false;
      await bookingRepo.updateBooking(
        trx,
        b.booking_id,
        { status: 'PENDING', retry_count: b.retry_count + 1, next_attempt_at: null },
        { reason: `automatic retry ${b.retry_count + 1}`, actor: 'engine' },
      );
      return true;
    });
  }

  private async execute(
    b: BookingRow,
    data: Data,
    ctx: AirlineBookingContext,
    attempt: AttemptFacts,
    record: RecordBeforeOrder,
  ): Promise<Outcome> {
    switch (supplierPlan(b.type, data.operation ?? 'BOOK')) {
      case 'CANCEL':
        return b.type === 'HOTEL' ? this.cancelHotel(b) : cancelDeadhead(this.flights, b, flightTraveller(b, ctx));
      case 'AMEND':
        return this.amendHotel(b, data, ctx, attempt, record);
      case 'CANCEL_AND_REBOOK': {
        const reference = supplierReference('book', b.booking_id, ref(b, data));
        // The old ticket is cancelled and recorded so, with the rebook's reference, before the rebook goes out.
        // Already out (the airline's own system answers it by callback, which resumes this task): as it is.
        const current =
          b.flight?.request_reference === reference
            ? b
            : await replaceEarlierOrder(this.flights, b, reference, record, flightTraveller(b, ctx));
        if (!('booking_id' in current)) return current;
        const rebooked = await this.bookFlight(current, reference, ctx, attempt);
        return { ...rebooked, status: amendedStatus(rebooked.status) };
      }
      case 'BOOK': {
        // A booking that recorded an order reference (a rebook's, or a lost order a person's choice replaces) is
        // booked under the task's own reference, after what it holds under the earlier one is replaced.
        const reference = bookTaskReference(b, ref(b, data));
        const current =
          b.type === 'HOTEL'
            ? await replaceEarlierStay(this.deps, b, reference, ref(b, data), ctx, 'CONFIRMED', record)
            : await replaceEarlierOrder(this.flights, b, reference, record, flightTraveller(b, ctx));
        if (!('booking_id' in current)) return current;
        return b.type === 'HOTEL'
          ? this.bookHotel(current, reference, ctx, 'CONFIRMED', attempt)
          : this.bookFlight(current, reference, ctx, attempt);
      }
    }
  }

  /**
   * The task's RecordBeforeOrder: written only while the task is the booking's current one. Superseded meanwhile,
   * the room or ticket it cancelled at the supplier is still recorded CANCELLED, with its fee, where the booking
   * names it live, and a move's old stay for that hotel's invoice (engine cancelledBeforeRecord): nothing else the
   * newer task wrote is touched.
   */
  private async recordBeforeOrder(
    b: BookingRow,
    data: Data,
    patch: BookingPatch,
    orderReference: string,
    cost?: MadeCancellationCost | null,
    moved?: MovedAwayStay,
  ): Promise<BookingRow | null> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await bookingRepo.lockBooking(trx, b.booking_id);
      if (!current) return null;
      if (!isCurrentTask(current, data)) {
        const cancelled = current.type === 'HOTEL' ? patch.hotel : patch.flight;
        await this.recordCancelledBeforeRecord(trx, current, cancelled, cost, moved);
        return null;
      }
      const fields: BookingPatch = { ...patch, order_reference: orderReference };
      await bookingRepo.updateBooking(trx, b.booking_id, fields);
      if (moved) await bookingRepo.recordMovedStay(trx, moved);
      return { ...current, ...fields };
    });
  }

  /**
   * A room or ticket a superseded task cancelled at the supplier and could not record (`current`: the booking,
   * locked in `trx`): CANCELLED on its block, with the fee `cost` gives, where it still names it live, with a
   * history entry; a move's old room (`moved`) as the stay moved away from, for the old hotel's invoice.
   */
  private async recordCancelledBeforeRecord(
    trx: DbOrTrx,
    current: BookingRow,
    cancelled: SupplierBlock | null | undefined,
    cost?: MadeCancellationCost | null,
    moved?: MovedAwayStay | null,
  ): Promise<void> {
    const hotel = current.type === 'HOTEL';
    const { note, moved: stay } = cancelledBeforeRecord({
      type: current.type,
      cancelled,
      current: (hotel ? current.hotel : current.flight) ?? null,
      cost,
      moved,
    });
    // Once per room: a newer task that cancelled it again may have recorded it already (recordMovedStay).
    if (stay) await bookingRepo.recordMovedStay(trx, stay);
    if (!note) return;
    await bookingRepo.updateBooking(
      trx,
      current.booking_id,
      {
        ...(hotel ? { hotel: note.block as BookingRow['hotel'] } : { flight: note.block as BookingRow['flight'] }),
        status: current.status,
      },
      { reason: note.reason, actor: 'engine' },
    );
  }

  // ---- hotels: through the airline's ordered hotel suppliers (hotel.booking.ts) ----

  private bookHotel(
    b: BookingRow,
    reference: string,
    ctx: AirlineBookingContext,
    success: 'CONFIRMED' | 'MODIFIED',
    attempt: AttemptFacts,
  ): Promise<Outcome> {
    return bookStay(this.deps, b, reference, ctx, success, attempt);
  }

  private amendHotel(
    b: BookingRow,
    data: Data,
    ctx: AirlineBookingContext,
    attempt: AttemptFacts,
    record: RecordBeforeOrder,
  ): Promise<Outcome> {
    return amendStay(this.deps, b, ctx, ref(b, data), attempt, record);
  }

  private cancelHotel(b: BookingRow): Promise<Outcome> {
    return cancelStay(this.deps, b);
  }

  // ---- flights ----

  private async bookFlight(
    b: BookingRow,
    reference: string,
    ctx: AirlineBookingContext,
    attempt: AttemptFacts,
  ): Promise<Outcome> {
    const traveller = flightTraveller(b, ctx);
    const travellerIssue = flightTravellerIssue(traveller?.date_of_birth);
    if (travellerIssue || !traveller?.date_of_birth)
      return { status: 'NEEDS_REVIEW', reason: travellerIssue, recommended_action: 'BOOK_MANUALLY' };
    return bookDeadhead(this.flights, b, reference, ctx, traveller, attempt);
  }

  // ---- settling ----

  /**
   * A superseded task's room or ticket (`outcome` null or FAILED: looked up by its reference): kept or cancelled.
   * `rerun`: `started` is the booking as a rerun of the job read it (as it is now), not as the task began.
   */
  private async supersededTask(
    started: BookingRow,
    data: Data,
    outcome: Outcome | null,
    ctx: AirlineBookingContext,
    log: Logger,
    o: { rerun: boolean },
  ): Promise<void> {
    const deps = { ...this.deps, flights: this.flights };
    const made = await madeBySupersededTask(deps, started, data, outcome, ctx);
    await settleSupersededTask(deps, started, data, made, log, o);
  }

  /** The supplier answers later (a callback resumes the task): the booking stays PENDING, with what was asked. */
  private async awaitCallback(b: BookingRow, data: Data, outcome: Outcome, log: Logger): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const current = await bookingRepo.lockBooking(trx, b.booking_id);
      if (!current || !isCurrentTask(current, data)) return;
      await bookingRepo.updateBooking(
        trx,
        b.booking_id,
        { ...outcome.patch },
        { reason: 'awaiting the supplier’s callback', actor: 'engine' },
      );
    });
    log.info({ operation: data.operation ?? 'BOOK' }, 'booking task awaits the supplier’s callback');
  }

  private async settle(
    b: BookingRow,
    data: Data,
    ctx: AirlineBookingContext,
    outcome: Outcome,
    now: Date,
  ): Promise<boolean> {
    const retry =
      outcome.status === 'FAILED'
        ? nextAutomaticRetry(b.retry_count, ctx.maxRetries, this.deps.retryDelays, now.getTime())
        : null;
    const nextAttempt = retry?.at ?? null;
    const settled = await this.deps.db.transaction().execute(async (trx) => {
      const current = await bookingRepo.lockBooking(trx, b.booking_id);
      // Someone else settled it meanwhile (a duplicate delivery): theirs stands.
      if (!current || !isCurrentTask(current, data)) return null;
      // A hotel cancellation made: the late fee it cost, or the one it avoided, on the booking and its item. A move
      // whose old DIRECT hotel still holds the room (it refused its cancellation): the item stays that person's.
      const ended = keptForOldRoom(
        withCancellationCost(outcome, current),
        oldRoomRefusal(current.cancellation, current.task_ref),
      );
      // One refused or failed: a person's, due at the hotel's cancellation deadline.
      const reviewDeadline = cancellationReviewDeadline(
        ended.status,
        data.operation,
        current.cancellation,
        current.task_ref,
      );
      // With its webhook events in this transaction: booking.<status>, and irop.completed once the irop_ref's last booking ends.
      const written = await bookingRepo.writeSettlement(
        trx,
        b.booking_id,
        settleBooking(ended, {
          actor: 'engine',
          actionId: ended.leaveItem ? null : (data.action_id ?? current.action_id),
          fields: ended.patch,
          nextAttemptAt: nextAttempt,
          urgency: { task: data.priority, orItem: true },
          irop: current,
          ...(reviewDeadline !== undefined ? { reviewDeadline } : {}),
        }),
      );
      if (retry) {
        await outboxRepo.addToOutbox(trx, [automaticRetryJob(data, b.retry_count, retry.delayMs)]);
      }
      return written;
    });
    if (!settled) return false;
    if (settled.events) this.deps.webhookKick?.();
    if (settled.item?.schedule_id) this.deps.completion.settled(settled.item.schedule_id);
    if (nextAttempt) this.deps.relay.kick();
    this.deps.metrics.bookingOutcome(b.type, outcome.status);
    if (settled.item)
      this.deps.metrics.dispositionReached(
        settled.item.priority,
        DISPOSITION_OF_TASK[outcome.status],
        (now.getTime() - settled.item.created_at.getTime()) / 1000,
      );
    return true;
  }
}

/** The deadhead's traveller as the airline's profile has them (null without a profile; the date of birth may be empty). */
function flightTraveller(b: BookingRow, ctx: AirlineBookingContext): FlightTraveller | null {
  const traveller = ctx.travellers.get((b.traveller_email ?? '').toLowerCase());
  if (!traveller) return null;
  const [first, ...rest] = (traveller.name ?? b.traveller_name ?? '').split(' ');
  const personal = (traveller as { personal?: PersonalData }).personal ?? {};
  return {
    ...travellerExtras(personal),
    email: b.traveller_email ?? '',
    first_name: traveller.first_name ?? first ?? '',
    last_name: traveller.last_name ?? (rest.join(' ') || first || ''),
    date_of_birth: traveller.date_of_birth ?? '',
  };
}

/** The profile fields a supplier's order may need beyond the name and date of birth (Duffel: title, gender, phone). */
function travellerExtras(p: PersonalData): Partial<FlightTraveller> {
  const doc = p.identity_document;
  return {
    ...(p.title ? { title: p.title as FlightTraveller['title'] } : {}),
    ...(p.gender ? { gender: p.gender as FlightTraveller['gender'] } : {}),
    ...(p.phone_number ? { phone_number: p.phone_number } : {}),
    ...(doc
      ? { identity_document: { ...doc, type: doc.type as NonNullable<FlightTraveller['identity_document']>['type'] } }
      : {}),
  };
}

import { randomUUID } from 'node:crypto';
import { ErrorCode, type ActionInjectionBody, type BookingRequestBody } from '@crew/contracts';
import {
  bookingRepo,
  outboxRepo,
  reviewRepo,
  reviewSettingsRepo,
  reviewWritesRepo,
  scheduleRepo,
  scheduleLifecycleRepo,
  tenancyRepo,
  webhookRepo,
  type Db,
  type DbOrTrx,
  airlinePolicyRepo,
} from '@crew/db';
import {
  BOOKING_EVENT_STATUSES,
  awaitsManualBooking,
  lostOrderReference,
  bookingStatusOf,
  cancellationTarget,
  commitResolution,
  dateOfBirthIssue,
  decideRequest,
  injectedStay,
  isCancellingRequest,
  manualOverrideOf,
  requestBlocks,
  requestBookedBy,
  requestDutyDate,
  requestIssues,
  requestDisposition,
  requestPriority,
  requestSource,
  requestSubtype,
  reviewSettingsOf,
  reviewStateOf,
  reviewStatusOf,
  taskRefOf,
  urgentEvents,
  type Decision,
  type ReviewItem,
} from '@crew/engine';
import { ApiError, type TravellerVault, openBookingContext } from '@crew/platform';
import type { SupplierRegistry, Suppliers } from '@crew/suppliers';
import { bookingJob, type OutboxRelay } from '@crew/queue';
import { resolvedEvent } from '../action-items/resolved-event';
import type { Principal } from '../auth/token-verifier';
import { sealedOf, travellerProfilePath } from '../travellers/travellers.service';
import { registryOf } from './bookings.service';
import { cancellationForTask } from './cancellation';
import { ownSystemBlock, ownSystemReason, ownSystemTicket, settleOwnSystem } from './own-system';
import { committedOffer, stationOf } from './request-lookups';

type RequestBody = ActionInjectionBody | BookingRequestBody;

export interface RequestOutcome {
  bookingId: string;
  actionId: string | null;
}

/**
 * POST /crew/action-items and POST /crew/bookings/request: the airline asks the engine to book (or to let
 * a booking go). The booking is made asynchronously by the worker, like every other booking. `reply` builds
 * the answer in the request's transaction, after everything it writes, and may store it there (Idempotency-Key):
 * what it reads is what commits.
 */
export async function requestBooking<R>(
  deps: {
    db: Db;
    relay: OutboxRelay;
    suppliers: Suppliers;
    vault: TravellerVault;
    registry?: SupplierRegistry;
    /** The clock a cancellation is judged against the hotel's deadline with (tests set it). */
    now?: () => Date;
  },
  caller: Principal,
  body: RequestBody,
  kind: 'injection' | 'commit',
  reply: (trx: DbOrTrx, outcome: RequestOutcome) => Promise<R>,
): Promise<R> {
  const commit = kind === 'commit';
  const issues = requestIssues(body, commit);
  if (issues.length) throw ApiError.validation(issues);
  // A seat the airline already booked in its own system: recorded CONFIRMED, no supplier task.
  const ownTicket = commit ? ownSystemTicket(body) : null;
  const airlineId = caller.airline_id;
  const email = body.anchors.traveller_email.toLowerCase();
  const traveller = await tenancyRepo.findTraveller(deps.db, airlineId, email);
  if (!traveller)
    throw ApiError.unprocessable(
      ErrorCode.TRAVELLER_NOT_FOUND,
      'anchors.traveller_email resolves no traveller profile of this airline',
      [{ field: '/anchors/traveller_email', issue: 'unknown traveller' }],
    );
  // A sealed value that does not open (another airline's row) reads as no date of birth, like a missing one.
  if (
    dateOfBirthIssue(body.type, body.classification, deps.vault.open(airlineId, sealedOf(traveller)).data.date_of_birth)
  ) {
    const put = `PUT ${travellerProfilePath(traveller.employee_id ?? body.anchors.employee_id ?? '{employee_id}')}`;
    throw ApiError.unprocessable(
      ErrorCode.DATE_OF_BIRTH_REQUIRED,
      `The traveller profile has no date_of_birth, which a flight booking needs; set it with ${put}`,
      [
        { field: 'date_of_birth', issue: `is required for a flight booking; set it with ${put}` },
        { field: '/anchors/traveller_email', issue: 'traveller has no date_of_birth' },
      ],
    );
  }
  const { policy, hotelConfigVersion, flightConfigVersion } = openBookingContext(
    deps.vault,
    airlineId,
    await airlinePolicyRepo.loadBookingFacts(deps.db, airlineId, [email]),
    new Date().toISOString(),
  );
  const flight: (BookingRequestBody['flight'] & {}) | undefined = body.flight;
  const station = body.type === 'HOTEL' ? await stationOf(deps, airlineId, body, policy.hotels) : null;
  const times = body.type === 'HOTEL' ? injectedStay(body.hotel!, policy.hotels.get(station!)?.terms) : null;
  const committed =
    commit && body.type === 'FLIGHT' ? await committedOffer(await registryOf(deps).forAirline(airlineId), body) : null;
  const offer = committed?.offer ?? null;
  const dutyDate = requestDutyDate(body.type, body.hotel, flight?.depart_date, body.anchors.duty_date, offer?.dep_time);
  const actionId = randomUUID();
  const manualOverride = manualOverrideOf(body.manual_override);
  const source = requestSource(body.source, body.irop_ref);
  // The booking task waits in its item's priority lane; a booking request (commit) has the default lane.
  const taskPriority = requestPriority(kind === 'injection' ? (body as ActionInjectionBody).priority : undefined);

  /** Injected items are written with their booking job: the task can never settle before its item exists. */
  const insertInjectedItem = async (trx: DbOrTrx, bookingId: string, d: Decision | null) => {
    if (kind !== 'injection') return;
    const disposition = requestDisposition(d);
    const at = new Date().toISOString();
    const facts = {
      type: body.type,
      subtype: requestSubtype(body.classification),
      classification: body.classification,
      priority: taskPriority,
      disposition,
      recommended_action: d?.recommended_action ?? null,
      booking_id: bookingId,
      created_at: at,
      disposition_at: disposition ? at : null,
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      assignee: null,
    } as ReviewItem;
    // Left for a person: OPEN, due by its review target (the airline's settings are read only then).
    const review =
      reviewStatusOf(facts) === 'OPEN'
        ? reviewStateOf(facts, null, reviewSettingsOf(await reviewSettingsRepo.findReviewSettings(trx, airlineId)))
        : { review_status: reviewStatusOf(facts), due_by: null };
    await bookingRepo.insertActionItems(trx, [
      {
        action_id: actionId,
        airline_id: airlineId,
        schedule_id: null,
        item_key: `INJECTED:${actionId}`,
        source,
        type: body.type,
        subtype: requestSubtype(body.classification),
        classification: body.classification,
        priority: taskPriority,
        disposition: requestDisposition(d),
        auto_eligible: d ? d.auto_eligible : true,
        anchors: {
          employee_id: body.anchors.employee_id ?? null,
          pairing_number: body.anchors.pairing_number ?? null,
          duty_date: dutyDate,
          traveller_email: email,
        },
        source_rows: { day1_row: null, day2_row: null },
        booking_id: bookingId,
        flight_options_url: null,
        recommended_action: d?.recommended_action ?? null,
        message: d?.reason ?? null,
        notes: body.notes ?? null,
        irop_ref: body.irop_ref ?? null,
        event_at: null,
        details: {
          ...(body.hotel ? { hotel: body.hotel, station } : {}),
          ...(body.flight ? { flight: body.flight } : {}),
        },
        disposition_at: facts.disposition_at,
        ...review,
      },
    ]);
  };

  /**
   * A commit is the person's action on the item that waited for them, as the same choice from the review queue
   * would be: RESOLVED by the caller, its stale recommendation and deadline cleared. Returns the item as written.
   */
  const resolveByCommit = (trx: DbOrTrx, itemId: string, commit: Parameters<typeof commitResolution>[0]) =>
    reviewRepo.writeReview(trx, itemId, {
      ...commitResolution(commit, caller.email || caller.client_id, Date.now()),
      due_by: null,
      action_reason: null,
    });

  const write = async (trx: DbOrTrx) => {
    // Serialized per airline: two identical requests (or a request and a roster's diff) never both see "no live booking".
    await bookingRepo.lockAirlineBookings(trx, airlineId);
    const cancelling = isCancellingRequest(body.classification);
    // A cancellation also finds a booking whose roster cancellation is held or awaits a person: it carries it out.
    const live = await bookingRepo.liveBookingFor(
      trx,
      airlineId,
      body.type,
      { traveller_email: email, pairing_number: body.anchors.pairing_number, duty_date: dutyDate },
      { withPendingCancel: cancelling },
    );

    if (cancelling) {
      const target = cancellationTarget(live);
      if (!target)
        throw ApiError.validation(
          [{ field: '/anchors', issue: `no live ${body.type} booking matches these anchors` }],
          'Nothing to cancel',
        );
      const ref = taskRefOf('CANCEL', actionId);
      // An injected cancellation's item takes the booking over (as a later roster's cancellation does): the item
      // that waited for a person is superseded, and a retry or a later roster acts on the cancellation's item.
      const takeover = kind === 'injection' ? { action_id: actionId } : {};
      if (kind === 'injection')
        await reviewWritesRepo.supersedeOpenItems(trx, [{ booking_id: target.booking_id, action_id: actionId }]);
      // A hotel's under the contract's terms in force now, as any cancellation: the fee it records or avoids, the
      // P1 lane near an in-time deadline; a roster cancellation held on the booking ends, this one being the one.
      const cost = await cancellationForTask(
        trx,
        deps,
        target,
        'CANCEL',
        ref,
        'REQUEST',
        taskPriority,
        deps.now?.() ?? new Date(),
        kind === 'injection' ? actionId : target.action_id,
      );
      await bookingRepo.updateBooking(
        trx,
        target.booking_id,
        {
          status: 'PENDING',
          manual_override: manualOverride,
          task_ref: ref,
          task_operation: 'CANCEL',
          ...takeover,
          ...(cost.cancellation !== undefined ? { cancellation: cost.cancellation } : {}),
        },
        { reason: `${body.classification} requested`, actor: caller.email || caller.client_id },
      );
      await outboxRepo.addToOutbox(trx, [
        bookingJob({
          airline_id: airlineId,
          booking_id: target.booking_id,
          attempt: target.retry_count + 1,
          action_id: kind === 'injection' ? actionId : null,
          operation: 'CANCEL',
          ref,
          priority: cost.lane,
          type: body.type,
        }),
      ]);
      await insertInjectedItem(trx, target.booking_id, null);
      // A commit keeps the booking's item, which its task settles: one waiting for a person (a roster cancellation
      // sent to review) is that person's CANCEL_BOOKING, as the same choice from the review queue would be.
      if (kind === 'commit' && target.action_id) {
        const item = await scheduleRepo.findActionItem(trx, airlineId, target.action_id);
        if (item?.review_status === 'OPEN')
          await resolvedEvent(
            trx,
            await resolveByCommit(trx, item.action_id, { type: body.type, recordsTicket: false, cancels: true }),
          );
      }
      return { bookingId: target.booking_id, decision: null, scheduleId: null };
    }
    // A booking the engine left for a person (BOOK_MANUALLY, no reservation) is fulfilled by the request.
    const awaiting = live.find(awaitsManualBooking);
    const busy = live.find((b) => b !== awaiting);
    if (busy)
      throw ApiError.conflict(
        `A live ${body.type} booking already exists for these anchors (${busy.booking_id}): modify it, or release it with manual_override false`,
      );

    const decision = decideRequest(
      {
        action_id: actionId,
        kind,
        type: body.type,
        classification: body.classification,
        traveller_email: email,
        station: station ?? undefined,
        checkin_time_local: times?.checkin,
        checkout_time_local: times?.checkout,
        property_id: body.hotel?.property_id ?? null,
      },
      policy,
    );
    const bookedBy = requestBookedBy(body.type, kind, caller.email, policy.crew_booker_email);
    const status = ownTicket ? ('CONFIRMED' as const) : bookingStatusOf(decision);
    const blocks = requestBlocks(body.type, decision, body.hotel?.property_id, flight);
    // The supplier that issued a committed offer books it (the worker reads it from the block).
    const flightBlock = ownTicket
      ? ownSystemBlock(blocks.flight, ownTicket)
      : blocks.flight && committed
        ? { ...blocks.flight, supplier: committed.supplier }
        : blocks.flight;
    const fields = {
      status,
      manual_override: manualOverride,
      config_version_used: body.type === 'HOTEL' ? hotelConfigVersion : flightConfigVersion,
      review_reason: ownTicket ? null : decision.reason,
      booked_by: bookedBy,
      hotel: blocks.hotel,
      flight: flightBlock,
      station,
      checkin_time_local: times?.checkin ?? null,
      checkout_time_local: times?.checkout ?? null,
      from_airport: flight?.from_airport ?? offer?.from_airport ?? null,
      to_airport: flight?.to_airport ?? offer?.to_airport ?? null,
      duty_date: dutyDate,
      task_ref: status === 'PENDING' ? taskRefOf('BOOK', actionId) : null,
      task_operation: status === 'PENDING' ? ('BOOK' as const) : null,
    };
    let bookingId: string;
    let attempt = 1;
    let resolvedItem: string | null = null;
    /** action_item.resolved for the item a commit resolved, as the transaction leaves it. */
    const emitResolved = async () => {
      if (!resolvedItem) return;
      const item = await scheduleRepo.findActionItem(trx, airlineId, resolvedItem);
      if (item) await resolvedEvent(trx, item);
    };
    if (awaiting) {
      bookingId = awaiting.booking_id;
      attempt = awaiting.retry_count + 1;
      const reason = ownTicket ? ownSystemReason(ownTicket) : `${body.classification} requested by the airline`;
      // The injected item takes the booking over: the item that waited for a person is superseded by it, as a
      // later roster's item supersedes it (a commit keeps the booking's item, which its task settles).
      if (kind === 'injection')
        await reviewWritesRepo.supersedeOpenItems(trx, [{ booking_id: bookingId, action_id: actionId }]);
      // The booking's last order may still be outstanding (a roster's review overtook its call): the new task
      // orders under a reference of its own after looking that one up, never under the same (engine lostOrderReference).
      const lost = status === 'PENDING' ? lostOrderReference(awaiting) : null;
      await bookingRepo.updateBooking(
        trx,
        bookingId,
        {
          ...fields,
          pending_cancel: false,
          ...(kind === 'injection' ? { action_id: actionId } : {}),
          ...(lost ? { order_reference: lost } : {}),
        },
        { reason, actor: caller.email || caller.client_id },
      );
      // A commit that moves the booking on is the person's action on the item that waited for them: it says so
      // (action_taken, no stale recommendation), as the same choice from the review queue would. One the engine
      // holds for review at once (say no hotel configured) leaves the item waiting.
      if (kind === 'commit' && awaiting.action_id && status !== 'NEEDS_REVIEW') {
        await resolveByCommit(trx, awaiting.action_id, { type: body.type, recordsTicket: ownTicket !== null });
        resolvedItem = awaiting.action_id;
      }
    } else {
      bookingId = randomUUID();
      await bookingRepo.insertBookings(trx, [
        {
          booking_id: bookingId,
          airline_id: airlineId,
          type: body.type,
          source,
          schedule_id: null,
          action_id: kind === 'injection' ? actionId : null,
          employee_id: body.anchors.employee_id ?? traveller.employee_id,
          pairing_number: body.anchors.pairing_number ?? null,
          duty_period_num: null,
          leg_sequence: null,
          flight_number: body.anchors.flight_number ?? null,
          irop_ref: body.irop_ref ?? null,
          traveller_email: email,
          traveller_name: traveller.name,
          dep_time_local: null,
          arr_time_local: null,
          ...fields,
        },
      ]);
      await bookingRepo.insertBookingEvents(trx, [
        {
          booking_id: bookingId,
          status,
          reason: ownTicket
            ? ownSystemReason(ownTicket)
            : (decision.reason ?? `${body.classification} requested by the airline`),
          actor: caller.email || caller.client_id,
        },
      ]);
    }
    if (status === 'PENDING') {
      await outboxRepo.addToOutbox(trx, [
        bookingJob({
          airline_id: airlineId,
          booking_id: bookingId,
          attempt,
          action_id: kind === 'injection' ? actionId : (awaiting?.action_id ?? null),
          operation: 'BOOK',
          ref: taskRefOf('BOOK', actionId),
          priority: taskPriority,
          type: body.type,
        }),
      ]);
    }
    await insertInjectedItem(trx, bookingId, decision);
    if (ownTicket) {
      const { scheduleId } = await settleOwnSystem(
        trx,
        {
          bookingId,
          airlineId,
          actionId: awaiting?.action_id ?? null,
          iropRef: body.irop_ref ?? awaiting?.irop_ref ?? null,
          priority: taskPriority,
        },
        ownTicket,
      );
      await emitResolved();
      return { bookingId, decision, scheduleId };
    }
    // Held for review at once (no task): its booking.needs_review event, in this transaction.
    if (status === 'NEEDS_REVIEW') {
      await webhookRepo.emitBookingEvents(trx, [bookingId], urgentEvents(taskPriority), BOOKING_EVENT_STATUSES);
      if (body.irop_ref)
        await webhookRepo.emitIropCompletedIfDone(trx, airlineId, body.irop_ref, urgentEvents(taskPriority));
    }
    await emitResolved();
    return { bookingId, decision, scheduleId: null };
  };
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const written = await write(trx);
    return {
      ...written,
      reply: await reply(trx, { bookingId: written.bookingId, actionId: kind === 'injection' ? actionId : null }),
    };
  });

  // The fulfilled item may have been its schedule's last open one (the worker completes schedules the same way,
  // and its sweep completes one this step missed).
  if (outcome.scheduleId) await scheduleLifecycleRepo.completeIfSettled(deps.db, outcome.scheduleId);
  deps.relay.kick();
  return outcome.reply;
}

import { v7 as timeOrderedUuid } from 'uuid';
import {
  bookingStatusOf,
  dispositionFor,
  hotelBlockOf,
  itemMessage,
  planHotelMove,
  planItem,
  planRosterCancellation,
  reviewStateOf,
  taskOperationOf,
  taskRefOf,
  type DerivedActionItem,
  type FlightItemDetails,
  type HotelItemDetails,
  type BookingStatus,
  type RequestedBooking,
  type AirlineBookingContext,
  type BookedHotel,
  rosterCancellationBookings,
  type StationHotel,
  type ReviewItem,
  type ReviewSettings,
} from '@crew/engine';
import { bookingJob, type BookingQueue, type CatalogJob } from '@crew/queue';
import type { ActionItemInsert, BookingChange, BookingEventInsert, BookingInsert } from '@crew/db';

export interface DiffWrites {
  actionItems: ActionItemInsert[];
  newBookings: BookingInsert[];
  bookingChanges: BookingChange[];
  bookingEvents: BookingEventInsert[];
  jobs: CatalogJob<BookingQueue>[];
  /** The airline's own bookings that a new roster row adopts instead of a second booking. */
  adoptions: {
    booking_id: string;
    employee_id: string;
    pairing_number: string;
    duty_period_num: number | null;
    leg_sequence: number | null;
  }[];
  /** Items whose booking task is still running (their disposition is set when it ends). */
  open: number;
  /** The action ids of the items left PENDING_REVIEW, in item order (the schedule's action_item.pending_review event). */
  pendingReview: string[];
}

const ENGINE = 'engine';

const isHotel = (item: DerivedActionItem): item is DerivedActionItem & { details: HotelItemDetails } =>
  item.type === 'HOTEL';

/**
 * The bookings whose stored hotel block the plan needs: hotel changes, any of which may move the stay to another
 * property (its old room is then cancelled under its own contract's terms, planHotelMove).
 */
export function movableStays(items: readonly DerivedActionItem[]): string[] {
  return items
    .filter((i) => i.type === 'HOTEL' && i.subtype === 'MODIFY' && i.classification !== 'UNCHANGED' && i.booking_id)
    .map((i) => i.booking_id!);
}

/**
 * Every booking whose stored hotel block the plan of these items reads, once: the stays a change may move
 * (movableStays) and those a cancellation is judged on where terms apply (engine rosterCancellationBookings).
 */
export function bookedStays(items: readonly DerivedActionItem[], hotels: ReadonlyMap<string, StationHotel>): string[] {
  return [...new Set([...movableStays(items), ...rosterCancellationBookings(items, hotels)])];
}

/**
 * Turns the diff's action items and the policy's decisions into rows: action items, new bookings, changes
 * to existing bookings, status-history events and booking jobs. Pure but for id generation. A generator that
 * pauses (yields) after every `partSize` items: its caller lets the event loop run there, so the connection goes
 * on sending the COPY of the rows planned before while these are planned.
 */
export function* planDiffWrites(
  items: readonly DerivedActionItem[],
  ctx: AirlineBookingContext,
  scheduleId: string,
  airlineId: string,
  bookingStatus: ReadonlyMap<string, BookingStatus>,
  retryCounts: ReadonlyMap<string, number>,
  now: string,
  /** Adopted bookings are taken out, so one booking is adopted once across slices. */
  requested: Map<string, RequestedBooking[]>,
  partSize: number,
  /** The airline's review settings: an item left for a person is written OPEN with its due_by. */
  review: ReviewSettings,
  /** The version of each existing booking's row the diff read: a change is written onto that version only. */
  versionOf: (bookingId: string) => string | undefined,
  /**
   * The stored hotel blocks of the bookings of `bookedStays`: a change moving a stay cancels the old room under
   * its own terms (planHotelMove); a cancellation where terms apply is judged on the booking's own hotel.
   */
  booked: ReadonlyMap<string, BookedHotel> = new Map(),
): Generator<void, DiffWrites, void> {
  const w: DiffWrites = {
    actionItems: [],
    newBookings: [],
    bookingChanges: [],
    bookingEvents: [],
    jobs: [],
    adoptions: [],
    open: 0,
    pendingReview: [],
  };
  let inPart = 0;
  for (const item of items) {
    if (inPart++ === partSize) {
      inPart = 1;
      yield;
    }
    // Time-ordered ids (UUIDv7): a big roster's 160k new keys go to the right edge of the primary-key indexes
    // instead of random pages all over them (less Postgres CPU and WAL per row).
    const actionId = timeOrderedUuid();
    // The same plan the dry-run preview reports (engine planItem).
    const plan = planItem(item, actionId, ctx.policy, bookingStatus, requested);
    if (plan.kind === 'COVERED') {
      const covering = plan.covering;
      const details = item.details as Partial<HotelItemDetails & FlightItemDetails>;
      w.adoptions.push({
        booking_id: covering.booking_id,
        employee_id: item.anchors.employee_id,
        pairing_number: item.anchors.pairing_number,
        duty_period_num: details.duty_period_num ?? null,
        leg_sequence: details.leg_sequence ?? null,
      });
      addItem(
        w,
        actionItemRow(item, actionId, airlineId, scheduleId, now, review, {
          disposition: plan.disposition,
          auto_eligible: true,
          booking_id: covering.booking_id,
          flight_options_url: null,
          recommended_action: null,
          message: plan.message,
        }),
      );
      continue;
    }
    const hotel = isHotel(item) ? item.details : null;
    const flight = isHotel(item) ? null : (item.details as FlightItemDetails);
    // A hotel cancellation under the contract's cancellation terms: in time (P1 near the deadline), held, the
    // late fee recorded, or a person's decision due at the deadline (engine planRosterCancellation).
    const cancelling =
      hotel && item.subtype === 'CANCEL' && item.booking_id
        ? planRosterCancellation(
            // The booking's own property and contract decide the terms, as for a DELETE.
            { priority: item.priority, details: { ...hotel, hotel: booked.get(item.booking_id) ?? null } },
            plan.decision,
            { hotels: ctx.policy.hotels, settings: ctx.costSettings },
            taskRefOf('CANCEL', actionId),
            actionId,
            now,
            itemMessage(plan.decision, item),
          )
        : null;
    // A change that moves the stay to another property: the task cancels the old room under that room's terms
    // (P1 near its deadline, its fee recorded after it; never held nor reviewed: engine planHotelMove).
    const moving =
      hotel && item.subtype === 'MODIFY' && item.booking_id
        ? planHotelMove(
            { priority: item.priority, details: hotel },
            plan.decision,
            booked.get(item.booking_id),
            { hotels: ctx.policy.hotels, settings: ctx.costSettings },
            taskRefOf('AMEND', actionId),
            actionId,
            now,
            itemMessage(plan.decision, item),
          )
        : null;
    const decision = cancelling?.decision ?? plan.decision;
    const disposition = cancelling ? dispositionFor(decision, plan.existing) : plan.disposition;
    const held = cancelling?.held_until ?? null;
    // A held cancellation has nothing in flight: the schedule does not wait for it (docs/decisions.md).
    if (disposition === null && !held) w.open++;
    const hotelBlock = decision.hotel ? hotelBlockOf(decision.hotel) : null;

    const operation = taskOperationOf(decision);
    // The supplier task this item starts is named by the item itself.
    const taskRef = operation ? taskRefOf(operation, actionId) : null;
    let bookingId = item.booking_id;
    if (item.subtype === 'NEW_BOOKING') {
      bookingId = timeOrderedUuid();
      const status = bookingStatusOf(decision);
      w.newBookings.push({
        booking_id: bookingId,
        airline_id: airlineId,
        type: item.type,
        status,
        source: 'SCHEDULE_DIFF',
        manual_override: false,
        config_version_used: item.type === 'HOTEL' ? ctx.hotelConfigVersion : ctx.flightConfigVersion,
        schedule_id: scheduleId,
        action_id: actionId,
        employee_id: item.anchors.employee_id,
        pairing_number: item.anchors.pairing_number,
        duty_date: item.anchors.duty_date,
        duty_period_num: item.details.duty_period_num,
        leg_sequence: flight?.leg_sequence ?? null,
        flight_number: flight?.flight_number ?? null,
        irop_ref: null,
        traveller_email: item.details.traveller_email?.toLowerCase() ?? null,
        traveller_name: item.details.name,
        station: hotel?.station ?? null,
        checkin_time_local: hotel?.checkin_time_local ?? null,
        checkout_time_local: hotel?.checkout_time_local ?? null,
        from_airport: flight?.from_airport ?? null,
        to_airport: flight?.to_airport ?? null,
        dep_time_local: flight?.dep_time_local ?? null,
        arr_time_local: flight?.arr_time_local ?? null,
        booked_by: ctx.policy.crew_booker_email,
        review_reason: decision.reason,
        hotel: hotelBlock,
        flight: null,
        task_ref: taskRef,
        task_operation: operation,
        // Its first history entry, in its own row (bookingHistory): no booking_events row per new booking.
        created_status: status,
        created_reason: decision.reason ?? `${item.classification}: booking requested`,
      });
    } else if (bookingId && decision.action !== 'NONE') {
      // MODIFY / CANCEL: the roster's new wish is recorded on the booking, so the same roster again finds nothing new.
      // A held cancellation leaves the booking as it is (nothing went to the supplier); the roster sees it as
      // cancelled meanwhile (pending_cancel), so it neither cancels it again nor books the layover anew.
      const status = held ? (bookingStatus.get(bookingId) ?? 'CONFIRMED') : bookingStatusOf(decision);
      const cancel = item.subtype === 'CANCEL';
      const readVersion = versionOf(bookingId);
      // Every booking an item names was read by the diff (engine diffLayovers, diffDeadheads).
      if (readVersion === undefined) throw new Error(`booking ${bookingId} was not read by the diff`);
      w.bookingChanges.push({
        booking_id: bookingId,
        read_version: readVersion,
        status: held ? null : status,
        pending_cancel: cancel && (decision.action === 'REVIEW' || held) ? true : null,
        review_reason: decision.reason,
        station: cancel ? null : (hotel?.station ?? null),
        checkin_time_local: cancel ? null : (hotel?.checkin_time_local ?? null),
        checkout_time_local: cancel ? null : (hotel?.checkout_time_local ?? null),
        duty_date: cancel ? null : item.anchors.duty_date,
        from_airport: cancel ? null : (flight?.from_airport ?? null),
        to_airport: cancel ? null : (flight?.to_airport ?? null),
        flight_number: cancel ? null : (flight?.flight_number ?? null),
        dep_time_local: cancel ? null : (flight?.dep_time_local ?? null),
        arr_time_local: cancel ? null : (flight?.arr_time_local ?? null),
        schedule_id: scheduleId,
        action_id: actionId,
        hotel: hotelBlock,
        task_ref: held ? null : taskRef,
        task_operation: held ? null : operation,
        cancellation: cancelling?.cancellation ?? moving?.cancellation ?? null,
      });
      w.bookingEvents.push({
        booking_id: bookingId,
        status,
        reason: held
          ? `${item.classification}: cancellation held until ${held}`
          : (decision.reason ?? `${item.classification}: ${cancel ? 'cancellation' : 'change'} requested`),
        actor: ENGINE,
      });
    }

    if (operation && taskRef && bookingId) {
      const attempt = item.subtype === 'NEW_BOOKING' ? 1 : (retryCounts.get(bookingId) ?? 0) + 1;
      w.jobs.push(
        bookingJob(
          {
            airline_id: airlineId,
            booking_id: bookingId,
            attempt,
            action_id: actionId,
            operation,
            ref: taskRef,
            priority: cancelling?.lane ?? moving?.lane ?? item.priority,
            type: item.type,
          },
          // A held cancellation's task waits for the hold to run out; the worker releases it then (or finds it kept).
          held ? Math.max(0, Date.parse(held) - Date.parse(now)) : 0,
        ),
      );
    }

    addItem(
      w,
      actionItemRow(
        item,
        actionId,
        airlineId,
        scheduleId,
        now,
        review,
        {
          disposition,
          auto_eligible: decision.auto_eligible,
          booking_id: bookingId,
          flight_options_url: decision.flight_options_url,
          recommended_action: decision.recommended_action,
          message: cancelling?.message ?? moving?.message ?? itemMessage(decision, item),
        },
        { held_until: held, review_deadline: cancelling?.review_deadline ?? null },
      ),
    );
  }
  return w;
}

/** An item's row, and its id among the PENDING_REVIEW ones (the schedule's action_item.pending_review event). */
function addItem(w: DiffWrites, row: ActionItemInsert): void {
  w.actionItems.push(row);
  if (row.disposition === 'PENDING_REVIEW') w.pendingReview.push(row.action_id!);
}

function actionItemRow(
  item: DerivedActionItem,
  actionId: string,
  airlineId: string,
  scheduleId: string,
  now: string,
  review: ReviewSettings,
  outcome: {
    disposition: string | null;
    auto_eligible: boolean;
    booking_id: string | null;
    flight_options_url: string | null;
    recommended_action: string | null;
    message: string;
  },
  /** A held cancellation's held_until; a cancellation's deadline, which a person's review is due by (the engine's dueBy). */
  cost: { held_until: string | null; review_deadline: string | null } = { held_until: null, review_deadline: null },
): ActionItemInsert {
  const disposition_at = outcome.disposition ? now : null;
  // Created now as far as the review rules go (its row's created_at is the write's own clock, seconds later).
  const { review_status, due_by } = reviewStateOf(
    {
      type: item.type,
      subtype: item.subtype,
      classification: item.classification,
      priority: item.priority,
      disposition: outcome.disposition,
      recommended_action: outcome.recommended_action,
      booking_id: outcome.booking_id,
      created_at: now,
      disposition_at,
      review_status: null,
      action_taken: null,
      action_taken_at: null,
      action_taken_by: null,
      assignee: null,
      review_deadline: cost.review_deadline,
    } as ReviewItem,
    item.event_at,
    review,
  );
  return {
    action_id: actionId,
    airline_id: airlineId,
    schedule_id: scheduleId,
    item_key: item.item_key,
    source: item.source,
    type: item.type,
    subtype: item.subtype,
    classification: item.classification,
    priority: item.priority,
    ...outcome,
    anchors: item.anchors,
    source_rows: item.source_rows,
    notes: null,
    irop_ref: null,
    event_at: item.event_at,
    details: item.details,
    disposition_at,
    review_status,
    due_by,
    held_until: cost.held_until,
    review_deadline: cost.review_deadline,
  };
}

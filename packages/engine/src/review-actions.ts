import type { BookingFlightBlock, BookingHotelBlock, BookingOperation } from '@crew/contracts';
import { retryRefusal } from './lifecycle';
import { isReviewAction, reviewStatusOf, type ReviewAction, type ReviewItem, type ReviewStatus } from './review';
import { instantOf, isoInstant } from './time';
import type { BookingStatus } from './types';

/*
 * What a person may do on an action item now, and what doing it changes: the rules behind
 * POST /crew/action-items/{action_id}/actions. The api carries the answer out; nothing is decided there.
 */

/** The item's own booking, as far as the review rules read it (null: the item has none). */
export interface ReviewBooking {
  booking_id: string;
  type: 'HOTEL' | 'FLIGHT';
  status: BookingStatus;
  retry_count: number;
  /** The supplier task last started on the booking (null: none, e.g. the policy sent the item to review). */
  task_operation: BookingOperation | null;
  hotel: Pick<
    BookingHotelBlock,
    'supplier_ref' | 'supplier_status' | 'rate_flag' | 'rooming_status' | 'rooming_marking'
  > | null;
  flight: Pick<BookingFlightBlock, 'supplier_ref' | 'supplier_status' | 'pnr' | 'airline_change_id'> | null;
}

export interface ReviewContext {
  /** The airline's max_retries (a person's retry is refused once they are used). */
  max_retries: number;
  /**
   * Whether a flight-options search for the item's leg can offer options (absent: assumed). Only a caller that
   * searched knows: the console's item page passes false when its search found none; the API's queue, item and
   * actions endpoint search nothing. An expired or unknown option still lands the booking in review.
   */
  flight_options_available?: boolean;
  /** Whether the traveller's profile has a date of birth (absent: assumed); no flight can be booked without. */
  traveller_has_dob?: boolean;
  /**
   * The hotel contracted (configured) at the hotel booking's station: BOOK_HOTEL without a property_id books it.
   * Null or absent: none is known, and BOOK_HOTEL needs a property_id.
   */
  contracted_property_id?: string | null;
}

/**
 * The supplier holds something for this booking: a room (a supplier reservation, or a DIRECT hotel's
 * confirmed rooming-list row that is not its cancellation) or a ticket (a supplier order, or a crew seat with
 * a PNR in the airline's own system).
 */
export function holdsSupplierReservation(b: Pick<ReviewBooking, 'hotel' | 'flight'>): boolean {
  const h = b.hotel;
  const f = b.flight;
  const hotelHeld = Boolean(
    h &&
    ((h.supplier_ref && h.supplier_status !== 'CANCELLED') ||
      (h.rooming_status === 'CONFIRMED' && h.rooming_marking !== 'CANCELLED')),
  );
  const flightHeld = Boolean(
    f && (f.supplier_ref || f.pnr) && f.supplier_status !== 'CANCELLED' && f.supplier_status !== 'REFUSED',
  );
  return hotelHeld || flightHeld;
}

/** The open airline-initiated change on a ticketed deadhead (see airline-change.ts), or null. */
function openAirlineChange(b: ReviewBooking): string | null {
  return b.type === 'FLIGHT' && b.status === 'NEEDS_REVIEW' ? (b.flight?.airline_change_id ?? null) : null;
}

/**
 * The supplier made the reservation but its price is held for a person: a room whose rate differs from the
 * contracted one under STRICT rate matching (rate_flag), a ticket whose fare moved above the price ceiling at
 * ticketing. A booking or amend task ended so; a cancellation or an airline change is another question.
 */
function priceHeldForReview(b: ReviewBooking): boolean {
  if (b.status !== 'NEEDS_REVIEW' || !holdsSupplierReservation(b)) return false;
  if (b.task_operation !== 'BOOK' && b.task_operation !== 'AMEND') return false;
  return b.type === 'HOTEL' ? Boolean(b.hotel?.rate_flag) : openAirlineChange(b) === null;
}

/** The item asks to let its booking go, or its booking's cancellation was refused or failed. */
function cancelling(item: ReviewItem, b: ReviewBooking | null): boolean {
  return item.subtype === 'CANCEL' || b?.task_operation === 'CANCEL';
}

/**
 * Booking alternatives of the item's kind: book a flight option / record a PNR, or book a hotel. Each acts on
 * the item's own booking, so an item without one has none (the airline requests a booking:
 * POST /crew/bookings/request).
 */
function bookingAlternatives(item: ReviewItem, b: ReviewBooking | null, ctx: ReviewContext): ReviewAction[] {
  if (!b) return [];
  const out: ReviewAction[] = [];
  const held = holdsSupplierReservation(b);
  if (item.type === 'FLIGHT') {
    if (ctx.flight_options_available !== false && ctx.traveller_has_dob !== false) out.push('BOOK_FLIGHT_OPTION');
    // A PNR records a seat the airline booked itself: only where nothing is held, else it would be a second ticket.
    if (!held) out.push('RECORD_PNR');
  } else if (!held) {
    // The supplier keeps one reservation per booking reference: another hotel cannot be booked in place of a
    // held room (ACCEPT_PRICE keeps it, CANCEL_BOOKING lets it go).
    out.push('BOOK_HOTEL');
  }
  return out;
}

const ORDER = new Map<ReviewAction, number>([
  ['BOOK_FLIGHT_OPTION', 0],
  ['BOOK_HOTEL', 1],
  ['ACCEPT_PRICE', 2],
  ['ACCEPT_CHANGE', 3],
  ['RECORD_PNR', 4],
  ['RETRY', 5],
  ['CANCEL_BOOKING', 6],
  ['DISMISS', 7],
  ['ASSIGN', 8],
]);

/**
 * The actions a person may take on the item now, in the fixed set's order. The rules (docs/review-queue.md):
 *
 * | item / its booking (first matching row)                     | actions besides DISMISS, ASSIGN             |
 * |---------------------------------------------------------------|---------------------------------------------|
 * | not OPEN (never needed a person, RESOLVED, DISMISSED)         | none, not even DISMISS or ASSIGN            |
 * | booking PENDING (a task runs, a DIRECT hotel has not answered) | none                                       |
 * | booking CANCELLED                                             | none (rule 10: a new booking is explicit)   |
 * | asks to cancel (CANCEL item, its cancellation refused/failed) | CANCEL_BOOKING; RETRY if FAILED, retries    |
 * | FLIGHT with an open airline change                            | ACCEPT_CHANGE, BOOK_FLIGHT_OPTION           |
 * | reservation made, price held (rate mismatch, fare > ceiling)  | ACCEPT_PRICE, BOOK_FLIGHT_OPTION            |
 * | FAILED booking or item                                        | RETRY (retries left), booking alternatives  |
 * | NEEDS_REVIEW for anything else, or no booking yet             | the booking alternatives                    |
 * | CONFIRMED / MODIFIED with nothing asked of it                 | none                                        |
 *
 * The booking alternatives: FLIGHT BOOK_FLIGHT_OPTION (when options can be had and the traveller has a date of
 * birth) and RECORD_PNR (when no ticket is held); HOTEL BOOK_HOTEL (when no room is held). Each acts on the
 * item's own booking, replacing a held ticket, never beside it; an item without a booking has none.
 */
export function availableActions(item: ReviewItem, booking: ReviewBooking | null, ctx: ReviewContext): ReviewAction[] {
  if (reviewStatusOf(item) !== 'OPEN') return [];
  const actions = new Set<ReviewAction>(['DISMISS', 'ASSIGN']);
  const add = (...a: ReviewAction[]) => a.forEach((x) => actions.add(x));
  const b = booking;
  const status = b?.status ?? null;
  if (status === 'PENDING' || status === 'CANCELLED') return sorted(actions);
  const failed = status === 'FAILED' || (status === null && item.disposition === 'FAILED');
  const retry = () => {
    if (b && retryRefusal(b, ctx.max_retries) === null) add('RETRY');
  };
  if (cancelling(item, b)) {
    if (b) add('CANCEL_BOOKING');
    if (failed) retry();
  } else if (b && openAirlineChange(b)) {
    add('ACCEPT_CHANGE');
    if (bookingAlternatives(item, b, ctx).includes('BOOK_FLIGHT_OPTION')) add('BOOK_FLIGHT_OPTION');
  } else if (b && priceHeldForReview(b)) {
    add('ACCEPT_PRICE', ...bookingAlternatives(item, b, ctx));
  } else if (failed) {
    retry();
    add(...bookingAlternatives(item, b, ctx));
  } else if (status === null || status === 'NEEDS_REVIEW') {
    add(...bookingAlternatives(item, b, ctx));
  }
  return sorted(actions);
}

/**
 * Whether the item carries a flight_options_url (spec 2.3: "on FLIGHT items awaiting manual choice"), given its
 * available actions now: a FLIGHT item a person may book an option for (BOOK_FLIGHT_OPTION: a deadhead left for
 * a person, a failed or refused booking, a held fare, an airline change), or one the engine recommended to book
 * manually while it waits (the traveller lacks a date of birth: options can be looked at before one is added).
 * No link on an item no longer waiting (`actions` empty): the choice is made.
 */
export function offersFlightOptions(
  item: Pick<ReviewItem, 'type' | 'recommended_action'>,
  actions: readonly ReviewAction[],
): boolean {
  if (item.type !== 'FLIGHT' || actions.length === 0) return false;
  return actions.includes('BOOK_FLIGHT_OPTION') || item.recommended_action === 'BOOK_MANUALLY';
}

function sorted(actions: Set<ReviewAction>): ReviewAction[] {
  return [...actions].sort((a, b) => ORDER.get(a)! - ORDER.get(b)!);
}

/** The body of a person's action (POST …/actions), less `action`. */
export interface ReviewActionInput {
  flight_option_id?: string | null;
  property_id?: string | null;
  pnr?: string | null;
  ticket_id?: string | null;
  reason?: string | null;
  assignee?: string | null;
  /** Who acts: the body's acting_user, else (the api fills it) the caller's email. */
  acting_user?: string | null;
}

/**
 * The booking operation an action starts, on the item's own booking (an item without one is offered none).
 * `replaces_reservation`: the booking holds a ticket that is cancelled as part of the same move
 * (cancel-and-rebook on one booking). `manual_override`: rule 9's lock is set, as a
 * request, PATCH or DELETE by the airline would.
 */
export type ReviewOperation =
  | {
      kind: 'BOOK_FLIGHT_OPTION';
      booking_id: string;
      flight_option_id: string;
      replaces_reservation: boolean;
      manual_override: true;
    }
  | {
      kind: 'BOOK_HOTEL';
      booking_id: string;
      property_id: string;
      manual_override: true;
    }
  /** Keep the reservation at the supplier's price: the booking becomes CONFIRMED (MODIFIED after an amend). */
  | { kind: 'ACCEPT_PRICE'; booking_id: string; status: 'CONFIRMED' | 'MODIFIED' }
  /** Accept the airline's change at the supplier and take its flight into the booking (acceptedFlightBlock). */
  | { kind: 'ACCEPT_CHANGE'; booking_id: string; airline_change_id: string }
  /** The seat the airline booked in its own system: the booking settles CONFIRMED with it. */
  | { kind: 'RECORD_PNR'; booking_id: string; pnr: string; ticket_id: string; manual_override: true }
  /** Run the booking's failed task again (retry_count + 1), as POST …/retry. */
  | { kind: 'RETRY'; booking_id: string }
  /** Cancel at the supplier, as DELETE (again on a refused cancellation). */
  | { kind: 'CANCEL'; booking_id: string; reason: string | null; manual_override: true };

/** What the action writes on the item. Absent fields stay as they are. */
export interface ReviewItemPatch {
  review_status: ReviewStatus;
  action_taken?: ReviewAction;
  action_taken_at?: string;
  action_taken_by?: string;
  assignee?: string;
  /** Cleared: the person's action settles the recommendation (a dismissed item keeps it, like its disposition). */
  recommended_action?: null;
  flight_options_url?: null;
}

export type ReviewActionDecision =
  /** 409 CONFLICT: the action is not (or no longer) available on the item. */
  | { kind: 'NOT_AVAILABLE'; message: string; available: ReviewAction[] }
  /** 422: an input the action needs is missing. */
  | { kind: 'MISSING_INPUT'; field: string; issue: string }
  /** 202: write `item`, then run `operation` (null: nothing to run at a supplier). */
  | { kind: 'ACCEPTED'; action: ReviewAction; item: ReviewItemPatch; operation: ReviewOperation | null };

/** The input each action needs, in the order it is checked. */
const REQUIRED: Readonly<Record<ReviewAction, readonly (keyof ReviewActionInput)[]>> = {
  BOOK_FLIGHT_OPTION: ['flight_option_id'],
  // Without a property_id, the hotel contracted at the station (checked below).
  BOOK_HOTEL: [],
  ACCEPT_PRICE: [],
  ACCEPT_CHANGE: [],
  RECORD_PNR: ['pnr', 'ticket_id'],
  RETRY: [],
  CANCEL_BOOKING: [],
  DISMISS: [],
  ASSIGN: ['assignee'],
};

const present = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * A person's action on an item: refused when it is not available now (409, checked first: the inputs of an
 * action that cannot be taken do not matter), or when an input it needs is missing (422: `flight_option_id`,
 * `pnr` and `ticket_id`, `assignee`; `acting_user` for all; `property_id` when no hotel is contracted at the
 * station, else BOOK_HOTEL books the contracted one). Else the item's change and the
 * booking operation to run. Inputs an action does not use are ignored.
 */
export function decideReviewAction(
  item: ReviewItem,
  booking: ReviewBooking | null,
  action: ReviewAction,
  input: ReviewActionInput,
  now: string | number,
  ctx: ReviewContext,
): ReviewActionDecision {
  const available = availableActions(item, booking, ctx);
  if (!isReviewAction(action) || !available.includes(action)) {
    const status = reviewStatusOf(item);
    const why =
      status === null
        ? 'the action item never needed a person'
        : status !== 'OPEN'
          ? `the action item is already ${status}`
          : [
              ...(booking === null && action !== 'DISMISS' && action !== 'ASSIGN'
                ? ['the action item has no booking to act on; request one with POST /crew/bookings/request']
                : []),
              ...(booking !== null && action === 'BOOK_HOTEL' && holdsSupplierReservation(booking)
                ? ['the booking holds a room, and the supplier keeps one reservation per booking']
                : []),
              `available now: ${available.join(', ')}`,
            ].join('; ');
    return {
      kind: 'NOT_AVAILABLE',
      message: `${String(action)} is not available on this action item (${why})`,
      available,
    };
  }
  for (const field of [...REQUIRED[action], 'acting_user' as const]) {
    if (!present(input[field])) return { kind: 'MISSING_INPUT', field: `/${field}`, issue: 'is required' };
  }
  const contracted = present(ctx.contracted_property_id) ? ctx.contracted_property_id.trim() : null;
  if (action === 'BOOK_HOTEL' && !present(input.property_id) && contracted === null)
    return {
      kind: 'MISSING_INPUT',
      field: '/property_id',
      issue: 'is required: no hotel is contracted at the booking’s station',
    };
  const by = input.acting_user!.trim();
  const at = isoInstant(typeof now === 'number' ? now : instantOf(now));
  if (action === 'ASSIGN')
    return {
      kind: 'ACCEPTED',
      action,
      item: { review_status: 'OPEN', assignee: input.assignee!.trim() },
      operation: null,
    };
  const taken = { action_taken: action, action_taken_at: at, action_taken_by: by };
  if (action === 'DISMISS')
    return { kind: 'ACCEPTED', action, item: { review_status: 'DISMISSED', ...taken }, operation: null };
  return {
    kind: 'ACCEPTED',
    action,
    item: { review_status: 'RESOLVED', ...taken, recommended_action: null, flight_options_url: null },
    // Every action left has a booking operation, and the rules offer none on an item without a booking.
    operation: operationOf(action, booking!, input, contracted),
  };
}

/** The booking operation of an available action (DISMISS and ASSIGN have none). */
function operationOf(
  action: ReviewAction,
  b: ReviewBooking,
  input: ReviewActionInput,
  contractedPropertyId: string | null,
): ReviewOperation | null {
  const id = b.booking_id;
  const replaces = holdsSupplierReservation(b);
  switch (action) {
    case 'BOOK_FLIGHT_OPTION':
      return {
        kind: 'BOOK_FLIGHT_OPTION',
        booking_id: id,
        flight_option_id: input.flight_option_id!.trim(),
        replaces_reservation: replaces,
        manual_override: true,
      };
    case 'BOOK_HOTEL':
      return {
        kind: 'BOOK_HOTEL',
        booking_id: id,
        property_id: present(input.property_id) ? input.property_id.trim() : contractedPropertyId!,
        manual_override: true,
      };
    case 'RECORD_PNR':
      return {
        kind: 'RECORD_PNR',
        booking_id: id,
        pnr: input.pnr!.trim().toUpperCase(),
        ticket_id: input.ticket_id!.trim(),
        manual_override: true,
      };
    case 'ACCEPT_PRICE':
      return {
        kind: 'ACCEPT_PRICE',
        booking_id: b.booking_id,
        status: b.task_operation === 'AMEND' ? 'MODIFIED' : 'CONFIRMED',
      };
    case 'ACCEPT_CHANGE':
      return { kind: 'ACCEPT_CHANGE', booking_id: b.booking_id, airline_change_id: b.flight!.airline_change_id! };
    case 'RETRY':
      return { kind: 'RETRY', booking_id: b.booking_id };
    case 'CANCEL_BOOKING':
      return { kind: 'CANCEL', booking_id: b.booking_id, reason: input.reason?.trim() || null, manual_override: true };
    default:
      return null;
  }
}

/**
 * A commit (`POST /crew/bookings/request`) that fulfils a booking left for a person is that person's action on
 * the booking's item, as the same choice from the review queue would be: the seat recorded (`pnr`/`ticket_id`)
 * is RECORD_PNR, another flight BOOK_FLIGHT_OPTION, a hotel BOOK_HOTEL; a cancelling commit (`cancels`) on a
 * booking whose item waits for a person (a roster cancellation sent to review, say) is CANCEL_BOOKING. The item is
 * RESOLVED by `by` at `now`, its stale recommendation cleared; the booking then settles it as any booking does.
 */
export function commitResolution(
  commit: { type: 'HOTEL' | 'FLIGHT'; recordsTicket: boolean; cancels?: boolean },
  by: string,
  now: string | number,
): ReviewItemPatch {
  const action: ReviewAction = commit.cancels
    ? 'CANCEL_BOOKING'
    : commit.type === 'HOTEL'
      ? 'BOOK_HOTEL'
      : commit.recordsTicket
        ? 'RECORD_PNR'
        : 'BOOK_FLIGHT_OPTION';
  return {
    review_status: 'RESOLVED',
    action_taken: action,
    action_taken_at: isoInstant(typeof now === 'number' ? now : instantOf(now)),
    action_taken_by: by,
    recommended_action: null,
    flight_options_url: null,
  };
}

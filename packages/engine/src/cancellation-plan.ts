import type { BookingHotelBlock, Money, Priority } from '@crew/contracts';
import {
  DEFAULT_COST_SETTINGS,
  HOLD_DEADLINE_MARGIN_MINUTES,
  decideCancellation,
  type CancellationCause,
  type CancellationDecision,
  type CostSettings,
} from './cancellation-terms';
import { advanceHold, type HoldState } from './cancellation-hold';
import { sameStay } from './hotels';
import { decide, stayNights, type ContractTerms, type Decision, type PolicyContext, type StationHotel } from './policy';
import { layoverKey } from './keys';
import { minorDigits } from './minor-units';
import { inWindow, instantOf, isoInstant, localDateOf, type DateWindow } from './time';
import type { DerivedActionItem, HotelItemDetails, HotelStay } from './types';

/*
 * A hotel cancellation as the api and the worker make it: the contract whose terms govern it (as they stand
 * now), the nightly rate a NIGHTS fee is priced at, the engine's decision, and what is stored on the booking
 * until the cancellation is made (docs/cost-control.md).
 */

/** The stay being cancelled, as the booking (or the roster's dropped layover) has it. */
export interface CancelledStay {
  checkin_time_local: string;
  checkout_time_local: string;
  /** The booking's hotel block: its property and contract, and the rate it was booked at. */
  hotel?: Pick<BookingHotelBlock, 'property_id' | 'contract_id' | 'contracted_rate'> | null;
}

/**
 * The contract whose terms govern a stay's cancellation: the booking's own contract at the station's configured
 * hotel, else (a stay without one, the roster's dropped layover) the contract of that hotel covering every
 * night. A stay at another property than the configured one has no terms the service knows.
 */
export function cancellationContract(hotel: StationHotel | undefined, stay: CancelledStay): ContractTerms | null {
  if (!hotel) return null;
  const property = stay.hotel?.property_id;
  if (property && property !== hotel.property_id) return null;
  const own = stay.hotel?.contract_id;
  if (own !== undefined && own !== null) return hotel.contracts.find((c) => c.contract_id === own) ?? null;
  const nights = stayNights(stay.checkin_time_local, stay.checkout_time_local);
  return hotel.contracts.find((c) => nights.every((n) => n >= c.contract_from && n <= c.contract_to)) ?? null;
}

/** The booking's nightly rate, else the contract's rate for the first night (prices a NIGHTS fee). */
function nightlyRateOf(contract: ContractTerms | null, stay: CancelledStay): Money | null {
  if (stay.hotel?.contracted_rate) return stay.hotel.contracted_rate;
  const first = stayNights(stay.checkin_time_local, stay.checkout_time_local)[0]!;
  return contract?.rate_periods.find((p) => first >= p.effective_from && first <= p.effective_to)?.rate ?? null;
}

/**
 * How this cancellation goes, judged against the terms in force now in the hotel's zone (decideCancellation).
 * A contract without terms, or without a zone to read the deadline in, cancels as before terms existed.
 */
export function planCancellation(input: {
  hotel: StationHotel | undefined;
  stay: CancelledStay;
  cause: CancellationCause;
  settings: CostSettings;
  priority: Priority;
  now: string | number;
}): CancellationDecision {
  const contract = cancellationContract(input.hotel, input.stay);
  const terms = contract?.cancellation_terms && contract.hotel_time_zone ? contract.cancellation_terms : null;
  return decideCancellation({
    terms,
    checkIn: input.stay.checkin_time_local,
    tz: contract?.hotel_time_zone ?? 'UTC',
    now: input.now,
    cause: input.cause,
    settings: input.settings,
    nightlyRate: nightlyRateOf(contract, input.stay),
    nights: stayNights(input.stay.checkin_time_local, input.stay.checkout_time_local).length,
    priority: input.priority,
  });
}

/** A cancellation task as the api starts it (planTaskCancellation): its lane and what the booking stores of it. */
export interface PlannedTaskCancellation {
  /** The task's lane: P1 when an in-time deadline is less than 24 hours away, else `priority`. */
  lane: Priority;
  /** Stored on the booking until the cancellation is made (null: no terms apply, nothing to record). */
  cancellation: StoredCancellation | null;
}

/**
 * A cancellation the airline asks for itself (a DELETE, the cancel half of a PATCH's rebook, a cancelling
 * classification injected or requested: cause REQUEST), started now as a task under `ref`: judged as every
 * cancellation is (planCancellation: the booking's own contract terms in force now, the deadline in the hotel's
 * zone, the fee priced at the booking's rate), never held nor handed to a person, since only a roster's
 * cancellation is. What it stores is recorded when the task ends CANCELLED (madeCancellationCost).
 */
export function planTaskCancellation(input: {
  hotel: StationHotel | undefined;
  stay: CancelledStay;
  cause: Exclude<CancellationCause, 'ROSTER'>;
  settings: CostSettings;
  priority: Priority;
  now: string | number;
  ref: string;
  /** The action item the task settles (null: none, the airline's DELETE or PATCH of a booking without one). */
  actionId: string | null;
}): PlannedTaskCancellation {
  const d = planCancellation(input);
  return { lane: d.lane, cancellation: d.deadline === null ? null : storedCancellation(d, input.ref, input.actionId) };
}

/**
 * What a booking stores of its cancellation until it is made (its `cancellation` column): the task it runs as,
 * the fee it records or avoids, and the hold (null when it was not held).
 */
export interface StoredCancellation {
  /** The cancellation task's ref (a held one is released under it). */
  ref: string;
  /** The action item it belongs to (null: the airline's DELETE or PATCH). */
  action_id: string | null;
  deadline: string | null;
  penalty: Money | null;
  penalty_avoided: Money | null;
  /** What the decision says (the item's message once the cancellation is made). */
  message: string;
  hold: HoldState | null;
  /**
   * A move's: the old hotel (a DIRECT one) rejected the CANCELLED row of the stay moved away from it, or did not
   * answer it, and still holds the room; a person must cancel it (oldRoomRefusal). What the item says of it.
   */
  old_room_refused?: string | null;
}

export function storedCancellation(d: CancellationDecision, ref: string, actionId: string | null): StoredCancellation {
  return {
    ref,
    action_id: actionId,
    deadline: d.deadline,
    penalty: d.penalty,
    penalty_avoided: d.penalty_avoided,
    message: d.message,
    hold: d.action === 'HOLD' && d.hold_until ? { status: 'HELD', hold_until: d.hold_until } : null,
  };
}

/** How a held cancellation is made once its hold has run out (releasedCancellation). */
export type ReleasedCancellation =
  /** Cancel now: what the booking stores until it is made, the hold RELEASED. */
  | { action: 'CANCEL'; cancellation: StoredCancellation }
  /**
   * A person decides (after the deadline with after_deadline REVIEW): the item keeps the deadline as its
   * review_deadline, which the review rules (dueBy) give as its due_by while it is OPEN.
   */
  | { action: 'REVIEW'; reason: string; review_deadline: string | null };

/**
 * A held roster cancellation as it is made when its hold runs out. The cancellation is made now, so it is judged
 * now, as the roster's cancellation of that layover would be now: under the airline's levers in force (a
 * cancellation execution switched off during the hold hands it to a person, due at the deadline, as the diff does;
 * policy decide), and against the contract's terms in force now, not those of the decision that held it: a
 * deadline the contract has moved since may have passed, which costs the late fee (or goes to a person with
 * after_deadline REVIEW), and a fee changed since is the one recorded or avoided. It is never held again.
 */
export function releasedCancellation(
  held: Pick<StoredCancellation, 'ref' | 'action_id'>,
  input: {
    /** The airline's policy now: its levers, its booking account, its hotels. */
    policy: PolicyContext;
    /** The dropped layover as its held item has it (a SWAP_OUT also needs swap_execution; null: LAYOVER_CANCELLED). */
    layover: { classification: string | null; traveller_email: string | null; station: string | null };
    stay: CancelledStay;
    settings: CostSettings;
    priority: Priority;
    now: string | number;
  },
): ReleasedCancellation {
  const station = input.layover.station ?? '';
  const decision = decide(
    {
      action_id: held.action_id ?? '',
      type: 'HOTEL',
      subtype: 'CANCEL',
      classification: input.layover.classification ?? 'LAYOVER_CANCELLED',
      booking_status: null,
      traveller_email: input.layover.traveller_email,
      station,
      checkin_time_local: input.stay.checkin_time_local,
      checkout_time_local: input.stay.checkout_time_local,
    },
    input.policy,
  );
  const d = planCancellation({
    hotel: input.policy.hotels.get(station),
    stay: input.stay,
    cause: 'ROSTER',
    settings: { ...input.settings, cancel_hold_minutes: 0 },
    priority: input.priority,
    now: input.now,
  });
  // A lever (or the booking account) now says a person decides: as planRosterCancellation would, due at the deadline.
  if (decision.action !== 'AUTO_CANCEL') {
    const why = decision.reason ?? 'a person decides whether to cancel';
    return {
      action: 'REVIEW',
      reason: d.deadline !== null ? `${why}; ${d.message}` : why,
      review_deadline: d.review_due_by,
    };
  }
  if (d.action === 'REVIEW') return { action: 'REVIEW', reason: d.message, review_deadline: d.review_due_by };
  const at = isoInstant(typeof input.now === 'number' ? input.now : instantOf(input.now));
  return {
    action: 'CANCEL',
    cancellation: { ...storedCancellation(d, held.ref, held.action_id), hold: { status: 'RELEASED', at } },
  };
}

/**
 * The end of a hold whose contract terms changed while it runs (a contract PATCH). A hold never runs past the
 * deadline: under the terms in force it ends HOLD_DEADLINE_MARGIN_MINUTES before their deadline at the latest, and
 * at once (`now`) when that is already past. Null: the stored hold_until still fits, or no terms apply now (nothing
 * to cap; the release judges it).
 */
export function recappedHoldUntil(
  holdUntil: string,
  input: { hotel: StationHotel | undefined; stay: CancelledStay; now: number },
): string | null {
  const { deadline } = planCancellation({
    ...input,
    cause: 'ROSTER',
    settings: DEFAULT_COST_SETTINGS,
    priority: 'P3',
  });
  if (deadline === null) return null;
  const latest = instantOf(deadline) - HOLD_DEADLINE_MARGIN_MINUTES * 60_000;
  return latest < instantOf(holdUntil) ? isoInstant(Math.max(latest, input.now)) : null;
}

/** Whether a booking's cancellation is held now. */
export function isHeld(c: StoredCancellation | null | undefined): boolean {
  return c?.hold?.status === 'HELD';
}

/**
 * What the hotel block records once the cancellation is made (the booking CANCELLED): the late fee it cost, or
 * the one it avoided by being in time. A hold that ended KEPT made no cancellation and records nothing.
 */
export function cancellationCostFields(
  c: StoredCancellation | null | undefined,
): Pick<BookingHotelBlock, 'cancellation_penalty' | 'cancellation_penalty_avoided'> {
  if (!c || c.hold?.status === 'KEPT') return {};
  if (c.penalty) return { cancellation_penalty: c.penalty };
  if (c.penalty_avoided) return { cancellation_penalty_avoided: c.penalty_avoided };
  return {};
}

/** What a cancellation made records: the hotel block's fee fields, and what the item's message says of them. */
export interface MadeCancellationCost {
  fields: Pick<BookingHotelBlock, 'cancellation_penalty' | 'cancellation_penalty_avoided'>;
  reason: string | null;
}

/**
 * What a cancellation task ending CANCELLED records, whichever channel made it (a supplier's answer, a DIRECT
 * hotel's answer to its rooming list): the hotel block's fee fields and the item's message saying which fee it
 * cost or avoided. Null when the booking stores no cancellation for this very task (an earlier one's record is
 * history). `reserved` false: the cancellation found no room at the hotel (nothing was ever reserved), so no fee
 * is owed and none avoided, and the task's own reason is the message, as a DIRECT hotel never sent the stay.
 */
export function madeCancellationCost(
  stored: StoredCancellation | null | undefined,
  taskRef: string | null | undefined,
  reason: string | null,
  reserved: boolean,
  /**
   * When the hotel was told, and how (a DIRECT hotel's rooming list sent; a supplier's cancellation succeeded):
   * judged late after the deadline (judgedWhenMade). Absent: as decided.
   */
  made?: MadeCancellation | null,
): MadeCancellationCost | null {
  if (!stored || stored.ref !== taskRef) return null;
  if (!reserved) return { fields: {}, reason };
  const c = made ? judgedWhenMade(stored, made.at, made.as) : stored;
  const fields = cancellationCostFields(c);
  if (Object.keys(fields).length === 0) return { fields, reason: reason ?? c.message };
  return { fields, reason: reason ? `${reason}; ${c.message}` : c.message };
}

/**
 * The old hotel's refusal of the booking's task's cancellation (a move away from a DIRECT hotel whose CANCELLED row
 * the old hotel rejected or left unanswered), while the booking stores it for this very task: the task's item then
 * waits for a person about the old room, whatever becomes of the new stay. Null: none.
 */
export function oldRoomRefusal(
  c: StoredCancellation | null | undefined,
  taskRef: string | null | undefined,
): string | null {
  return c && c.ref === taskRef ? (c.old_room_refused ?? null) : null;
}

/** The hotel's cancellation deadline of the cancellation stored for this very task (null: none, or another task's). */
export function taskCancellationDeadline(
  c: StoredCancellation | null | undefined,
  taskRef: string | null | undefined,
): string | null {
  return c && c.ref === taskRef ? c.deadline : null;
}

/**
 * A cancellation task that ends waiting for a person (the supplier refused it, or it failed) is due at the hotel's
 * deadline, as a cancellation handed to a person is: after it, the fee is owed. Undefined: the task was no such
 * cancellation, and the item's stored deadline stays as it is.
 */
export function cancellationReviewDeadline(
  status: string,
  operation: string | undefined,
  c: StoredCancellation | null | undefined,
  taskRef: string | null | undefined,
): string | undefined {
  if (operation !== 'CANCEL' || (status !== 'NEEDS_REVIEW' && status !== 'FAILED')) return undefined;
  return taskCancellationDeadline(c, taskRef) ?? undefined;
}

/** When a cancellation reached the hotel (`at`), and how, as its message says it ("sent to the hotel"). */
export interface MadeCancellation {
  at: Date | null | undefined;
  as: string;
}

/**
 * A cancellation decided in time that reached the hotel only after its deadline (a DIRECT hotel's rooming list
 * sent late: the mail server down past it, say; a supplier's cancellation that succeeded only after it, retried
 * while the supplier was down) is late after all: the fee it was to avoid is the fee it costs, and its message
 * says when it was made (`as`: "sent to the hotel", "cancelled at the supplier"). Any other is as decided.
 */
export function judgedWhenMade(
  c: StoredCancellation,
  madeAt: Date | null | undefined,
  as = 'sent to the hotel',
): StoredCancellation {
  if (!madeAt || !c.deadline || c.penalty || !c.penalty_avoided) return c;
  if (madeAt.getTime() <= Date.parse(c.deadline)) return c;
  const fee = c.penalty_avoided;
  return {
    ...c,
    penalty: fee,
    penalty_avoided: null,
    message: `${as} at ${madeAt.toISOString()}, after its cancellation deadline (${c.deadline}): late cancellation fee ${fee.amount.toFixed(minorDigits(fee.currency))} ${fee.currency} recorded on the booking`,
  };
}

/** A held booking's layover key: the roster brings it back when its current layovers hold this key. */
export function heldLayoverKey(b: {
  employee_id: string | null;
  pairing_number: string | null;
  duty_period_num: number | null;
}): string | null {
  return b.employee_id === null || b.pairing_number === null || b.duty_period_num === null
    ? null
    : layoverKey(b.employee_id, b.pairing_number, b.duty_period_num);
}

/**
 * The bookings whose own stay a slice's roster cancellations are judged on (planRosterCancellation): those of the
 * hotel CANCEL items at a station whose hotel has a contract with terms. The dropped layover carries only the stay,
 * but the booking's property, contract and rate decide the terms, as they do for a DELETE: a stay at another
 * property than the configured one has none. Elsewhere no terms apply, so nothing need be read.
 */
export function rosterCancellationBookings(
  items: readonly DerivedActionItem[],
  hotels: ReadonlyMap<string, StationHotel>,
): string[] {
  const ids: string[] = [];
  for (const item of items) {
    if (item.type !== 'HOTEL' || item.subtype !== 'CANCEL' || !item.booking_id) continue;
    const hotel = hotels.get((item.details as HotelItemDetails).station);
    if (hotel?.contracts.some((c) => c.cancellation_terms && c.hotel_time_zone)) ids.push(item.booking_id);
  }
  return ids;
}

/** A booking with a held cancellation, as the roster's write reads it (db heldCancellations). */
export interface HeldBooking {
  booking_id: string;
  employee_id: string | null;
  pairing_number: string | null;
  duty_period_num: number | null;
  station: string | null;
  checkin_time_local: string | null;
  checkout_time_local: string | null;
  cancellation: StoredCancellation | null;
}

/** A held cancellation a roster withdraws (HELD → KEPT, by compare-and-set on its ref), with its item's message. */
export interface ReturnedHold {
  booking_id: string;
  ref: string;
  message: string;
}

/**
 * The held cancellations a roster withdraws: those whose layover (crew member, pairing, duty period) it brings
 * back before the release, when its diff reconciles that layover with the booking (both dated inside the window,
 * the booking among those the diff reads). The hold is withdrawn either way, and the diff then sees the booking as
 * live (withKeptHolds): the same stay needs nothing, and nothing goes to the supplier; another stay (other times,
 * or another station) is changed as a live booking's is, by the amend rules. A layover back outside what the diff
 * reconciles is left to the hold, which runs out (the diff books that stay anew, as for any booking it does not read).
 */
export function returnedHolds(
  held: readonly HeldBooking[],
  layovers: readonly (HotelStay & { key: string })[],
  diffed: readonly { booking_id: string; checkin_time_local: string }[],
  window: DateWindow,
  now: string,
): ReturnedHold[] {
  if (held.length === 0) return [];
  const heldIds = new Set(held.map((h) => h.booking_id));
  const read = new Set<string>();
  for (const b of diffed)
    if (heldIds.has(b.booking_id) && inWindow(localDateOf(b.checkin_time_local), window)) read.add(b.booking_id);
  const byKey = new Map(layovers.map((l) => [l.key, l]));
  const out: ReturnedHold[] = [];
  for (const h of held) {
    const key = heldLayoverKey(h);
    const back = key ? byKey.get(key) : undefined;
    const c = h.cancellation;
    if (!back || !read.has(h.booking_id) || !inWindow(localDateOf(back.checkin_time_local), window)) continue;
    if (!c?.hold || c.hold.status !== 'HELD') continue;
    // A roster arriving after hold_until but before the release ran is still within the hold: nothing was released.
    if (advanceHold(c.hold, now, true).state.status !== 'KEPT') continue;
    const same =
      h.station !== null &&
      h.checkin_time_local !== null &&
      h.checkout_time_local !== null &&
      sameStay(
        { station: h.station, checkin_time_local: h.checkin_time_local, checkout_time_local: h.checkout_time_local },
        back,
      );
    const until = c.hold.hold_until;
    out.push({
      booking_id: h.booking_id,
      ref: c.ref,
      message: same
        ? `held cancellation withdrawn: the roster brought the layover back before the cancellation was released (held until ${until}); the booking stays as it was`
        : `held cancellation withdrawn: the roster brought the layover back with another stay (${back.station} ${back.checkin_time_local} - ${back.checkout_time_local}) before the cancellation was released (held until ${until}); the booking is changed as a live booking's would be`,
    });
  }
  return out;
}

/** How a roster's hotel CANCEL item goes once the policy has decided it (planRosterCancellation). */
export interface RosterCancellation {
  /** The policy's decision, or REVIEW when the airline hands cancellations after the deadline to a person. */
  decision: Decision;
  /** The cancellation task's lane (P1 when the deadline is less than 24 hours away). */
  lane: Priority;
  /** Stored on the booking until the cancellation is made (null: no task). */
  cancellation: StoredCancellation | null;
  /** Held: nothing goes to the supplier before this (the task is delayed until then). */
  held_until: string | null;
  /**
   * The item's review_deadline: the deadline a person's review is due by (the review rules' dueBy gives it as
   * due_by while the item is OPEN, so nothing that dates the item again moves it); null: the review rules date it.
   */
  review_deadline: string | null;
  /** The item's message. */
  message: string;
}

/**
 * A roster's hotel CANCEL item under the contract's cancellation terms (cause ROSTER): an automatic
 * cancellation is made now (in the P1 lane near the deadline, recording the late fee after it), held, or handed
 * to a person (after_deadline REVIEW); a cancellation a person decides on anyway (a policy lever) is due at the
 * deadline. `ref` names the task the cancellation would run as. `details.hotel` is the booking's own hotel block
 * (rosterCancellationBookings), which decides whose terms apply.
 */
export function planRosterCancellation(
  item: { priority: Priority; details: { station: string } & CancelledStay },
  decision: Decision,
  ctx: { hotels: ReadonlyMap<string, StationHotel>; settings: CostSettings },
  ref: string,
  actionId: string,
  now: string,
  baseMessage: string,
): RosterCancellation {
  const d = planCancellation({
    hotel: ctx.hotels.get(item.details.station),
    stay: item.details,
    cause: 'ROSTER',
    settings: ctx.settings,
    priority: item.priority,
    now,
  });
  const withTerms = d.deadline !== null;
  const message = withTerms ? `${baseMessage}; ${d.message}` : baseMessage;
  if (decision.action !== 'AUTO_CANCEL')
    return {
      decision,
      lane: item.priority,
      cancellation: null,
      held_until: null,
      review_deadline: d.review_due_by,
      message,
    };
  if (d.action === 'REVIEW')
    return {
      decision: { ...decision, action: 'REVIEW', auto_eligible: false, reason: d.message },
      lane: item.priority,
      cancellation: null,
      held_until: null,
      review_deadline: d.review_due_by,
      message: d.message,
    };
  return {
    decision,
    lane: d.lane,
    cancellation: withTerms ? storedCancellation(d, ref, actionId) : null,
    held_until: d.action === 'HOLD' ? d.hold_until : null,
    review_deadline: null,
    message,
  };
}

/** The booked hotel of a stay a roster change may move (its block as stored before the change). */
export type BookedHotel = Pick<BookingHotelBlock, 'property_id' | 'contract_id' | 'contracted_rate' | 'handler_type'>;

/** How a roster's hotel change that moves the stay to another property cancels the old room (planHotelMove). */
export interface HotelMove {
  /** The change task's lane: P1 when the old room's deadline is less than 24 hours away. */
  lane: Priority;
  /** Stored on the booking until the old room is cancelled (null: its contract has no terms). */
  cancellation: StoredCancellation | null;
  /** The item's message. */
  message: string;
}

/**
 * A roster's hotel change that moves the stay to another property (a LAYOVER_CITY_CHANGE, or new dates the
 * station's now configured hotel takes): the change's task cancels the old room and books the new one, so the old
 * room's cancellation goes under the terms of the old property's contract now (cause MOVE), judged for the stay
 * as booked. It is never held nor handed to a person: the crew member needs the new room, and the old one cannot
 * serve them, so the fee is owed either way. A move to a DIRECT hotel is planned the same way: the task cancels
 * the supplier's room first, and the new hotel's rooming list carries the new stay. A DIRECT old room too: the
 * task puts a CANCELLED row on the old hotel's rooming list, and the fee is recorded when that hotel confirms it
 * (judged by when its list was sent); its cancellation is stored even without terms (no fee either way), so that
 * hotel's answer finds the move it belongs to. Null when the change cancels nothing: not an automatic change, or
 * the same property.
 */
export function planHotelMove(
  item: {
    priority: Priority;
    details: { previous?: { station: string; checkin_time_local: string; checkout_time_local: string } };
  },
  decision: Decision,
  booked: BookedHotel | undefined,
  ctx: { hotels: ReadonlyMap<string, StationHotel>; settings: CostSettings },
  ref: string,
  actionId: string,
  now: string,
  baseMessage: string,
): HotelMove | null {
  const previous = item.details.previous;
  const next = decision.hotel;
  if (decision.action !== 'AUTO_MODIFY' || !next || !previous || !booked?.property_id) return null;
  if (booked.property_id === next.property_id) return null;
  const d = planCancellation({
    hotel: ctx.hotels.get(previous.station),
    stay: {
      checkin_time_local: previous.checkin_time_local,
      checkout_time_local: previous.checkout_time_local,
      hotel: booked,
    },
    cause: 'MOVE',
    settings: ctx.settings,
    priority: item.priority,
    now,
  });
  if (d.deadline === null) {
    const cancellation =
      booked.handler_type === 'DIRECT'
        ? storedCancellation(
            { ...d, message: `the room at ${previous.station} cancelled: ${d.message}` },
            ref,
            actionId,
          )
        : null;
    return { lane: item.priority, cancellation, message: baseMessage };
  }
  const moved = { ...d, message: `the room at ${previous.station} cancelled ${d.message}` };
  return {
    lane: d.lane,
    cancellation: storedCancellation(moved, ref, actionId),
    message: `${baseMessage}; ${moved.message}`,
  };
}

import type { BookingHotelBlock, RowSettlement } from '@crew/contracts';
import { DISPOSITION_OF_TASK } from './booking-tasks';
import { instantOf, isoInstant, localDateOf, MS_PER_HOUR } from './time';

/*
 * The rooming-list channel of a DIRECT hotel (spec 2.6, 4.3 rule 2: a hotel outside the GDS inventory).
 * Such a stay is not booked by a supplier call: it becomes a row on the hotel's rooming list for its first
 * night, sent by e-mail, and the hotel confirms or rejects it. These are the rules; the worker carries them out.
 */

/** How a row tells the hotel what changed. */
export type RoomingMarking = 'NEW' | 'AMENDED' | 'CANCELLED';
export type RoomingOperation = 'BOOK' | 'AMEND' | 'CANCEL';
export type RowState = 'QUEUED' | 'SENT' | 'CONFIRMED' | 'REJECTED' | 'EXPIRED' | 'SUPERSEDED' | 'WITHDRAWN';

export interface RoomingTiming {
  /** Rows of P3/P4 stays wait for the list sent this long before the night (batching); 0 sends every change at once. */
  leadHours: number;
  /** How long the hotel has to answer a list (cut short by the check-in itself, never below MIN_ANSWER_MS). */
  answerHours: number;
}

export const DEFAULT_ROOMING_TIMING: RoomingTiming = { leadHours: 72, answerHours: 24 };
/** Even a stay about to start leaves the hotel this long to answer. */
export const MIN_ANSWER_MS = 15 * 60_000;

/** The night whose list carries a stay: its first night, the local date of check-in. */
export function roomingNight(checkinLocal: string): string {
  return localDateOf(checkinLocal);
}

/** The stable reference of a stay's row at the hotel: every version and resend of it carries the same one. */
export function roomingRowRef(bookingId: string): string {
  return `RL-${bookingId.replace(/-/g, '').slice(0, 12).toUpperCase()}`;
}

/**
 * The booking task a row was placed by: its ref and attempt (a re-delivered job finds its row by it). The row of
 * the booking's current task is the one keyed by its task_ref and retry_count + 1 (lifecycle isCurrentTask).
 */
export function roomingTaskKey(ref: string | null | undefined, attempt: number): string {
  return `${ref ?? 'task'}#${attempt}`;
}

const MOVED_AWAY = '#moved-away';

/**
 * The key of the CANCELLED row the same task places on the list of a hotel the stay moved away from: a key of its
 * own beside the task's row at the stay's hotel now, so a re-delivered job finds each of them.
 */
export function movedAwayRowKey(taskKey: string): string {
  return `${taskKey}${MOVED_AWAY}`;
}

/** The ref of the task (the move) that placed a moved-away CANCELLED row; null: the row is the stay's own. */
export function moveRefOfRow(rowKey: string | null | undefined): string | null {
  if (!rowKey?.endsWith(MOVED_AWAY)) return null;
  const taskKey = rowKey.slice(0, -MOVED_AWAY.length);
  const hash = taskKey.lastIndexOf('#');
  return hash < 0 ? taskKey : taskKey.slice(0, hash);
}

/** A row sent earlier for the same stay, oldest first. */
export interface SentRow {
  marking: RoomingMarking;
  state: RowState;
}

/** The rows the hotel was told of and did not turn down; an unanswered one past its deadline only if `expired`. */
function toldRows(sent: readonly SentRow[], expired: boolean): SentRow[] {
  return sent.filter(
    (r) =>
      r.state !== 'QUEUED' && r.state !== 'WITHDRAWN' && r.state !== 'REJECTED' && (expired || r.state !== 'EXPIRED'),
  );
}

const lastHolds = (told: readonly SentRow[]) => {
  const last = told[told.length - 1];
  return !!last && last.marking !== 'CANCELLED';
};

/**
 * Whether the hotel holds the stay: the last row it was sent (and did not reject) was a new or amended one.
 * A rejected row holds nothing, so the next attempt is NEW again; a sent row still unanswered counts as held.
 */
export function hotelHoldsStay(sent: readonly SentRow[]): boolean {
  return lastHolds(toldRows(sent, false));
}

/**
 * Whether the hotel may hold the stay: it holds it, or the last row it was sent went unanswered past its
 * deadline (EXPIRED). The hotel was e-mailed that row (the CSV attached) and may have loaded the room, so a
 * cancellation must still tell it; a booking or amendment is NEW for it (the same row_ref: never a second room).
 */
export function hotelMayHoldStay(sent: readonly SentRow[]): boolean {
  return hotelHoldsStay(sent) || lastHolds(toldRows(sent, true));
}

/** A stay's row as a task reads it: the hotel whose list carries it, and the stay it names. */
export interface StayRow extends SentRow {
  hotel_config_id: number;
  checkin_time_local: string;
  checkout_time_local: string;
}

/** The states of a row the hotel was told of and did not turn down (an unanswered one past its deadline too). */
const HOLDING_STATES: ReadonlySet<RowState> = new Set(['SENT', 'CONFIRMED', 'SUPERSEDED', 'EXPIRED']);

/** A hotel the stay moved away from that still holds it, and the stay it holds (its CANCELLED row names it). */
export interface MovedAwayHolder {
  hotel_config_id: number;
  checkin_time_local: string;
  checkout_time_local: string;
}

/**
 * The hotels other than the stay's hotel now (`hotelConfigId`) that hold the stay, each judged on its own rows
 * (hotelHoldsStay): the roster moved the stay away from them, so each is sent a CANCELLED row for the stay it holds
 * (its last NEW or AMENDED row the hotel was told of). A hotel never sent the stay, or sent its cancellation
 * already, is not among them. `told`: the rows the hotels were sent (a row of a list being e-mailed counts as SENT).
 */
export function movedAwayHolders(told: readonly StayRow[], hotelConfigId: number | null): MovedAwayHolder[] {
  const byHotel = new Map<number, StayRow[]>();
  for (const r of told) {
    if (r.hotel_config_id === hotelConfigId) continue;
    const rows = byHotel.get(r.hotel_config_id) ?? [];
    rows.push(r);
    byHotel.set(r.hotel_config_id, rows);
  }
  const out: MovedAwayHolder[] = [];
  for (const [hotel, rows] of byHotel) {
    // As for any cancellation, a hotel whose last row went unanswered may hold the stay (hotelMayHoldStay).
    if (!hotelMayHoldStay(rows)) continue;
    const held = rows.filter((r) => r.marking !== 'CANCELLED' && HOLDING_STATES.has(r.state));
    const last = held[held.length - 1]!;
    out.push({
      hotel_config_id: hotel,
      checkin_time_local: last.checkin_time_local,
      checkout_time_local: last.checkout_time_local,
    });
  }
  return out.sort((a, b) => a.hotel_config_id - b.hotel_config_id);
}

/**
 * What a booking task tells the hotel. A booking or amendment is NEW unless the hotel holds the stay
 * (then AMENDED: the same reference, new dates). A cancellation is a CANCELLED row when the hotel may hold the
 * stay (`mayHold`: hotelMayHoldStay, an unanswered row included); when it never heard of it (or turned it down)
 * there is nothing to tell, and the booking is cancelled at once.
 */
export function roomingChange(
  operation: RoomingOperation,
  holds: boolean,
  mayHold: boolean = holds,
): { marking: RoomingMarking } | { marking: null; settle: 'CANCELLED'; reason: string } {
  if (operation === 'CANCEL')
    return mayHold
      ? { marking: 'CANCELLED' }
      : { marking: null, settle: 'CANCELLED', reason: 'the hotel was never sent this stay' };
  return { marking: holds ? 'AMENDED' : 'NEW' };
}

/**
 * The booking's hotel block once its row is on a list (QUEUED until the list leaves). A NEW row asks a hotel that
 * does not hold the stay, so a confirmation the block still carries is another hotel's (one the stay moved away
 * from) and goes.
 */
export function blockWithRow(
  hotel: BookingHotelBlock,
  row: { row_ref: string; marking: RoomingMarking; list_id: string; version: number },
): BookingHotelBlock {
  const out: BookingHotelBlock = {
    ...hotel,
    rooming_ref: row.row_ref,
    rooming_status: 'QUEUED',
    rooming_marking: row.marking,
    rooming_list_id: row.list_id,
    rooming_list_version: row.version,
  };
  if (row.marking === 'NEW') {
    delete out.confirmation_number;
    delete out.hotel_confirmed_at;
  }
  return out;
}

/**
 * A cancellation row leaves this long before the hotel's cancellation deadline at the latest: the worker's pass
 * (every few seconds) sends it, and a mail server that refuses it still has about a dozen retries (its back-off
 * reaches 5 minutes) before the deadline.
 */
export const ROOMING_CANCEL_MARGIN_MINUTES = 60;

/**
 * When a row must leave: P1/P2 changes never wait for a batch; others go with the night's list at the lead
 * time before check-in, or at once when the stay is already inside it. A cancellation under the contract's
 * terms (`cancellationDeadline`, an instant) leaves ROOMING_CANCEL_MARGIN_MINUTES before that deadline if the
 * batch would be later: the lead time before check-in can fall after a deadline days before arrival, and the fee
 * it avoids is recorded only for a cancellation the hotel was sent in time. Never before now.
 */
export function roomingSendAt(
  checkinLocal: string,
  priority: string | null | undefined,
  timing: RoomingTiming,
  nowMs: number,
  cancellationDeadline?: string | null,
): number {
  const batched =
    priority === 'P1' || priority === 'P2' || timing.leadHours <= 0
      ? nowMs
      : Math.max(nowMs, instantOf(checkinLocal) - timing.leadHours * MS_PER_HOUR);
  if (!cancellationDeadline) return batched;
  const latest = Date.parse(cancellationDeadline) - ROOMING_CANCEL_MARGIN_MINUTES * 60_000;
  return Math.max(nowMs, Math.min(batched, latest));
}

/** A list leaves when its earliest row must. */
export function listDueAt(rowSendAts: readonly number[]): number {
  return Math.min(...rowSendAts);
}

/**
 * The version a new row joins: the night's list still waiting to be sent (rows join it, so one e-mail
 * carries every change of a batch), else a new version after the last one sent.
 */
export function versionForRow(lists: readonly { version: number; status: string }[]): {
  version: number;
  existing: boolean;
} {
  const waiting = lists.find((l) => l.status === 'QUEUED');
  if (waiting) return { version: waiting.version, existing: true };
  return { version: lists.reduce((m, l) => Math.max(m, l.version), 0) + 1, existing: false };
}

/** The hotel's answer is due by this instant: answerHours after sending, but no later than check-in, and never under MIN_ANSWER_MS. */
export function answerDeadline(sentAtMs: number, earliestCheckinLocal: string, timing: RoomingTiming): number {
  return Math.max(
    sentAtMs + MIN_ANSWER_MS,
    Math.min(sentAtMs + timing.answerHours * MS_PER_HOUR, instantOf(earliestCheckinLocal)),
  );
}

export type RoomingAnswer =
  | { kind: 'CONFIRMED'; confirmation_number: string }
  | { kind: 'REJECTED'; reason: string }
  | { kind: 'EXPIRED'; deadline: number };

/** The booking's status once the hotel answered a row (or did not, by the deadline). */
export function roomingOutcome(
  marking: RoomingMarking,
  answer: RoomingAnswer,
): { status: 'CONFIRMED' | 'MODIFIED' | 'CANCELLED' | 'NEEDS_REVIEW'; reason: string | null } {
  if (answer.kind === 'REJECTED')
    return { status: 'NEEDS_REVIEW', reason: `the hotel rejected the rooming list row: ${answer.reason}` };
  if (answer.kind === 'EXPIRED')
    return {
      status: 'NEEDS_REVIEW',
      reason: `the hotel did not answer the rooming list by ${isoInstant(answer.deadline)}`,
    };
  const status = marking === 'NEW' ? 'CONFIRMED' : marking === 'AMENDED' ? 'MODIFIED' : 'CANCELLED';
  return { status, reason: `confirmed by the hotel (${answer.confirmation_number})` };
}

/** A DIRECT hotel is bookable only with an address to send its list to. */
export function roomingRecipientIssue(reservationsEmail: string | null | undefined): string | null {
  return reservationsEmail
    ? null
    : 'the DIRECT hotel has no reservations_email in the hotel config: its rooming list cannot be sent';
}

/** What an operator's resend of a list does, by the list's state. */
export type RoomingResend =
  /** Still waiting (for its send time or the mail server): it is tried now. */
  | { kind: 'SEND_NOW' }
  /** Being e-mailed right now, first sending or resend (a sender holds it): left alone, or the hotel would get it twice. */
  | { kind: 'SENDING' }
  /** Sent and awaiting the hotel's answer: e-mailed again, the same rows, link and deadline. */
  | { kind: 'RESEND' }
  /** Nothing is left for the hotel to answer (answered, or past its deadline): refused with the reason. */
  | { kind: 'REFUSED'; message: string };

/**
 * An operator's resend: the same version again, for the hotel to answer. A list the hotel can no longer answer
 * is not resent, since its e-mail would ask the hotel to confirm by a deadline the page no longer takes answers for.
 */
export function roomingResend(
  list: {
    status: string;
    expires_at: Date | null;
    answered_at?: Date | null;
    /** A sent list's resend under way: not asked for any more, and its sender's lease not run out. */
    resend_requested?: boolean;
    next_attempt_at?: Date | null;
  },
  nowMs: number,
): RoomingResend {
  if (list.status === 'QUEUED') return { kind: 'SEND_NOW' };
  if (list.status === 'SENDING') return { kind: 'SENDING' };
  if (list.status === 'ANSWERED')
    return {
      kind: 'REFUSED',
      message: `The hotel answered this list${list.answered_at ? ` at ${list.answered_at.toISOString()}` : ''}: nothing is left for it to confirm (its answer is on the list)`,
    };
  if (list.status !== 'SENT' || !list.expires_at || list.expires_at.getTime() <= nowMs)
    return {
      kind: 'REFUSED',
      message: `The list's answer deadline${list.expires_at ? ` (${list.expires_at.toISOString()})` : ''} has passed: its stays are with the review queue, and a new change goes to the hotel as a new version`,
    };
  const resending = list.resend_requested === false && !!list.next_attempt_at && list.next_attempt_at.getTime() > nowMs;
  return resending ? { kind: 'SENDING' } : { kind: 'RESEND' };
}

/** Whether a hotel's answer to a row may still change the booking: only the stay's current row counts. */
export function answerApplies(rowState: RowState): boolean {
  return rowState === 'SENT';
}

export type { RowSettlement };

/** How a row's answer settles it: the repository only writes this. */
export function rowSettlement(marking: RoomingMarking, answer: RoomingAnswer): RowSettlement {
  const outcome = roomingOutcome(marking, answer);
  return {
    state: answer.kind,
    answered: answer.kind !== 'EXPIRED',
    confirmation_number: answer.kind === 'CONFIRMED' ? answer.confirmation_number : null,
    reject_reason: answer.kind === 'REJECTED' ? answer.reason : null,
    ...outcome,
    disposition: DISPOSITION_OF_TASK[outcome.status],
  };
}

import { instantOf, isoInstant } from './time';

/*
 * A cancellation held in case the roster changes back (cost settings' cancel_hold_minutes; decideCancellation
 * says when and until when): kept when the layover comes back, released as exactly one cancellation when the
 * hold runs out.
 */

const msOf = (t: string | number): number => (typeof t === 'number' ? t : instantOf(t));

export type HoldOutcome = 'KEEP' | 'CANCEL' | 'WAIT';

/**
 * A held cancellation at `now`: KEEP when the roster has brought the layover back (nothing goes to the supplier,
 * the booking stays as it was), CANCEL once the hold has run out, WAIT otherwise. Asked only while the hold is
 * still held: a layover back before the cancellation was released is back within the hold.
 */
export function holdOutcome(
  held: { hold_until: string | number },
  now: string | number,
  layoverBack: boolean,
): HoldOutcome {
  if (layoverBack) return 'KEEP';
  return msOf(now) >= msOf(held.hold_until) ? 'CANCEL' : 'WAIT';
}

/** A held cancellation's state as stored: HELD until released (one cancellation) or kept (none). */
export type HoldState =
  { status: 'HELD'; hold_until: string } | { status: 'KEPT'; at: string } | { status: 'RELEASED'; at: string };

/**
 * The next state of a hold and whether to send the cancellation now. Only a HELD hold moves; KEPT and RELEASED
 * are final, so however often this runs (a roster, the hold's timer, a retried job) at most one cancellation is
 * sent for a hold. The caller stores the new state only if the stored one is still the one it read.
 */
export function advanceHold(
  state: HoldState,
  now: string | number,
  layoverBack: boolean,
): { state: HoldState; send_cancellation: boolean } {
  if (state.status !== 'HELD') return { state, send_cancellation: false };
  const at = isoInstant(msOf(now));
  switch (holdOutcome(state, now, layoverBack)) {
    case 'KEEP':
      return { state: { status: 'KEPT', at }, send_cancellation: false };
    case 'CANCEL':
      return { state: { status: 'RELEASED', at }, send_cancellation: true };
    default:
      return { state, send_cancellation: false };
  }
}

/** How a held item ends when another item's cancellation takes its booking over. */
export interface HeldItemEnd {
  held_action_id: string;
  /** The item that supersedes it. */
  by_action_id: string;
  disposition: 'AUTO_CANCELLED';
  message: string;
}

/**
 * A held cancellation that the airline's own cancellation makes instead, under an item of its own (an injected
 * cancellation takes the booking over): the held item ends at once, superseded by that item, which carries the
 * cancellation's outcome. It says AUTO_CANCELLED, not nothing: nothing more is held for it, and an item with no
 * disposition and no hold counts as in flight for ever (the schedule's open items). Null when the task is no
 * cancellation, or settles the held item itself.
 */
export function heldItemTakenOver(
  operation: string,
  heldActionId: string | null,
  byActionId: string | null,
): HeldItemEnd | null {
  if (operation !== 'CANCEL' || !heldActionId || !byActionId || heldActionId === byActionId) return null;
  return {
    held_action_id: heldActionId,
    by_action_id: byActionId,
    disposition: 'AUTO_CANCELLED',
    message:
      `held cancellation taken over by the airline's cancellation (action item ${byActionId}), ` +
      'which cancels the booking now: its outcome is on that item',
  };
}

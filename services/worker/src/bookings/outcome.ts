import type { BookingPatch, BookingRow } from '@crew/db';
import type { MadeCancellationCost, MovedAwayStay, TaskStatus } from '@crew/engine';

/** How a supplier task ended. */
export interface Outcome {
  status: TaskStatus;
  reason: string | null;
  patch?: BookingPatch;
  /** Action item extras (a manual flight choice after an automatic search failed, say). */
  recommended_action?: string | null;
  /** The supplier took the request and answers later (a callback): the booking stays PENDING with `patch`. */
  awaiting?: boolean;
  /** A hotel cancellation that found no room to cancel: nothing was ever reserved, so no fee is owed or avoided. */
  nothing_reserved?: boolean;
  /**
   * When the supplier's cancellation of the room succeeded (the worker's clock): the cancellation is judged as made
   * then, so one decided in time but made after the deadline (the supplier down until then) costs the late fee.
   */
  cancelled_at?: Date;
  /**
   * Another task took the booking over while this one ran: nothing more is done or written, but for a room or ticket
   * it had cancelled at the supplier, recorded CANCELLED where the booking still names it live.
   */
  superseded?: boolean;
}

/** The end of a task that another one superseded midway (RecordBeforeOrder found it no longer current). */
export const SUPERSEDED: Outcome = { status: 'FAILED', reason: 'superseded by another task', superseded: true };

/**
 * Writes on the booking, while its task is still the current one, what the task did at the supplier before it
 * orders again (`patch`: the old reservation cancelled, a fee it cost) and the reference the new order goes under
 * (its `order_reference`), so whatever becomes of the new order the booking shows the old one cancelled and a
 * later task knows where to look for the new one. `cost`'s reason joins the task's end's reason (the item's
 * message). The booking as written, or null when another task took it over meanwhile (then nothing more is done;
 * the room or ticket `patch` names cancelled is still recorded so, with `cost`'s fee, where the booking names it
 * live, and `moved` for the old hotel's invoice: engine cancelledBeforeRecord).
 */
export type RecordBeforeOrder = (
  patch: BookingPatch,
  orderReference: string,
  /** What the old room's cancellation cost or avoided under the task's terms (madeCancellationCost). */
  cost?: MadeCancellationCost | null,
  /** A move's old room cancelled: the stay it moved away from (engine movedAwayStay), for that hotel's invoice. */
  moved?: MovedAwayStay,
) => Promise<BookingRow | null>;

/**
 * The supplier asked us to slow down (429, or 503 with Retry-After). Nothing was done at the supplier. Without
 * a lane the runtime pauses the whole supplier queue (the shared sandbox); with one, only that airline's lane
 * at that supplier waits (its own token, its own rate limit), and the task is put back, delayed.
 */
export class SupplierPaced extends Error {
  override readonly name = 'SupplierPaced';
  constructor(
    readonly retryAfterMs: number,
    message: string,
    readonly lane?: { airline_id: string; supplier: string },
  ) {
    super(message);
  }
}

/** Per airline and supplier, until when its lane waits (this process; each other one learns from its own 429). */
export class SupplierLanePauses {
  private readonly until = new Map<string, number>();

  pause(airlineId: string, supplier: string, ms: number, now = Date.now()): void {
    this.until.set(`${airlineId}:${supplier}`, now + ms);
  }

  /** Milliseconds the lane still waits, or 0. */
  remaining(airlineId: string, supplier: string, now = Date.now()): number {
    const key = `${airlineId}:${supplier}`;
    const t = this.until.get(key) ?? 0;
    if (t <= now) this.until.delete(key);
    return Math.max(0, t - now);
  }
}

import type { BookingPatch } from '@crew/db';
import type { TaskStatus } from '@crew/engine';

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
}

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

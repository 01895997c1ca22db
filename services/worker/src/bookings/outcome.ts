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
}

import type { BookingOperation } from '@crew/contracts';
import type { TaskStatus } from './booking-tasks';

/**
 * How a booking task is carried out at the supplier: a booking is made, a stay is amended in place, a booking
 * is cancelled, and a flight change is cancel-and-rebook (a ticket is not amended: the old one is cancelled and
 * a new one issued under the task's identity).
 */
export type SupplierPlan = 'BOOK' | 'AMEND' | 'CANCEL' | 'CANCEL_AND_REBOOK';

export function supplierPlan(type: 'HOTEL' | 'FLIGHT', operation: BookingOperation): SupplierPlan {
  if (operation === 'CANCEL') return 'CANCEL';
  if (operation === 'AMEND') return type === 'FLIGHT' ? 'CANCEL_AND_REBOOK' : 'AMEND';
  return 'BOOK';
}

/** A cancel-and-rebook goes on to the new ticket only once the old one is cancelled; else the cancel's end is the task's. */
export function rebookAfterCancel(cancelled: { status: TaskStatus }): boolean {
  return cancelled.status === 'CANCELLED';
}

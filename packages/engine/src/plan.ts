import {
  coveringRequestedBooking,
  dispositionOfCovered,
  requestedBookingKey,
  type RequestedBooking,
} from './booking-tasks';
import { decide, type Decision, type PolicyContext } from './policy';
import { holdsReservation, type BookingStatus, type DerivedActionItem, type HotelItemDetails } from './types';

/**
 * What becomes of one derived action item: adopted (the airline's own live booking already covers it), or
 * the policy's decision on it with the disposition the item gets now (null: its booking task decides). The
 * worker writes it (planDiffWrites); the dry-run preview (POST /crew/schedules/preview) only reports it.
 */
export type ItemPlan =
  | { kind: 'COVERED'; covering: RequestedBooking; disposition: 'AUTO_BOOKED' | 'PENDING_REVIEW'; message: string }
  | { kind: 'DECIDED'; decision: Decision; existing: BookingStatus | null; disposition: string | null };

/** The disposition of a decided item before any booking task runs (null: a task will set it). */
export function dispositionFor(d: Decision, bookingStatus: BookingStatus | null): string | null {
  switch (d.action) {
    case 'REVIEW':
      return 'PENDING_REVIEW';
    case 'NONE':
      // UNCHANGED: nothing to do; it reports where the booking stands.
      return bookingStatus === 'CANCELLED'
        ? 'AUTO_CANCELLED'
        : bookingStatus && holdsReservation(bookingStatus)
          ? 'AUTO_BOOKED'
          : 'PENDING_REVIEW';
    default:
      return null;
  }
}

/**
 * Plans one item. `requested` (the airline's own requested live bookings by requestedBookingKey) loses the
 * booking an item adopts, so one booking is adopted once across the items of a diff.
 */
export function planItem(
  item: DerivedActionItem,
  actionId: string,
  policy: PolicyContext,
  bookingStatus: ReadonlyMap<string, BookingStatus>,
  requested: Map<string, RequestedBooking[]>,
): ItemPlan {
  const covering = coveringRequestedBooking(item, requested);
  if (covering) {
    const key = requestedBookingKey(covering.type, covering.traveller_email, covering.date);
    requested.set(
      key,
      requested.get(key)!.filter((b) => b !== covering),
    );
    return {
      kind: 'COVERED',
      covering,
      disposition: dispositionOfCovered(covering.status),
      message: `covered by the airline’s own booking ${covering.booking_id} (${covering.status}); no second booking made`,
    };
  }
  const existing = item.booking_id ? (bookingStatus.get(item.booking_id) ?? null) : null;
  const hotel = item.type === 'HOTEL' ? (item.details as HotelItemDetails) : null;
  const decision = decide(
    {
      action_id: actionId,
      type: item.type,
      subtype: item.subtype,
      classification: item.classification,
      booking_status: existing,
      traveller_email: item.details.traveller_email,
      station: hotel?.station,
      checkin_time_local: hotel?.checkin_time_local,
      checkout_time_local: hotel?.checkout_time_local,
    },
    policy,
  );
  return { kind: 'DECIDED', decision, existing, disposition: dispositionFor(decision, existing) };
}

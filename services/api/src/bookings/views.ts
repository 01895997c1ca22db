import type { Booking, BookingFlight, BookingHotel } from '@crew/contracts';
import type { BookingRow } from '@crew/db';
import { roomDates } from '@crew/engine';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The booking as the API shows it: the stay or leg asked for, merged with what the supplier holds. */
export function bookingView(b: BookingRow, extra: { replaces_booking_id?: string } = {}): Booking {
  return {
    booking_id: b.booking_id,
    type: b.type,
    status: b.status,
    source: b.source,
    manual_override: b.manual_override,
    config_version_used: b.config_version_used,
    retry_count: b.retry_count,
    hotel: b.type === 'HOTEL' ? hotelBlock(b) : null,
    flight: b.type === 'FLIGHT' ? flightBlock(b) : null,
    employee_id: b.employee_id,
    pairing_number: b.pairing_number,
    flight_number: b.flight_number,
    irop_ref: b.irop_ref,
    schedule_id: b.schedule_id,
    traveller_email: b.traveller_email,
    duty_date: b.duty_date,
    action_id: b.action_id,
    booked_by: b.booked_by,
    review_reason: b.review_reason,
    last_error: b.last_error,
    next_attempt_at: iso(b.next_attempt_at),
    ...extra,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

/** The stay asked for; the room's dates as asked for, until the supplier's (stored in the block) replace them. */
function hotelBlock(b: BookingRow): BookingHotel {
  const asked =
    b.checkin_time_local && b.checkout_time_local
      ? roomDates(b.checkin_time_local, b.checkout_time_local)
      : { check_in_date: null, check_out_date: null };
  // The jsonb block is written by the api and the worker in the BookingHotel layout.
  return {
    station: b.station,
    checkin_time_local: b.checkin_time_local,
    checkout_time_local: b.checkout_time_local,
    ...asked,
    ...((b.hotel ?? {}) as Partial<BookingHotel>),
  };
}

function flightBlock(b: BookingRow): BookingFlight {
  return {
    from_airport: b.from_airport,
    to_airport: b.to_airport,
    dep_time_local: b.dep_time_local,
    arr_time_local: b.arr_time_local,
    ...((b.flight ?? {}) as Partial<BookingFlight>),
  };
}

import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BulkColumns } from '../bulk-types';

type Json<T> = ColumnType<T, string | null, string | null>;

import type { BookingFlightBlock, BookingHotelBlock, BookingOperation, BookingStatus, Money } from '@crew/contracts';

/** A room or ticket a superseded task is having cancelled (the engine's BeingCancelled; the db knows no rule). */
export interface BeingCancelledMark {
  supplier: string;
  supplier_ref: string;
  task: string;
}

/** A booking's hotel cancellation until it is made (the engine's StoredCancellation; the db knows no rule). */
export interface StoredCancellation {
  ref: string;
  action_id: string | null;
  deadline: string | null;
  penalty: Money | null;
  penalty_avoided: Money | null;
  message: string;
  hold: { status: 'HELD'; hold_until: string } | { status: 'KEPT' | 'RELEASED'; at: string } | null;
  /** A move's: the old DIRECT hotel refused its CANCELLED row and still holds the room (what the item says). */
  old_room_refused?: string | null;
}

export type { BookingOperation, BookingStatus };
export type BookingSource = 'SCHEDULE_DIFF' | 'AIRLINE_INJECTED' | 'IROP';

export interface BookingTable {
  booking_id: Generated<string>;
  airline_id: string;
  type: 'HOTEL' | 'FLIGHT';
  status: BookingStatus;
  source: BookingSource;
  manual_override: Generated<boolean>;
  pending_cancel: Generated<boolean>;
  config_version_used: string | null;
  retry_count: Generated<number>;
  schedule_id: string | null;
  action_id: string | null;
  employee_id: string | null;
  pairing_number: string | null;
  duty_date: string | null;
  duty_period_num: number | null;
  leg_sequence: number | null;
  flight_number: string | null;
  irop_ref: string | null;
  traveller_email: string | null;
  traveller_name: string | null;
  station: string | null;
  checkin_time_local: string | null;
  checkout_time_local: string | null;
  from_airport: string | null;
  to_airport: string | null;
  dep_time_local: string | null;
  arr_time_local: string | null;
  /** The contracts' one schema of each block (BookingHotelBlock, BookingFlightBlock). */
  hotel: Json<BookingHotelBlock | null>;
  flight: Json<BookingFlightBlock | null>;
  booked_by: string | null;
  review_reason: string | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  retry_job_id: string | null;
  task_ref: string | null;
  /** The operation of the task task_ref names (null: no task). */
  task_operation: ColumnType<BookingOperation | null, BookingOperation | null | undefined, BookingOperation | null>;
  /** First history entry of a booking the schedule diff created (status and reason at created_at, actor engine); else null. */
  created_status: ColumnType<string | null, string | null | undefined, string | null>;
  created_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** A hotel cancellation until it is made: its fee or the fee it avoids, and a roster cancellation's hold (engine StoredCancellation). */
  cancellation: ColumnType<StoredCancellation | null, string | null | undefined, string | null>;
  /**
   * The supplier reference of the latest order (a ticket, a room) when it is not the first booking's `bk-<booking>`
   * (null): written before a task orders under a reference of its own, so a later task finds an order whose answer was lost.
   */
  order_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * The reference of an order whose answer was lost, when a person recorded a PNR beside it since (RECORD_PNR on a
   * FAILED booking): the worker looks it up there and cancels what it made, then clears it (stray-orders.ts).
   */
  stray_order_reference: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the worker looks for that order next (a lease while it does); null with no reference. */
  stray_order_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * The room or ticket a superseded task is having cancelled at the supplier (engine BeingCancelled), until that
   * cancellation is recorded: a task of the booking that finds it does not keep it.
   */
  being_cancelled: ColumnType<BeingCancelledMark | null, string | null | undefined, string | null>;
  seq: Generated<number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
export type BookingRow = Selectable<BookingTable>;

/**
 * A stay a hotel booking moved away from (a roster's move to another hotel, on the same booking): the old hotel's
 * room as it was, cancelled, with the late fee that cost (null: in time, or no terms). The old hotel's invoice
 * matches its lines to it.
 */
export interface HotelMovedStayTable {
  booking_id: string;
  /** The move's task ref: one row per move. */
  move_ref: string;
  airline_id: string;
  property_id: string;
  confirmation_number: string | null;
  check_in_date: string;
  check_out_date: string;
  contract_id: number | null;
  contracted_rate: Json<Money | null>;
  cancellation_penalty: Json<Money | null>;
  cancelled_at: ColumnType<Date, Date | undefined, never>;
}

export interface BookingEventTable {
  event_id: Generated<number>;
  booking_id: string;
  status: string;
  at: ColumnType<Date, Date | undefined, never>;
  reason: string | null;
  actor: string;
}

export interface IdempotencyKeyTable {
  airline_id: string;
  endpoint: string;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null, string | null>;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** When the request answering the key claimed it; the claim's lease runs from here. */
  claimed_at: ColumnType<Date, Date | undefined, Date>;
}

export interface RetryJobTable {
  retry_job_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  filters: ColumnType<Record<string, unknown>, string, string>;
  total: number;
  /** Bookings a later retry job took over that had succeeded (or not) when they left this one. */
  left_succeeded: Generated<number>;
  left_failed: Generated<number>;
  created_at: ColumnType<Date, Date | undefined, never>;
}
export type RetryJobRow = Selectable<RetryJobTable>;

/* The columns each bulk write (COPY or insert … select) sends, checked against the table's types. */

export const BOOKING_COLUMNS = {
  booking_id: 'uuid',
  airline_id: 'uuid',
  type: 'text',
  status: 'text',
  source: 'text',
  manual_override: 'boolean',
  config_version_used: 'text',
  schedule_id: 'uuid',
  action_id: 'uuid',
  employee_id: 'text',
  pairing_number: 'text',
  duty_date: 'date',
  duty_period_num: 'integer',
  leg_sequence: 'integer',
  flight_number: 'text',
  irop_ref: 'text',
  traveller_email: 'text',
  traveller_name: 'text',
  station: 'text',
  checkin_time_local: 'text',
  checkout_time_local: 'text',
  from_airport: 'text',
  to_airport: 'text',
  dep_time_local: 'text',
  arr_time_local: 'text',
  booked_by: 'text',
  review_reason: 'text',
  hotel: 'jsonb',
  flight: 'jsonb',
  task_ref: 'text',
  task_operation: 'text',
  created_status: 'text',
  created_reason: 'text',
} as const satisfies BulkColumns<BookingTable>;

/** The roster's new wish for an existing booking (MODIFY / CANCEL items), with its new status. */
export const BOOKING_CHANGE_COLUMNS = {
  booking_id: 'uuid',
  status: 'text',
  pending_cancel: 'boolean',
  review_reason: 'text',
  station: 'text',
  checkin_time_local: 'text',
  checkout_time_local: 'text',
  duty_date: 'date',
  from_airport: 'text',
  to_airport: 'text',
  flight_number: 'text',
  dep_time_local: 'text',
  arr_time_local: 'text',
  schedule_id: 'uuid',
  action_id: 'uuid',
  hotel: 'jsonb',
  task_ref: 'text',
  task_operation: 'text',
  cancellation: 'jsonb',
} as const satisfies BulkColumns<BookingTable>;

export const BOOKING_EVENT_COLUMNS = {
  booking_id: 'uuid',
  status: 'text',
  reason: 'text',
  actor: 'text',
} as const satisfies BulkColumns<BookingEventTable>;

import type { ColumnType, Generated, Selectable } from 'kysely';

export type RoomingListStatus = 'QUEUED' | 'SENDING' | 'SENT' | 'ANSWERED' | 'EXPIRED';
export type RoomingRowState = 'QUEUED' | 'SENT' | 'CONFIRMED' | 'REJECTED' | 'EXPIRED' | 'SUPERSEDED' | 'WITHDRAWN';

export interface RoomingListTable {
  list_id: Generated<string>;
  seq: Generated<number>;
  airline_id: string;
  hotel_config_id: number;
  night: string;
  version: number;
  status: RoomingListStatus;
  recipient: string;
  due_at: Date;
  next_attempt_at: Date;
  send_attempts: Generated<number>;
  sends: Generated<number>;
  resend_requested: Generated<boolean>;
  last_error: string | null;
  message_id: string | null;
  sent_at: Date | null;
  opened_at: Date | null;
  answered_at: Date | null;
  expires_at: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
}
export type RoomingListRow = Selectable<RoomingListTable>;

export interface RoomingRowTable {
  row_id: Generated<number>;
  list_id: string;
  booking_id: string;
  task_ref: string | null;
  row_ref: string;
  marking: 'NEW' | 'AMENDED' | 'CANCELLED';
  state: RoomingRowState;
  priority: string | null;
  send_at: Date;
  crew_name: string | null;
  rank: string | null;
  employee_id: string | null;
  pairing_number: string | null;
  checkin_time_local: string;
  checkout_time_local: string;
  hotel_confirmation_number: string | null;
  reject_reason: string | null;
  answered_at: Date | null;
}
export type RoomingRowRow = Selectable<RoomingRowTable>;

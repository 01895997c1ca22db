import type {
  ActionSubtype,
  ActionType,
  AuditClassification,
  BookingStatus,
  Classification,
  Priority,
  Rank,
} from '@crew/contracts';
import type { DateWindow } from './time';

/** Who a row belongs to, copied from the crew entry so a booking can be made from the row alone. */
export interface CrewFields {
  employee_id: string;
  traveller_email: string;
  name: string;
  rank: Rank;
  home_base: string;
}

/** One crew member's DH leg, the unit of the FLIGHT diff. */
export interface DeadheadRow extends CrewFields {
  /** 1-based position in the submission's flattened order (see flattenRoster). */
  row: number;
  key: string;
  pairing_number: string;
  duty_period_num: number;
  duty_date: string;
  leg_sequence: number;
  from_airport: string;
  to_airport: string;
  flight_number: string | null;
  /** The times to fly: expected_* when the airline gave them, else the scheduled ones. */
  dep_time_local: string;
  arr_time_local: string;
  scheduled_dep_time_local: string;
  scheduled_arr_time_local: string;
}

/** One crew member's layover with booking_required true, the unit of the HOTEL diff. */
export interface LayoverRow extends CrewFields {
  row: number;
  key: string;
  pairing_number: string;
  duty_period_num: number;
  duty_date: string;
  station: string;
  checkin_time_local: string;
  checkout_time_local: string;
}

/** What a later diff needs of a layover: its row number (day1_row) and its date (window). */
export interface LayoverRef {
  key: string;
  row: number;
  /** Local date of checkin_time_local. */
  date: string;
}

/** Per-pairing facts for swap detection. */
export interface PairingSummary {
  pairing_number: string;
  /** Hash of everything in the pairing except its crew list. */
  signature: string;
  /** employee_ids in submission order. */
  crew: string[];
  /** Local dates of check_in_local / check_out_local. */
  first_date: string;
  last_date: string;
  /** Flattened rows of this pairing: first_row..last_row. */
  first_row: number;
  last_row: number;
}

export type AuditClassificationValue = Extract<AuditClassification, 'DATA_QUALITY_FLAG' | 'DUPLICATE_ROW'>;

export interface RowAnchors {
  employee_id: string;
  pairing_number: string;
  duty_date: string;
}

export interface RowRefs {
  day1_row: number | null;
  day2_row: number | null;
}

/** An audit event as derived; the caller adds event_id, schedule_id, created_at. */
export interface DerivedAuditEvent {
  event_key: string;
  classification: AuditClassificationValue;
  message: string;
  anchors: RowAnchors;
  source_rows: RowRefs;
  details: Record<string, unknown>;
}

/** flattenRoster's result. */
export interface FlatRoster {
  /** Kept DH legs (first occurrence of each key), in flattened order. */
  deadheads: DeadheadRow[];
  /** Kept layovers with booking_required true, in flattened order. */
  layovers: LayoverRow[];
  /** One per pairing_number (first occurrence), in submission order. */
  pairings: PairingSummary[];
  /** Keys of rows skipped as DATA_QUALITY_FLAG: the diff leaves those keys alone. */
  flaggedKeys: string[];
  auditEvents: DerivedAuditEvent[];
  /** Number of flattened rows (legs and layovers of every crew member). */
  rowCount: number;
  /**
   * Per pairing_number, the signatures of its objects (content and crew list): equal contents, equal rows but
   * for their row numbers. What changedPairings compares with the previous diff's.
   */
  pairingContents: Map<string, string>;
}

/** What is kept of a submission between diffs. Plain JSON. */
export interface RosterState {
  deadheads: DeadheadRow[];
  layovers: LayoverRef[];
  pairings: PairingSummary[];
}

// One definition of a booking's status, the contracts' (db and engine use it too).
export { BOOKING_STATUSES, type BookingStatus } from '@crew/contracts';

/** A booking that holds a confirmed reservation (a room, a ticket): amendable, counted as booked and as covering. */
export function holdsReservation(status: BookingStatus): boolean {
  return status === 'CONFIRMED' || status === 'MODIFIED';
}

interface BookingActualBase {
  booking_id: string;
  status: BookingStatus;
  manual_override: boolean;
  traveller_email?: string | null;
}

/** An existing HOTEL booking. Bookings with a null key field (e.g. injected ones) are not diffed. */
export interface HotelBookingActual extends BookingActualBase {
  employee_id: string | null;
  pairing_number: string | null;
  duty_period_num: number | null;
  /** Local timestamps with offset, as the roster gave them (their written date is the booking's date). */
  station: string;
  checkin_time_local: string;
  checkout_time_local: string;
  duty_date?: string | null;
}

/** An existing FLIGHT booking. */
export interface FlightBookingActual extends BookingActualBase {
  employee_id: string | null;
  pairing_number: string | null;
  duty_date: string | null;
  leg_sequence: number | null;
  from_airport: string;
  to_airport: string;
  flight_number?: string | null;
  dep_time_local: string;
  arr_time_local: string;
}

export interface DiffSettings {
  emit_unchanged: boolean;
  cancellation_lookback_days: number;
}

export interface DiffInput {
  current: FlatRoster;
  previous: RosterState | null;
  hotelBookings: HotelBookingActual[];
  flightBookings: FlightBookingActual[];
  window: DateWindow;
  settings: DiffSettings;
  /** ISO instant of processing: the clock of priorities and of the cancellation lookback. */
  processedAt: string;
  /**
   * When given, only these pairing_numbers' rows, previous rows and bookings are diffed: the caller knows the
   * others derive nothing (changedPairings). The next state is still the whole roster's.
   */
  changedPairings?: ReadonlySet<string>;
}

export interface HotelStay {
  station: string;
  checkin_time_local: string;
  checkout_time_local: string;
}

export interface FlightSegment {
  from_airport: string;
  to_airport: string;
  flight_number: string | null;
  dep_time_local: string;
  arr_time_local: string;
}

/** Crew data a booking needs; null when only the booking is known (a cancelled row). */
export interface TravellerDetails {
  traveller_email: string | null;
  name: string | null;
  rank: string | null;
  home_base: string | null;
}

export interface SwapDetails {
  removed: string[];
  added: string[];
}

export interface HotelItemDetails extends HotelStay, TravellerDetails {
  row_key: string;
  duty_period_num: number;
  /** The booking's stay before the change (MODIFY items). */
  previous?: HotelStay;
  swap?: SwapDetails;
}

export interface FlightItemDetails extends FlightSegment, TravellerDetails {
  row_key: string;
  duty_period_num: number | null;
  leg_sequence: number;
  scheduled_dep_time_local: string | null;
  scheduled_arr_time_local: string | null;
  /** The leg before the change (MODIFY items). */
  previous?: FlightSegment;
  swap?: SwapDetails;
}

/** An action item as derived; the caller adds action_id, schedule_id, disposition, created_at. */
export interface DerivedActionItem {
  item_key: string;
  source: 'SCHEDULE_DIFF';
  type: ActionType;
  subtype: ActionSubtype;
  classification: Classification;
  priority: Priority;
  anchors: RowAnchors;
  source_rows: RowRefs;
  booking_id: string | null;
  /** ISO instant of the event that sets the priority. */
  event_at: string;
  message: string;
  details: HotelItemDetails | FlightItemDetails;
}

export interface DiffResult {
  actionItems: DerivedActionItem[];
  auditEvents: DerivedAuditEvent[];
  nextState: RosterState;
  /** nextState's current rows and kept rows apart (engine state nextRosterStateParts). */
  nextStateParts: { current: RosterState; kept: RosterState };
}

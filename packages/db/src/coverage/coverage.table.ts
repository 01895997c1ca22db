/** The latest processed roster's layovers (booking_required), one row per crew member: what coverage reads. */
export interface RosteredLayoverTable {
  airline_id: string;
  roster_date: string;
  row_key: string;
  employee_id: string;
  pairing_number: string;
  duty_period_num: number;
  duty_date: string;
  traveller_email: string | null;
  station: string;
  checkin_time_local: string;
  checkout_time_local: string;
  checkin_at: Date;
}

/** The latest processed roster's DH legs, one row per crew member. */
export interface RosteredDeadheadTable {
  airline_id: string;
  roster_date: string;
  row_key: string;
  employee_id: string;
  pairing_number: string;
  duty_period_num: number;
  leg_sequence: number;
  traveller_email: string | null;
  from_airport: string;
  to_airport: string;
  flight_number: string | null;
  dep_time_local: string;
  arr_time_local: string;
  dep_at: Date;
}

/** Layovers last seen AT_RISK inside the next 24 h (the coverage monitor's memory between samples). */
export interface CoverageAtRiskTable {
  airline_id: string;
  row_key: string;
  checkin_at: Date;
  since: Date;
}

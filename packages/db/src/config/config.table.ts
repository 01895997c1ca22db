import type { ColumnType, Generated, Selectable } from 'kysely';
import type { CancellationFee, ChangeRequest, FareConditions, HotelInput, Money, RatePeriod } from '@crew/contracts';

/** A contract's cancellation terms as stored (the deadline is always there when terms are). */
export interface ContractCancellationTerms {
  cancellation_deadline: { days_before: number; local_time: string };
  late_cancellation_fee?: CancellationFee | null;
  no_show_fee?: CancellationFee | null;
}

type CreatedAt = ColumnType<Date, never, never>;
type UpdatedAt = ColumnType<Date, never, Date>;
type Json<T> = ColumnType<T, string, string>;

/** The terms part of a hotel (everything but its identity and legacy rates). */
export type HotelTerms = Omit<HotelInput, 'property_id' | 'name' | 'rate_periods'>;

export interface HotelConfigTable {
  hotel_config_id: Generated<number>;
  airline_id: string;
  base_station: string;
  property_id: string;
  name: string | null;
  handler_type: 'GDS' | 'DIRECT';
  terms: Json<HotelTerms>;
  /** Where a DIRECT hotel's rooming lists are e-mailed. */
  reservations_email: ColumnType<string | null, string | null | undefined, string | null>;
  legacy_rate_periods: ColumnType<RatePeriod[], string | undefined, string>;
  in_current: boolean;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type HotelConfigRow = Selectable<HotelConfigTable>;

export interface ConfigVersionTable<T> {
  airline_id: string;
  version: number;
  snapshot: Json<T>;
  created_at: CreatedAt;
}

export interface FlightRulesTable {
  airline_id: string;
  auto_book_max_price: Json<Money | null>;
  /** ANY (the rule off), REFUNDABLE or CHANGEABLE: which fares the engine may book by itself. */
  fare_conditions: Generated<FareConditions>;
  updated_at: UpdatedAt;
}

export interface HotelContractTable {
  contract_id: Generated<number>;
  hotel_config_id: number;
  airline_id: string;
  contract_number: string;
  contract_from: string;
  contract_to: string;
  automated_booking_enabled: Generated<boolean>;
  rate_periods: Json<RatePeriod[]>;
  rate_access_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** The contract's cancellation terms (deadline and fees); null: none, a cancellation costs nothing. */
  cancellation_terms: ColumnType<ContractCancellationTerms | null, string | null | undefined, string | null>;
  /** The hotel's IANA time zone, in which the cancellation deadline is read. */
  hotel_time_zone: ColumnType<string | null, string | null | undefined, string | null>;
  /** The airline pays incidentals at this hotel (an invoice's incidentals are disputed otherwise). */
  incidentals_covered: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type HotelContractRow = Selectable<HotelContractTable>;

export interface HotelChangeRequestTable {
  request_id: Generated<number>;
  airline_id: string;
  hotel_config_id: number;
  contract_id: number;
  intent: ChangeRequest['intent'];
  status: ChangeRequest['status'];
  hotel_name: string | null;
  station: string;
  contract_number: string;
  contract_from: string;
  contract_to: string;
  requested_by: string;
  requested_on: ColumnType<Date, never, never>;
  decided_by: string | null;
  decided_on: Date | null;
  decision_note: string | null;
}
export type HotelChangeRequestRow = Selectable<HotelChangeRequestTable>;

export type { FlightConfigSnapshot } from '@crew/contracts';

/** Company config (spec 2.6): the booking account and the cancellation lookback. */
export interface CompanyConfigTable {
  airline_id: string;
  crew_booker_email: string | null;
  cancellation_lookback_days: Generated<number>;
  updated_at: UpdatedAt;
}

/** An airline's review settings (the engine's ReviewSettings); no row means the defaults. */
export interface ReviewSettingsTable {
  airline_id: string;
  lead_time_minutes: number;
  due_soon_minutes: number;
  priority_targets_minutes: ColumnType<Record<string, number>, string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** An airline's cost settings (the engine's CostSettings); no row means the defaults. */
export interface CostSettingsTable {
  airline_id: string;
  cancel_hold_minutes: number;
  after_deadline: 'CANCEL' | 'REVIEW';
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

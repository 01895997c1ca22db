import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type UpdatedAt = ColumnType<Date, never, Date>;

export type RateMatchMode = 'STRICT' | 'LOOSE';

/** An airline (the tenant) with the operator levers of spec section 1 / DESIGN section 3. */
export interface AirlineTable {
  airline_id: Generated<string>;
  name: string;
  carrier_code: string;
  schedules_access: Generated<boolean>;
  deadhead_auto_booking: Generated<boolean>;
  booking_modification: Generated<boolean>;
  swap_execution: Generated<boolean>;
  cancellation_execution: Generated<boolean>;
  rate_match_mode: Generated<RateMatchMode>;
  emit_unchanged: Generated<boolean>;
  max_retries: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type Airline = Selectable<AirlineTable>;
export type NewAirline = Insertable<AirlineTable>;
export type AirlineUpdate = Updateable<AirlineTable>;

/** A person of an airline who may register OAuth clients; the token is stored only as a hash. */
export interface UserTable {
  user_id: Generated<string>;
  airline_id: string;
  email: string;
  token_hash: string;
  created_at: CreatedAt;
}
export type User = Selectable<UserTable>;

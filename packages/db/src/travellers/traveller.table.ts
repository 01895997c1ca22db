import type { ColumnType, Generated, Selectable } from 'kysely';

type CreatedAt = ColumnType<Date, never, never>;
type UpdatedAt = ColumnType<Date, never, Date>;

/** A crew member's bookable profile, keyed by traveller_email within the airline. */
export interface TravellerTable {
  airline_id: string;
  traveller_email: string;
  employee_id: string | null;
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  /** Legacy plain date of birth (rows written before the personal fields were sealed); a write clears it. */
  date_of_birth: ColumnType<string | null, string | null | undefined, string | null>;
  /** The personal fields as one sealed JSON text (the services seal and open it; this package never does). */
  personal_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  /** Not secret: whether a date of birth is set, sealed or legacy. */
  has_date_of_birth: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}
export type Traveller = Selectable<TravellerTable>;

/** Who changed a traveller profile, when, and which fields: never the values. */
export interface TravellerAuditTable {
  audit_id: Generated<number>;
  airline_id: string;
  traveller_email: string;
  employee_id: string | null;
  actor: string;
  action: 'CREATE' | 'UPDATE';
  fields: string[];
  at: CreatedAt;
}
export type TravellerAudit = Selectable<TravellerAuditTable>;

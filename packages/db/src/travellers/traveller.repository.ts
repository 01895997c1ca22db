import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import type { Traveller, TravellerAudit } from './traveller.table';

/**
 * Traveller profiles as the airline (PUT /crew/travellers/{employee_id}) and the operator write them. The
 * personal fields arrive sealed by the services and are stored as given: this package never sees them in plain.
 */
export interface TravellerColumns {
  employee_id?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  name?: string | null;
  personal_sealed?: string | null;
  has_date_of_birth?: boolean;
  date_of_birth?: null;
}

/**
 * Serialises the profile writes of one airline for the rest of the transaction: an employee's profile and
 * another employee's e-mail are checked, then written, without a concurrent write slipping in between.
 */
export async function lockProfiles(trx: DbOrTrx, airlineId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('traveller-profiles'), hashtext(${airlineId}))`.execute(trx);
}

/**
 * The profile of an employee. The roster can leave two rows with one employee_id (the crew member's e-mail
 * changed between rosters): the most recently updated one is the employee's profile.
 */
export function findByEmployee(db: DbOrTrx, airlineId: string, employeeId: string): Promise<Traveller | undefined> {
  return db
    .selectFrom('travellers')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('employee_id', '=', employeeId)
    .orderBy('updated_at', 'desc')
    .orderBy('traveller_email')
    .limit(1)
    .executeTakeFirst();
}

export function findByEmail(db: DbOrTrx, airlineId: string, email: string): Promise<Traveller | undefined> {
  return db
    .selectFrom('travellers')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('traveller_email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export function insertProfile(
  db: DbOrTrx,
  airlineId: string,
  email: string,
  columns: TravellerColumns,
): Promise<Traveller> {
  return db
    .insertInto('travellers')
    .values({ airline_id: airlineId, traveller_email: email.toLowerCase(), ...columns })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Updates the row of `email`; `newEmail` moves the profile to another e-mail (the employee's changed). */
export function updateProfile(
  db: DbOrTrx,
  airlineId: string,
  email: string,
  columns: TravellerColumns,
  newEmail?: string,
): Promise<Traveller> {
  return db
    .updateTable('travellers')
    .set({ ...columns, ...(newEmail ? { traveller_email: newEmail.toLowerCase() } : {}), updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .where('traveller_email', '=', email.toLowerCase())
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertAudit(
  db: DbOrTrx,
  entry: {
    airline_id: string;
    traveller_email: string;
    employee_id: string | null;
    actor: string;
    action: 'CREATE' | 'UPDATE';
    fields: string[];
  },
): Promise<unknown> {
  return db.insertInto('traveller_audit').values(entry).execute();
}

/** An employee's audit entries, newest first. */
export function listAudit(
  db: DbOrTrx,
  airlineId: string,
  employeeId: string,
  limit: number,
): Promise<TravellerAudit[]> {
  return db
    .selectFrom('traveller_audit')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('employee_id', '=', employeeId)
    .orderBy('audit_id', 'desc')
    .limit(limit)
    .execute();
}

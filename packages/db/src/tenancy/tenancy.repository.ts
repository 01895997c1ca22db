import type { AirlineSettings, AirlineSettingsPatch } from '@crew/contracts';
import type { DbOrTrx } from '../database';
import type { Airline } from './tenancy.table';

export const SETTINGS_COLUMNS = [
  'schedules_access',
  'deadhead_auto_booking',
  'booking_modification',
  'swap_execution',
  'cancellation_execution',
  'rate_match_mode',
  'emit_unchanged',
  'max_retries',
] as const satisfies readonly (keyof AirlineSettings)[];

export function settingsOf(a: Airline): AirlineSettings {
  return {
    schedules_access: a.schedules_access,
    deadhead_auto_booking: a.deadhead_auto_booking,
    booking_modification: a.booking_modification,
    swap_execution: a.swap_execution,
    cancellation_execution: a.cancellation_execution,
    rate_match_mode: a.rate_match_mode,
    emit_unchanged: a.emit_unchanged,
    max_retries: a.max_retries,
  };
}

export async function createAirline(db: DbOrTrx, name: string, carrierCode: string): Promise<Airline> {
  const airline = await db
    .insertInto('airlines')
    .values({ name, carrier_code: carrierCode })
    .returningAll()
    .executeTakeFirstOrThrow();
  await db.insertInto('company_configs').values({ airline_id: airline.airline_id, crew_booker_email: null }).execute();
  return airline;
}

export function listAirlines(db: DbOrTrx): Promise<Airline[]> {
  return db.selectFrom('airlines').selectAll().orderBy('created_at', 'asc').orderBy('airline_id').execute();
}

export function findAirline(db: DbOrTrx, airlineId: string): Promise<Airline | undefined> {
  return db.selectFrom('airlines').selectAll().where('airline_id', '=', airlineId).executeTakeFirst();
}

export async function airlineExists(db: DbOrTrx, airlineId: string): Promise<boolean> {
  return (
    (await db.selectFrom('airlines').select('airline_id').where('airline_id', '=', airlineId).executeTakeFirst()) !==
    undefined
  );
}

export function updateAirlineSettings(
  db: DbOrTrx,
  airlineId: string,
  patch: AirlineSettingsPatch,
): Promise<Airline | undefined> {
  return db
    .updateTable('airlines')
    .set({ ...patch, updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .returningAll()
    .executeTakeFirst();
}

export function createUser(db: DbOrTrx, airlineId: string, email: string, tokenHash: string) {
  return db
    .insertInto('users')
    .values({ airline_id: airlineId, email: email.toLowerCase(), token_hash: tokenHash })
    .onConflict((oc) => oc.columns(['airline_id', 'email']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findUser(db: DbOrTrx, userId: string) {
  return db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export function findTraveller(db: DbOrTrx, airlineId: string, email: string) {
  return db
    .selectFrom('travellers')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('traveller_email', '=', email.toLowerCase())
    .executeTakeFirst();
}

export function findCompanyConfig(db: DbOrTrx, airlineId: string) {
  return db.selectFrom('company_configs').selectAll().where('airline_id', '=', airlineId).executeTakeFirst();
}

export function updateCompanyConfig(
  db: DbOrTrx,
  airlineId: string,
  patch: { crew_booker_email?: string; cancellation_lookback_days?: number },
) {
  return db
    .updateTable('company_configs')
    .set({ ...patch, updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

import { sql } from 'kysely';
import type { FareConditions, HotelConfig, Money, RatePeriod } from '@crew/contracts';
import type { DbOrTrx } from '../database';
import type { ContractCancellationTerms, FlightConfigSnapshot, HotelTerms } from './config.table';

/** Serialises config writes of one airline (row lock on the tenant). */
export async function lockAirline(trx: DbOrTrx, airlineId: string): Promise<void> {
  await trx.selectFrom('airlines').select('airline_id').where('airline_id', '=', airlineId).forUpdate().execute();
}

/** Hotels in the airline's current config, with whether they have contracts and whether automation is on. */
export function currentHotels(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('hotel_configs as h')
    .leftJoin('hotel_contracts as c', 'c.hotel_config_id', 'h.hotel_config_id')
    .select([
      'h.hotel_config_id',
      'h.base_station',
      'h.property_id',
      'h.name',
      'h.handler_type',
      'h.terms',
      'h.legacy_rate_periods',
      'h.reservations_email',
      sql<boolean>`count(c.contract_id) > 0`.as('has_contracts'),
      sql<boolean>`coalesce(bool_or(c.automated_booking_enabled), false)`.as('automated_booking_enabled'),
    ])
    .where('h.airline_id', '=', airlineId)
    .where('h.in_current', '=', true)
    .groupBy('h.hotel_config_id')
    .orderBy('h.base_station')
    .execute();
}

export async function upsertHotel(
  trx: DbOrTrx,
  airlineId: string,
  h: {
    base_station: string;
    property_id: string;
    name: string | null;
    handler_type: 'GDS' | 'DIRECT';
    terms: HotelTerms;
    reservations_email?: string | null;
    clearLegacyRates: boolean;
  },
): Promise<void> {
  const values = {
    name: h.name,
    handler_type: h.handler_type,
    terms: JSON.stringify(h.terms),
    reservations_email: h.reservations_email ?? null,
    in_current: true,
  };
  await trx
    .insertInto('hotel_configs')
    .values({ airline_id: airlineId, base_station: h.base_station, property_id: h.property_id, ...values })
    .onConflict((oc) =>
      oc.columns(['airline_id', 'base_station', 'property_id']).doUpdateSet({
        ...values,
        updated_at: new Date(),
        ...(h.clearLegacyRates ? { legacy_rate_periods: '[]' } : {}),
      }),
    )
    .execute();
}

/** Marks every hotel not in `keep` (ids) as no longer part of the current config. */
export async function retireHotelsExcept(
  trx: DbOrTrx,
  airlineId: string,
  keep: { base_station: string; property_id: string }[],
): Promise<void> {
  const keys = keep.map((k) => `${k.base_station}|${k.property_id}`);
  let q = trx
    .updateTable('hotel_configs')
    .set({ in_current: false, updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .where('in_current', '=', true);
  if (keys.length) q = q.where(sql<string>`base_station || '|' || property_id`, 'not in', keys);
  await q.execute();
}

export async function latestVersion(
  db: DbOrTrx,
  table: 'hotel_config_versions' | 'flight_config_versions',
  airlineId: string,
) {
  return db
    .selectFrom(table)
    .select(['version', 'created_at'])
    .where('airline_id', '=', airlineId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function insertHotelVersion(
  trx: DbOrTrx,
  airlineId: string,
  version: number,
  snapshot: HotelConfig,
): Promise<Date> {
  const row = await trx
    .insertInto('hotel_config_versions')
    .values({ airline_id: airlineId, version, snapshot: JSON.stringify(snapshot) })
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return row.created_at;
}

export async function insertFlightVersion(
  trx: DbOrTrx,
  airlineId: string,
  version: number,
  snapshot: FlightConfigSnapshot,
) {
  return trx
    .insertInto('flight_config_versions')
    .values({ airline_id: airlineId, version, snapshot: JSON.stringify(snapshot) })
    .returning(['version', 'created_at'])
    .executeTakeFirstOrThrow();
}

export function findVersion(
  db: DbOrTrx,
  table: 'hotel_config_versions' | 'flight_config_versions',
  airlineId: string,
  version: number,
) {
  return db
    .selectFrom(table)
    .select(['snapshot', 'version', 'created_at'])
    .where('airline_id', '=', airlineId)
    .where('version', '=', version)
    .executeTakeFirst();
}

export function latestFlightConfig(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('flight_config_versions')
    .select(['snapshot', 'version', 'created_at'])
    .where('airline_id', '=', airlineId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findFlightRules(db: DbOrTrx, airlineId: string) {
  return db.selectFrom('flight_rules').selectAll().where('airline_id', '=', airlineId).executeTakeFirst();
}

/** Sets the supplied rules; an omitted one keeps its value (a new row: no ceiling, any fare). */
export function upsertFlightRules(
  db: DbOrTrx,
  airlineId: string,
  rules: { auto_book_max_price?: Money | null; fare_conditions?: FareConditions },
) {
  const set = {
    ...(rules.auto_book_max_price !== undefined
      ? { auto_book_max_price: JSON.stringify(rules.auto_book_max_price) }
      : {}),
    ...(rules.fare_conditions ? { fare_conditions: rules.fare_conditions } : {}),
  };
  return db
    .insertInto('flight_rules')
    .values({
      airline_id: airlineId,
      auto_book_max_price: set.auto_book_max_price ?? 'null',
      ...(set.fare_conditions ? { fare_conditions: set.fare_conditions } : {}),
    })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ ...set, updated_at: new Date() }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---- contracts ----

export function findCurrentHotel(db: DbOrTrx, airlineId: string, hotelConfigId: number) {
  return db
    .selectFrom('hotel_configs')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('hotel_config_id', '=', hotelConfigId)
    .where('in_current', '=', true)
    .executeTakeFirst();
}

export function insertContract(
  db: DbOrTrx,
  airlineId: string,
  hotelConfigId: number,
  c: { contract_number: string; contract_from: string; contract_to: string; rate_access_code?: string | undefined },
  cost: ContractCost = { cancellation_terms: null, hotel_time_zone: null },
) {
  return db
    .insertInto('hotel_contracts')
    .values({
      airline_id: airlineId,
      hotel_config_id: hotelConfigId,
      contract_number: c.contract_number,
      contract_from: c.contract_from,
      contract_to: c.contract_to,
      rate_access_code: c.rate_access_code ?? null,
      rate_periods: '[]',
      ...costValues(cost),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A contract's cancellation terms, the zone they are read in, and whether incidentals are covered. */
export interface ContractCost {
  cancellation_terms: ContractCancellationTerms | null;
  hotel_time_zone: string | null;
  /** Omitted: unchanged (false on a new contract). */
  incidentals_covered?: boolean;
}

function costValues(cost: ContractCost) {
  return {
    cancellation_terms: cost.cancellation_terms ? JSON.stringify(cost.cancellation_terms) : null,
    hotel_time_zone: cost.hotel_time_zone,
    ...(cost.incidentals_covered !== undefined ? { incidentals_covered: cost.incidentals_covered } : {}),
  };
}

export function setContractCost(db: DbOrTrx, contractId: number, cost: ContractCost) {
  return db
    .updateTable('hotel_contracts')
    .set({ ...costValues(cost), updated_at: new Date() })
    .where('contract_id', '=', contractId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listContracts(db: DbOrTrx, airlineId: string, hotelConfigId: number) {
  return db
    .selectFrom('hotel_contracts')
    .selectAll()
    .where('airline_id', '=', airlineId)
    .where('hotel_config_id', '=', hotelConfigId)
    .orderBy('contract_id')
    .execute();
}

export function findContract(db: DbOrTrx, airlineId: string, contractId: number) {
  return contractQuery(db, airlineId, contractId).executeTakeFirst();
}

/** The contract, row-locked (its hotel's row is not) for a read-merge-write of its fields: changes take turns. */
export function lockContract(trx: DbOrTrx, airlineId: string, contractId: number) {
  return contractQuery(trx, airlineId, contractId).forUpdate('c').executeTakeFirst();
}

function contractQuery(db: DbOrTrx, airlineId: string, contractId: number) {
  return db
    .selectFrom('hotel_contracts as c')
    .innerJoin('hotel_configs as h', 'h.hotel_config_id', 'c.hotel_config_id')
    .selectAll('c')
    .select(['h.base_station', 'h.name as hotel_name'])
    .where('c.airline_id', '=', airlineId)
    .where('c.contract_id', '=', contractId);
}

export function setContractRates(db: DbOrTrx, contractId: number, periods: RatePeriod[]) {
  return db
    .updateTable('hotel_contracts')
    .set({ rate_periods: JSON.stringify(periods), updated_at: new Date() })
    .where('contract_id', '=', contractId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function setContractAutomation(db: DbOrTrx, contractId: number, enabled: boolean) {
  return db
    .updateTable('hotel_contracts')
    .set({ automated_booking_enabled: enabled, updated_at: new Date() })
    .where('contract_id', '=', contractId)
    .execute();
}

// ---- change requests ----

export function insertChangeRequest(
  db: DbOrTrx,
  row: {
    airline_id: string;
    hotel_config_id: number;
    contract_id: number;
    intent: 'ENABLE' | 'DISABLE';
    hotel_name: string | null;
    station: string;
    contract_number: string;
    contract_from: string;
    contract_to: string;
    requested_by: string;
  },
) {
  return db
    .insertInto('hotel_change_requests')
    .values({ ...row, status: 'OPEN' })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function listChangeRequests(db: DbOrTrx, filter: { airlineId?: string; openOnly?: boolean; status?: string }) {
  let q = db.selectFrom('hotel_change_requests').selectAll();
  if (filter.airlineId) q = q.where('airline_id', '=', filter.airlineId);
  if (filter.openOnly) q = q.where('status', '=', 'OPEN');
  if (filter.status) q = q.where('status', '=', filter.status as 'OPEN');
  return q.orderBy('requested_on', 'desc').orderBy('request_id', 'desc').execute();
}

/** Every airline's change requests with the airline's name (the operator's list), newest first. */
export function listChangeRequestsOfAirlines(db: DbOrTrx, filter: { status?: string }) {
  let q = db
    .selectFrom('hotel_change_requests as r')
    .innerJoin('airlines as a', 'a.airline_id', 'r.airline_id')
    .selectAll('r')
    .select('a.name as airline_name');
  if (filter.status) q = q.where('r.status', '=', filter.status as 'OPEN');
  return q.orderBy('r.requested_on', 'desc').orderBy('r.request_id', 'desc').execute();
}

export function findChangeRequest(db: DbOrTrx, requestId: number, airlineId?: string) {
  let q = db.selectFrom('hotel_change_requests').selectAll().where('request_id', '=', requestId);
  if (airlineId) q = q.where('airline_id', '=', airlineId);
  return q.executeTakeFirst();
}

/** Moves an OPEN request to its next status; undefined when it was not OPEN (a concurrent decision lost). */
export function closeChangeRequest(
  db: DbOrTrx,
  requestId: number,
  status: 'APPROVED' | 'DECLINED' | 'WITHDRAWN',
  decision: { decided_by?: string; decision_note?: string | null } = {},
) {
  return db
    .updateTable('hotel_change_requests')
    .set({
      status,
      ...(status === 'WITHDRAWN'
        ? {}
        : {
            decided_by: decision.decided_by ?? null,
            decided_on: new Date(),
            decision_note: decision.decision_note ?? null,
          }),
    })
    .where('request_id', '=', requestId)
    .where('status', '=', 'OPEN')
    .returningAll()
    .executeTakeFirst();
}

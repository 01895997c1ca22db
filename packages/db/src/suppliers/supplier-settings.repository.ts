import type { Selectable } from 'kysely';
import type { DbOrTrx } from '../database';
import type { AirlineSuppliersTable } from './supplier.table';

export type AirlineSuppliers = Selectable<AirlineSuppliersTable>;
export type AirlineSuppliersWrite = Omit<AirlineSuppliers, 'airline_id' | 'updated_at'>;

/** The airline's supplier setting, or undefined (the sandbox only). */
export function findSupplierSettings(db: DbOrTrx, airlineId: string): Promise<AirlineSuppliers | undefined> {
  return db.selectFrom('airline_suppliers').selectAll().where('airline_id', '=', airlineId).executeTakeFirst();
}

/** Replaces the airline's supplier setting whole (the service merged what the caller omitted). */
export function saveSupplierSettings(
  db: DbOrTrx,
  airlineId: string,
  row: AirlineSuppliersWrite,
): Promise<AirlineSuppliers> {
  const values = { ...row, updated_at: new Date() };
  return db
    .insertInto('airline_suppliers')
    .values({ airline_id: airlineId, ...values })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every airline's setting (the key rotation re-seals them all). */
export function listSupplierSettings(db: DbOrTrx): Promise<AirlineSuppliers[]> {
  return db.selectFrom('airline_suppliers').selectAll().orderBy('airline_id').execute();
}

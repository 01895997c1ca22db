import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_12_01_0100: the stays read by hotel and check-out date and by confirmation number, and the spans an
 * invoice is read by. The previous release keeps working on the new schema: its stays read by hotel is served by
 * the index that replaced the one it used, and the columns it does not know are null on what it writes. Down puts
 * the old index back and drops the rest.
 */

const steps = stepwiseDatabase('invoice_bounded_reads_migration');

const BEFORE = '2026_11_30_0200_invoice_line_columns';
const THIS = '2026_12_01_0100_invoice_bounded_reads';

const indexes = async () =>
  (
    await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'bookings'
      and indexname like 'bookings_hotel_%' order by indexname`.execute(steps.db)
  ).rows.map((r) => r.indexname);

it('serves the previous release’s stays read by the new index; down restores the old one', async () => {
  const { db, migrator } = steps;
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await indexes()).toEqual(['bookings_hotel_property_idx']);
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  // As the previous release stores a posted invoice.
  const previous = randomUUID();
  await sql`insert into invoices (invoice_id, airline_id, property_id, invoice_number, currency, status, line_count, total_billed)
    values (${previous}, ${airline}, 'GDS-JFK-001', 'INV-1', 'USD', 'RECONCILING', 0, 0)`.execute(db);

  // Up to this migration: later ones add indexes of their own.
  expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
  expect(await indexes()).toEqual(['bookings_hotel_confirmation_idx', 'bookings_hotel_stays_idx']);
  const stored = await sql`select lines_from, lines_to, billed_from, billed_to from invoices
    where invoice_id = ${previous}`.execute(db);
  expect(stored.rows).toEqual([{ lines_from: null, lines_to: null, billed_from: null, billed_to: null }]);
  // The previous release's read of a hotel's stays (by airline and property) by the index now there.
  await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const plan = await sql<{ 'QUERY PLAN': string }>`explain select b.booking_id from bookings b
      where b.airline_id = ${airline} and b.type = 'HOTEL' and b.hotel->>'property_id' = 'GDS-JFK-001'`.execute(trx);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('bookings_hotel_stays_idx');
  });

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  expect(await indexes()).toEqual(['bookings_hotel_property_idx']);
  const left = await sql`select column_name from information_schema.columns
    where table_name = 'invoices' and column_name in ('lines_from', 'lines_to', 'billed_from', 'billed_to')`.execute(
    db,
  );
  expect(left.rows).toEqual([]);
  await migrateToLatest(db);
});

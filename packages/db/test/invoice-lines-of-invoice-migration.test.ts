import { randomUUID } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { billedKeys } from '../src/invoices/invoice.repository';
import { migrations } from '../src/migrations';
import { createUnmigratedDatabase } from '@crew/test-support';

/*
 * Migration 2026_11_30_0100: an invoice line keeps neither its invoice's airline and hotel nor its own booking's id
 * in its billed keys. Nothing an airline already had is lost: the nights billed before still read back whole (so a
 * later line billing them again is a duplicate), and down restores the columns and the whole keys.
 */

let t: Awaited<ReturnType<typeof createUnmigratedDatabase>>;
let db: Kysely<any>;

beforeAll(async () => {
  t = await createUnmigratedDatabase('invoice_lines_of_invoice');
  db = t.db;
});
afterAll(() => t?.drop());

const BEFORE = '2026_11_29_0400_lean_write_indexes';

it('drops the invoice’s columns from its lines and the booking id from their keys, and down puts both back', async () => {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();

  const airline = randomUUID();
  const invoice = randomUUID();
  const booking = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  await sql`insert into invoices (invoice_id, airline_id, property_id, invoice_number, currency, status, line_count, total_billed, reconciled_at)
    values (${invoice}, ${airline}, 'GDS-JFK-001', 'INV-1', 'USD', 'RECONCILED', 3, 594, now())`.execute(db);
  const lines = [
    // A booked line: two nights and a no-show fee of its booking.
    {
      n: 1,
      booking: booking,
      keys: [`${booking}|2027-03-01`, `${booking}|2027-03-02`, `${booking}|NO_SHOW`],
      disputed: 0,
    },
    // A line with no booking: its guest's night, whole.
    { n: 2, booking: null, keys: ['?|smith john|2027-03-05'], disputed: 198 },
    // A duplicate that billed nothing first.
    { n: 3, booking: booking, keys: [], disputed: 198 },
  ];
  for (const l of lines)
    await sql`insert into invoice_lines (invoice_id, line_number, airline_id, property_id, check_in_date, status,
        booking_id, billed_amount, disputed_amount, disputed_currency, findings, needs_review, billed_keys)
      values (${invoice}, ${l.n}, ${airline}, 'GDS-JFK-001', '2027-03-01', 'MATCHED', ${l.booking}, 198, ${l.disputed},
        'USD', '[]', '[]', ${JSON.stringify(l.keys)}::jsonb)`.execute(db);
  const whole = new Set(lines.flatMap((l) => l.keys));

  await migrateToLatest(db);
  const stored = await sql<{ line_number: number; billed_keys: string[] }>`
    select line_number, billed_keys from invoice_lines where invoice_id = ${invoice} order by line_number`.execute(db);
  expect(stored.rows).toEqual([
    { line_number: 1, billed_keys: ['2027-03-01', '2027-03-02', 'NO_SHOW'] },
    { line_number: 2, billed_keys: ['?|smith john|2027-03-05'] },
    { line_number: 3, billed_keys: [] },
  ]);
  const columns = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = 'invoice_lines' and column_name in ('airline_id', 'property_id')`.execute(
    db,
  );
  expect(columns.rows).toEqual([]);
  // Read back whole: the nights billed before the migration are still what a later line duplicates.
  expect(await billedKeys(db, airline, 'GDS-JFK-001')).toEqual(whole);
  // The spend report's index of disputed lines is there, by invoice and date.
  const index = await sql<{ def: string }>`
    select indexdef as def from pg_indexes where indexname = 'invoice_lines_disputed_idx'`.execute(db);
  expect(index.rows[0]!.def).toMatch(/\(invoice_id, check_in_date\) WHERE \(disputed_amount > /);

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const restored = await sql<{ line_number: number; airline_id: string; property_id: string; billed_keys: string[] }>`
    select line_number, airline_id, property_id, billed_keys from invoice_lines where invoice_id = ${invoice}
    order by line_number`.execute(db);
  expect(restored.rows).toEqual(
    lines.map((l) => ({ line_number: l.n, airline_id: airline, property_id: 'GDS-JFK-001', billed_keys: l.keys })),
  );
  await migrateToLatest(db);
  expect(await billedKeys(db, airline, 'GDS-JFK-001')).toEqual(whole);
});

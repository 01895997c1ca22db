import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { billedKeys } from '../src/invoices/invoice.repository';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_11_30_0100: a line is written without its invoice's airline and hotel and with its own booking's
 * keys without the booking id, while the previous release keeps working on the new schema: it still writes both
 * columns and whole keys, and every key stored before or by it reads back as stored. Down restores the columns'
 * values and whole keys for the previous release.
 */

const steps = stepwiseDatabase('invoice_lines_of_invoice');

const BEFORE = '2026_11_29_0400_lean_write_indexes';

it('makes the invoice’s columns optional and reads keys of either form whole; down restores both', async () => {
  const { db, migrator } = steps;
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();

  const airline = randomUUID();
  const invoice = randomUUID();
  const booking = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  await sql`insert into invoices (invoice_id, airline_id, property_id, invoice_number, currency, status, line_count, total_billed, reconciled_at)
    values (${invoice}, ${airline}, 'GDS-JFK-001', 'INV-1', 'USD', 'RECONCILED', 5, 990, now())`.execute(db);
  // withColumns: written as the previous release writes a line, with its invoice's airline and hotel.
  const line = (n: number, bookingId: string | null, keys: string[], withColumns: boolean) =>
    sql`insert into invoice_lines (invoice_id, line_number, airline_id, property_id, check_in_date, status,
        booking_id, billed_amount, disputed_amount, disputed_currency, findings, needs_review, billed_keys)
      values (${invoice}, ${n}, ${withColumns ? airline : null}, ${withColumns ? 'GDS-JFK-001' : null}, '2027-03-01',
        'MATCHED', ${bookingId}, 198, 0, 'USD', '[]', '[]', ${JSON.stringify(keys)}::jsonb)`.execute(db);
  // Before: whole keys, as the previous release writes them (a booked line, a guest's line, a duplicate).
  await line(1, booking, [`${booking}|2027-03-01`, `${booking}|NO_SHOW`], true);
  await line(2, null, ['?|smith john|2027-03-05'], true);
  await line(3, booking, [], true);

  await migrateToLatest(db);
  // The previous release still writes its lines, with both columns and whole keys.
  await line(4, booking, [`${booking}|2027-03-02`], true);
  // This release writes neither column and its booking's keys without the booking id.
  await line(5, booking, ['2027-03-03', 'LATE_CANCEL'], false);
  const whole = new Set([
    `${booking}|2027-03-01`,
    `${booking}|NO_SHOW`,
    '?|smith john|2027-03-05',
    `${booking}|2027-03-02`,
    `${booking}|2027-03-03`,
    `${booking}|LATE_CANCEL`,
  ]);
  expect(await billedKeys(db, airline, 'GDS-JFK-001', null)).toEqual(whole);
  // The spend report's index of disputed lines by invoice and date is there.
  const index = await sql<{ def: string }>`
    select indexdef as def from pg_indexes where indexname = 'invoice_lines_invoice_disputed_idx'`.execute(db);
  expect(index.rows[0]!.def).toMatch(/\(invoice_id, check_in_date\) WHERE \(disputed_amount > /);

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const restored = await sql<{ line_number: number; airline_id: string; property_id: string; billed_keys: string[] }>`
    select line_number, airline_id, property_id, billed_keys from invoice_lines where invoice_id = ${invoice}
    order by line_number`.execute(db);
  expect(restored.rows.map((r) => [r.line_number, r.airline_id, r.property_id])).toEqual(
    [1, 2, 3, 4, 5].map((n) => [n, airline, 'GDS-JFK-001']),
  );
  expect(new Set(restored.rows.flatMap((r) => r.billed_keys))).toEqual(whole);
  await migrateToLatest(db);
  expect(await billedKeys(db, airline, 'GDS-JFK-001', null)).toEqual(whole);
});

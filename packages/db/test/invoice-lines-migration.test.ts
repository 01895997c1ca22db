import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_11_29_0200: an invoice line carries the keys it billed first, and the posted lines live in
 * invoice_payloads only. Nothing an airline already had is lost: the billed nights of earlier invoices still make
 * a later line a duplicate (they move onto their lines), and an invoice reconciled before keeps its posted lines
 * (moved into invoice_payloads, in line order).
 */

const steps = stepwiseDatabase('invoice_migration');

it('moves the billed nights onto their lines and the posted lines into invoice_payloads', async () => {
  const { db, migrator } = steps;
  const before = await migrator.migrateTo('2026_11_29_0100_supplier_order_sightings');
  expect(before.error).toBeUndefined();

  const airline = randomUUID();
  const invoice = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  await sql`insert into invoices (invoice_id, airline_id, property_id, invoice_number, currency, status, line_count, total_billed, reconciled_at)
    values (${invoice}, ${airline}, 'GDS-JFK-001', 'INV-1', 'USD', 'RECONCILED', 2, 396, now())`.execute(db);
  const posted = [
    { line_number: 1, employee_id: 'E1', check_in_date: '2027-03-01', check_out_date: '2027-03-03', nights: 2 },
    { line_number: 2, employee_id: 'E2', check_in_date: '2027-03-05', check_out_date: '2027-03-06', nights: 1 },
  ];
  // Written in reverse: the moved payload is in line order, not in the order the rows happen to be read.
  for (const l of [...posted].reverse())
    await sql`insert into invoice_lines (invoice_id, line_number, airline_id, property_id, check_in_date, line, status,
        booking_id, billed_amount, disputed_amount, disputed_currency, findings, needs_review)
      values (${invoice}, ${l.line_number}, ${airline}, 'GDS-JFK-001', ${l.check_in_date}, ${JSON.stringify(l)}::jsonb,
        'MATCHED', null, 198, 0, 'USD', '[]'::jsonb, '[]'::jsonb)`.execute(db);
  for (const [key, line] of [
    ['b1|2027-03-02', 1],
    ['b1|2027-03-01', 1],
    ['b2|2027-03-05', 2],
  ] as const)
    await sql`insert into invoice_billed_keys (airline_id, property_id, key, invoice_id, line_number)
      values (${airline}, 'GDS-JFK-001', ${key}, ${invoice}, ${line})`.execute(db);

  expect((await migrator.migrateTo('2026_11_29_0200_invoice_lines_lean')).error).toBeUndefined();

  const lines = await sql<{ line_number: number; billed_keys: string[] }>`
    select line_number, billed_keys from invoice_lines where invoice_id = ${invoice} order by line_number`.execute(db);
  expect(lines.rows).toEqual([
    { line_number: 1, billed_keys: ['b1|2027-03-01', 'b1|2027-03-02'] },
    { line_number: 2, billed_keys: ['b2|2027-03-05'] },
  ]);
  const payload = await sql<{ lines_gz: Buffer }>`
    select lines_gz from invoice_payloads where invoice_id = ${invoice}`.execute(db);
  expect(JSON.parse(gunzipSync(payload.rows[0]!.lines_gz).toString('utf8'))).toEqual(posted);
  const gone = await sql<{ t: string | null }>`select to_regclass('invoice_billed_keys')::text as t`.execute(db);
  expect(gone.rows[0]!.t).toBeNull();

  // The foreign key, now checked per statement: a line of no invoice is refused; an invoice's delete takes its lines.
  await expect(
    sql`insert into invoice_lines (invoice_id, line_number, airline_id, property_id, check_in_date, status,
        booking_id, billed_amount, disputed_amount, disputed_currency, findings, needs_review)
      values (${randomUUID()}, 1, ${airline}, 'GDS-JFK-001', '2027-03-01', 'MATCHED', null, 1, 0, 'USD', '[]', '[]')`.execute(
      db,
    ),
  ).rejects.toMatchObject({ code: '23503' });

  // Down to the migration before it (later ones roll back first) and up again: the keys go back to their table
  // and return to the lines.
  expect((await migrator.migrateTo('2026_11_29_0100_supplier_order_sightings')).error).toBeUndefined();
  const keys = await sql<{ n: number }>`select count(*)::int as n from invoice_billed_keys`.execute(db);
  expect(keys.rows[0]!.n).toBe(3);
  expect((await migrator.migrateTo('2026_11_29_0200_invoice_lines_lean')).error).toBeUndefined();
  const again = await sql<{ n: number }>`
    select sum(jsonb_array_length(billed_keys))::int as n from invoice_lines where invoice_id = ${invoice}`.execute(db);
  expect(again.rows[0]!.n).toBe(3);
  await sql`delete from invoices where invoice_id = ${invoice}`.execute(db);
  const left = await sql<{ n: number }>`select count(*)::int as n from invoice_lines`.execute(db);
  expect(left.rows[0]!.n).toBe(0);
});

import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { migrateToLatest } from '../src/connect';
import { invoicePayload } from '../src/invoices/invoice.repository';
import { stepwiseDatabase } from './migration-steps';

/*
 * Migration 2026_11_30_0200: an invoice's lines are kept as columns beside its body, while the previous release
 * keeps working on the new schema: it stores the body alone, and such an invoice is read from its body. Down
 * drops the columns; the bodies stay.
 */

const steps = stepwiseDatabase('invoice_line_columns');

const BEFORE = '2026_11_30_0100_invoice_lines_of_their_invoice';

it('keeps the columns where given and reads the body where not; down leaves the bodies', async () => {
  const { db, migrator } = steps;
  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const airline = randomUUID();
  await sql`insert into airlines (airline_id, name, carrier_code) values (${airline}, 'Mig Air', 'MG')`.execute(db);
  const body = gzipSync('{"lines":[]}');
  const columns = gzipSync('{"line_number":[]}');
  const invoice = async (n: string) => {
    const id = randomUUID();
    await sql`insert into invoices (invoice_id, airline_id, property_id, invoice_number, currency, status, line_count, total_billed)
      values (${id}, ${airline}, 'GDS-JFK-001', ${n}, 'USD', 'RECONCILING', 0, 0)`.execute(db);
    return id;
  };
  // As the previous release stores a posted invoice: the body alone.
  const previous = async (n: string) => {
    const id = await invoice(n);
    await sql`insert into invoice_payloads (invoice_id, lines_gz) values (${id}, ${body})`.execute(db);
    return id;
  };
  const before = await previous('INV-1');

  await migrateToLatest(db);
  const during = await previous('INV-2');
  const now = await invoice('INV-3');
  await sql`insert into invoice_payloads (invoice_id, lines_gz, lines_columns_gz) values (${now}, ${body}, ${columns})`.execute(
    db,
  );
  expect(await invoicePayload(db, before)).toEqual({ posted_gz: body });
  expect(await invoicePayload(db, during)).toEqual({ posted_gz: body });
  expect(await invoicePayload(db, now)).toEqual({ columns_gz: columns });

  expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  const kept = await sql<{
    n: number;
  }>`select count(*)::int as n from invoice_payloads where lines_gz = ${body}`.execute(db);
  expect(kept.rows[0]!.n).toBe(3);
  const columnsLeft = await sql`select 1 from information_schema.columns
    where table_name = 'invoice_payloads' and column_name = 'lines_columns_gz'`.execute(db);
  expect(columnsLeft.rows).toEqual([]);
  await migrateToLatest(db);
});

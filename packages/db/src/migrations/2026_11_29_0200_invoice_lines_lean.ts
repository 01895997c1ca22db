import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Reconciling 100,000 lines wrote three times the rows it needed and checked each line against its invoice:
// - a line carries the nights it billed first (billed_keys) instead of a row per night in a table of its own;
// - the posted lines stay in invoice_payloads (compressed, one row per invoice) instead of a copy on every line
//   row; invoices reconciled before keep theirs, moved into invoice_payloads here;
// - the lines' foreign key to their invoice is checked once per statement (the functions of 2026_11_24_0120);
// - the spend report's index holds the disputed lines by date instead of every line by booking.
const gzipAsync = promisify(gzip);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table invoice_lines add column if not exists billed_keys jsonb not null default '[]'::jsonb`.execute(
    db,
  );
  const hasKeys = await sql<{ t: string | null }>`select to_regclass('invoice_billed_keys')::text as t`.execute(db);
  if (hasKeys.rows[0]?.t) {
    await sql`
      update invoice_lines l set billed_keys = k.keys
      from (select invoice_id, line_number, jsonb_agg(key order by key) as keys
            from invoice_billed_keys group by invoice_id, line_number) k
      where l.invoice_id = k.invoice_id and l.line_number = k.line_number`.execute(db);
  }
  const hasLine = await sql<{ n: number }>`
    select count(*)::int as n from information_schema.columns
    where table_schema = current_schema() and table_name = 'invoice_lines' and column_name = 'line'`.execute(db);
  if ((hasLine.rows[0]?.n ?? 0) > 0) {
    const reconciled = await sql<{ invoice_id: string }>`
      select i.invoice_id from invoices i
      where not exists (select 1 from invoice_payloads p where p.invoice_id = i.invoice_id)`.execute(db);
    for (const { invoice_id } of reconciled.rows) {
      const lines = await sql<{ lines: unknown[] | null }>`
        select json_agg(line order by line_number) as lines from invoice_lines where invoice_id = ${invoice_id}`.execute(
        db,
      );
      const gz = await gzipAsync(Buffer.from(JSON.stringify(lines.rows[0]?.lines ?? []), 'utf8'));
      await sql`insert into invoice_payloads (invoice_id, lines_gz) values (${invoice_id}, ${gz})`.execute(db);
    }
    await sql`alter table invoice_lines drop column line`.execute(db);
  }
  await sql`drop table if exists invoice_billed_keys`.execute(db);

  // The spend report reads disputed lines by date: an index of those alone, instead of every line by booking.
  await sql`drop index if exists invoice_lines_booking_idx`.execute(db);
  await sql`create index if not exists invoice_lines_disputed_idx on invoice_lines (airline_id, check_in_date)
    where disputed_amount > 0`.execute(db);

  await sql`alter table invoice_lines drop constraint if exists invoice_lines_invoice_id_fkey`.execute(db);
  await sql`create trigger invoice_lines_invoice_id_fk_insert after insert on invoice_lines
    referencing new table as new_rows
    for each statement execute function crew_fk_check_statement('invoices', 'invoice_id', 'invoice_id')`.execute(db);
  await sql`create trigger invoice_lines_invoice_id_fk_update before update of invoice_id on invoice_lines
    for each row when (new.invoice_id is distinct from old.invoice_id)
    execute function crew_fk_check_row('invoices', 'invoice_id', 'invoice_id')`.execute(db);
  await sql`create trigger invoices_invoice_lines_invoice_id_cascade after delete on invoices
    referencing old table as old_rows
    for each statement execute function crew_fk_cascade_delete('invoice_lines', 'invoice_id', 'invoice_id')`.execute(
    db,
  );
  await sql`create trigger invoices_invoice_lines_invoice_id_restrict before update of invoice_id on invoices
    for each row when (new.invoice_id is distinct from old.invoice_id)
    execute function crew_fk_restrict_key_update('invoice_lines', 'invoice_id', 'invoice_id')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists invoice_lines_disputed_idx`.execute(db);
  await sql`create index if not exists invoice_lines_booking_idx on invoice_lines (airline_id, booking_id)
    where booking_id is not null`.execute(db);
  await sql`drop trigger if exists invoice_lines_invoice_id_fk_insert on invoice_lines`.execute(db);
  await sql`drop trigger if exists invoice_lines_invoice_id_fk_update on invoice_lines`.execute(db);
  await sql`drop trigger if exists invoices_invoice_lines_invoice_id_cascade on invoices`.execute(db);
  await sql`drop trigger if exists invoices_invoice_lines_invoice_id_restrict on invoices`.execute(db);
  await sql`alter table invoice_lines add constraint invoice_lines_invoice_id_fkey foreign key (invoice_id)
    references invoices (invoice_id) on delete cascade`.execute(db);
  await sql`
    create table if not exists invoice_billed_keys (
      airline_id uuid not null references airlines (airline_id) on delete cascade,
      property_id text not null,
      key text not null,
      invoice_id uuid not null references invoices (invoice_id) on delete cascade,
      line_number integer not null,
      primary key (airline_id, property_id, key)
    )`.execute(db);
  await sql`
    insert into invoice_billed_keys (airline_id, property_id, key, invoice_id, line_number)
    select l.airline_id, l.property_id, k.key, l.invoice_id, l.line_number
    from invoice_lines l cross join lateral jsonb_array_elements_text(l.billed_keys) as k(key)
    on conflict do nothing`.execute(db);
  await sql`alter table invoice_lines drop column if exists billed_keys`.execute(db);
  // The posted lines stay in invoice_payloads: the line column comes back empty ('{}') rather than guessed.
  await sql`alter table invoice_lines add column if not exists line jsonb not null default '{}'::jsonb`.execute(db);
}

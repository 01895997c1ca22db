import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An invoice line is written 100,000 times per big batch; a third of its bytes said what its invoice or its own
// booking already says:
// - airline_id and property_id are the invoice's (a line is only ever read through its invoice);
// - a billed key of the line's own booking (`<booking_id>|<night>`, `<booking_id>|NO_SHOW`) is kept without the
//   booking id, which the line's booking_id holds; a guest's key (`?|…`, a line with no booking) stays whole.
// The spend report's index of disputed lines is keyed by invoice and date instead of airline and date.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update invoice_lines l set billed_keys = (
      select coalesce(jsonb_agg(
               case when k.key like l.booking_id::text || '|%' then substr(k.key, length(l.booking_id::text) + 2)
                    else k.key end order by k.ord), '[]'::jsonb)
        from jsonb_array_elements_text(l.billed_keys) with ordinality as k(key, ord))
     where l.booking_id is not null and l.billed_keys <> '[]'::jsonb`.execute(db);
  await sql`drop index if exists invoice_lines_disputed_idx`.execute(db);
  await sql`alter table invoice_lines drop column if exists airline_id, drop column if exists property_id`.execute(db);
  await sql`create index if not exists invoice_lines_disputed_idx on invoice_lines (invoice_id, check_in_date)
    where disputed_amount > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists invoice_lines_disputed_idx`.execute(db);
  await sql`alter table invoice_lines add column if not exists airline_id uuid, add column if not exists property_id text`.execute(
    db,
  );
  await sql`update invoice_lines l set airline_id = i.airline_id, property_id = i.property_id
    from invoices i where i.invoice_id = l.invoice_id`.execute(db);
  await sql`alter table invoice_lines alter column airline_id set not null, alter column property_id set not null`.execute(
    db,
  );
  await sql`
    update invoice_lines l set billed_keys = (
      select jsonb_agg(l.booking_id::text || '|' || k.key order by k.ord)
        from jsonb_array_elements_text(l.billed_keys) with ordinality as k(key, ord))
     where l.booking_id is not null and l.billed_keys <> '[]'::jsonb`.execute(db);
  await sql`create index if not exists invoice_lines_disputed_idx on invoice_lines (airline_id, check_in_date)
    where disputed_amount > 0`.execute(db);
}

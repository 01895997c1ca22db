import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An invoice line is written 100,000 times per big batch; a third of its bytes said what its invoice or its own
// booking already says. From this release a line is written:
// - without airline_id and property_id (its invoice's): the columns become nullable, so the previous release,
//   which still writes them, keeps working; the spend report reads disputed lines through the airline's invoices,
//   by a new index of them by invoice and date (the old one by airline and date stays for the previous release);
// - with the billed keys of its own booking without the booking id (`2027-03-05`, `NO_SHOW`), which booking_id
//   holds. A key without '|' is one of those; a whole key (`<booking_id>|…`, a guest's `?|…`) is read as it is,
//   so the keys already stored, and those the previous release writes during the rollout, need no rewrite.
// A later release drops the two columns and the old index once no release writes or reads them.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table invoice_lines alter column airline_id drop not null, alter column property_id drop not null`.execute(
    db,
  );
  await sql`create index if not exists invoice_lines_invoice_disputed_idx on invoice_lines (invoice_id, check_in_date)
    where disputed_amount > 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists invoice_lines_invoice_disputed_idx`.execute(db);
  await sql`update invoice_lines l set airline_id = i.airline_id, property_id = i.property_id
    from invoices i where i.invoice_id = l.invoice_id and (l.airline_id is null or l.property_id is null)`.execute(db);
  await sql`alter table invoice_lines alter column airline_id set not null, alter column property_id set not null`.execute(
    db,
  );
  // The previous release reads whole keys only.
  await sql`
    update invoice_lines l set billed_keys = (
      select jsonb_agg(case when position('|' in k.key) > 0 then k.key else l.booking_id::text || '|' || k.key end
                       order by k.ord)
        from jsonb_array_elements_text(l.billed_keys) with ordinality as k(key, ord))
     where l.booking_id is not null and l.billed_keys <> '[]'::jsonb`.execute(db);
}

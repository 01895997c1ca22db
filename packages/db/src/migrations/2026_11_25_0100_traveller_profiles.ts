import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Traveller profiles the airline keeps (PUT /api/v1/crew/travellers/{employee_id}): the personal fields (date of
// birth, gender, title, phone, identity document) are stored as one text the services seal with their keyring
// (the owner is the airline), never in plain. `has_date_of_birth` is the one non-secret fact readers may need
// without opening it. Rows with a plain `date_of_birth` from before stay readable; a write moves it into the
// sealed text. The audit names who changed which fields and when, never the values.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table travellers add column if not exists personal_sealed text, add column if not exists has_date_of_birth boolean not null default false`.execute(
    db,
  );
  await sql`update travellers set has_date_of_birth = true where date_of_birth is not null`.execute(db);
  // The airline's API finds a profile by employee_id (the roster's crew anchor), not by e-mail.
  await sql`create index if not exists travellers_employee_ix on travellers (airline_id, employee_id) where employee_id is not null`.execute(
    db,
  );
  await sql`create table if not exists traveller_audit (
    audit_id bigint generated always as identity primary key,
    airline_id uuid not null references airlines (airline_id) on delete cascade,
    traveller_email text not null,
    employee_id text collate "C",
    actor text not null,
    action text not null,
    fields text[] not null,
    at timestamptz not null default now()
  )`.execute(db);
  await sql`create index if not exists traveller_audit_employee_ix on traveller_audit (airline_id, employee_id, audit_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists traveller_audit`.execute(db);
  await sql`drop index if exists travellers_employee_ix`.execute(db);
  await sql`alter table travellers drop column if exists personal_sealed, drop column if exists has_date_of_birth`.execute(
    db,
  );
}

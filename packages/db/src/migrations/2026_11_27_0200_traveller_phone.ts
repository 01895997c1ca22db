import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A traveller's phone (E.164): a hotel supplier that reaches the guest (Duffel Stays) needs one to book.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table travellers add column if not exists phone_number text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table travellers drop column if exists phone_number`.execute(db);
}

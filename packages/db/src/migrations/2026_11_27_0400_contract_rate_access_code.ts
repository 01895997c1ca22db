import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A hotel contract's negotiated-rate access code (optional): bookings under the contract ask the supplier for
// the negotiated rates it names.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table hotel_contracts add column if not exists rate_access_code text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table hotel_contracts drop column if exists rate_access_code`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The worker purges refresh tokens of families that expired more than a day ago, oldest expiry first, a batch
// every 30 seconds: this index finds them without reading the whole table (the family check uses
// refresh_tokens_family_ix).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists refresh_tokens_expires_ix on refresh_tokens (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists refresh_tokens_expires_ix`.execute(db);
}

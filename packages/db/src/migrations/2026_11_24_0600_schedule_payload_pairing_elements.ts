import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Issue 12: where each element of a stored roster's pairings array lies in its bytes, and a hash of each, found
// by the api while it compresses the roster (pairing-elements.ts): a resubmission parses only the pairings it
// diffs. Null for a roster stored before, or whose pairings were not found: the worker then scans it itself.
// Hashes do not compress: stored as they are.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table schedule_payloads add column if not exists pairing_elements bytea`.execute(db);
  await sql`alter table schedule_payloads alter column pairing_elements set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table schedule_payloads drop column if exists pairing_elements`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// What lets a resubmission diff only the pairings that changed: per pairing_number, the content the
// last diff saw, a fingerprint of its bookings once that diff's writes were in, and whether it settled; with
// the window and cancellation cut-off it ran with. Gzipped JSON; null when the last diff left none.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table roster_states add column diff_basis_gzip bytea`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table roster_states drop column diff_basis_gzip`.execute(db);
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// What lets a byte-identical resubmission skip the diff: the stored body's SHA-256 of the roster
// whose state this is, and, when re-diffing that roster against the state just written would derive
// nothing, a fingerprint of the airline's bookings in its window and its travellers at that moment, the
// cancellation cut-off it was judged with, and how many audit events the roster produced.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table roster_states
    add column body_sha256 text,
    add column settled_fingerprint text,
    add column settled_cutoff date,
    add column audit_events integer`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table roster_states drop column body_sha256, drop column settled_fingerprint, drop column settled_cutoff, drop column audit_events`.execute(
    db,
  );
}

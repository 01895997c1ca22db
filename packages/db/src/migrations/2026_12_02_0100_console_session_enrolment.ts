import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The authenticator secret being enrolled belongs to the session that was shown it (sealed, as on console_users),
// not to the person: another session of theirs (one opened with a leaked password) is shown a secret of its own
// and cannot have the person enable one it has seen. Nullable: the previous release keeps its pending secret on
// console_users during the rollout; an enrolment begun on one release and finished on the other asks for the
// code of a new secret.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table console_sessions add column if not exists totp_pending_sealed text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table console_sessions drop column if exists totp_pending_sealed`.execute(db);
}

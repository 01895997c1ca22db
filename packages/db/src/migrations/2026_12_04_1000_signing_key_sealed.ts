import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The auth service's private signing keys are sealed at rest (AES-256-GCM under SUPPLIER_CREDENTIALS_KEY, bound to
// the kid) in a new column. The plain column stays for the release before, whose pods read the active key from it
// during a rollout: it may now be null (keys made from this release on are sealed only; a key loses its plain copy
// once it is no longer active). A later release drops it.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table signing_keys add column if not exists private_jwk_sealed text`.execute(db);
  await sql`alter table signing_keys alter column private_jwk drop not null`.execute(db);
}

// Keys made sealed only have no plain copy to give back: down keeps private_jwk nullable.
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table signing_keys drop column if exists private_jwk_sealed`.execute(db);
}

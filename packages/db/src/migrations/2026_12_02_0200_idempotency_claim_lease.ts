import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// An Idempotency-Key's claim has a lease (claimed_at): a claim left unanswered by a process that died is taken
// over by a retry once its lease is over, instead of holding the key for 24 h. Existing rows get the time of this
// migration, so a claim already stuck is freed a lease later. The previous release writes no claimed_at: the
// default stamps its claims too. The index serves the worker's purge of keys older than 24 h.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table idempotency_keys add column if not exists claimed_at timestamptz not null default now()`.execute(
    db,
  );
  await sql`create index if not exists idempotency_keys_created_ix on idempotency_keys (created_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists idempotency_keys_created_ix`.execute(db);
  await sql`alter table idempotency_keys drop column if exists claimed_at`.execute(db);
}

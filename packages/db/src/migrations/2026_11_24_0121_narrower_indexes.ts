import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Index entries a big roster's 160k action items and bookings pay for and no query reads.
// - action_items.seq's own unique index: every query ordering by seq filters by schedule_id or airline_id
//   ((schedule_id, seq) and (airline_id, seq) serve them), and a bigserial is unique by construction.
// - bookings_retry_job_ix only on bookings a retry job holds: its queries look a booking up by a given
//   retry_job_id (an equality, which implies not null), while every booking the diff creates has none.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table action_items drop constraint if exists action_items_seq_key`.execute(db);
  await sql`drop index if exists bookings_retry_job_ix`.execute(db);
  await sql`create index bookings_retry_job_ix on bookings (retry_job_id) where retry_job_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists bookings_retry_job_ix`.execute(db);
  await sql`create index bookings_retry_job_ix on bookings (retry_job_id)`.execute(db);
  await sql`alter table action_items add constraint action_items_seq_key unique (seq)`.execute(db);
}

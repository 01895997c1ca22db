import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The outbox is relayed in lane order, then in the order written: a P1 booking task (or a roster's schedule job,
// lane 0) written behind a big roster's 40k booking tasks reaches BullMQ with the next batch instead of after all
// of them (about 2 s of relaying on a quiet machine). Rows written before this column have lane 0.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table outbox add column if not exists lane smallint not null default 0`.execute(db);
  await sql`create index if not exists outbox_lane_ix on outbox (lane, id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists outbox_lane_ix`.execute(db);
  await sql`alter table outbox drop column if exists lane`.execute(db);
}

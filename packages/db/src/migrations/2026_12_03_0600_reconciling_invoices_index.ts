import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The worker looks every 30 seconds for invoices still RECONCILING long after they were posted (their job lost with
// Redis, or failed without its failure recorded): those alone, by when they were posted, not every invoice.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists invoices_reconciling_idx on invoices (created_at) where status = 'RECONCILING'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists invoices_reconciling_idx`.execute(db);
}

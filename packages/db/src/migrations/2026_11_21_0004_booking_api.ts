import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
export async function up(db: Kysely<any>): Promise<void> {
  // Idempotency-Key (DESIGN section 6): per airline and endpoint, kept 24 h.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['airline_id', 'endpoint', 'key'])
    .execute();

  await db.schema
    .createTable('retry_jobs')
    .addColumn('retry_job_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('filters', 'jsonb', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.alterTable('bookings').addColumn('retry_job_id', 'uuid').execute();
  // Names the supplier task a PENDING booking waits for; a job for any other task is stale and does nothing.
  await db.schema.alterTable('bookings').addColumn('task_ref', 'text').execute();
  await db.schema.alterTable('bookings').addColumn('seq', 'bigserial').execute();
  await db.schema.createIndex('bookings_airline_seq_ix').on('bookings').columns(['airline_id', 'seq']).execute();
  await db.schema.createIndex('bookings_retry_job_ix').on('bookings').column('retry_job_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('bookings').dropColumn('seq').execute();
  await db.schema.alterTable('bookings').dropColumn('task_ref').execute();
  await db.schema.alterTable('bookings').dropColumn('retry_job_id').execute();
  await db.schema.dropTable('retry_jobs').ifExists().execute();
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Outbound webhooks: an airline's endpoints, the events written in the transaction of the change
// that causes them, and one delivery per (endpoint, event) that the worker sends in event order.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('endpoint_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('event_types', sql`text[]`, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    // AES-256-GCM ciphertexts of the signing secrets; the previous one signs too until its grace period ends.
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('previous_secret_enc', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    // Set at the first failure of an unbroken run of failures, cleared by a success.
    .addColumn('failing_since', 'timestamptz')
    .addColumn('disabled_reason', 'text')
    // One drainer at a time per endpoint (per-endpoint concurrency 1); a dead drainer's lease runs out.
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_airline')
    .on('webhook_endpoints')
    .columns(['airline_id', 'seq'])
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('urgent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('delivery_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('endpoint_id', 'uuid', (c) =>
      c.notNull().references('webhook_endpoints.endpoint_id').onDelete('cascade'),
    )
    .addColumn('event_id', 'uuid', (c) => c.notNull().references('webhook_events.event_id').onDelete('cascade'))
    .addColumn('event_seq', 'bigint', (c) => c.notNull())
    // A P1 booking's event: its endpoint's drain takes it before bulk ones, and the drain job runs first.
    .addColumn('urgent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status in ('PENDING', 'SUCCEEDED', 'FAILED')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt_log', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_response_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index webhook_deliveries_pending on webhook_deliveries (endpoint_id, urgent desc, event_seq) where status = 'PENDING'`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['webhook_deliveries', 'webhook_events', 'webhook_endpoints'])
    await db.schema.dropTable(t).ifExists().execute();
}

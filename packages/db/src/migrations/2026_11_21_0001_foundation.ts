import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('airlines')
    .addColumn('airline_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('carrier_code', 'char(2)', (c) => c.notNull())
    .addColumn('schedules_access', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('deadhead_auto_booking', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('booking_modification', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('swap_execution', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancellation_execution', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rate_match_mode', 'text', (c) =>
      c
        .notNull()
        .defaultTo('STRICT')
        .check(sql`rate_match_mode in ('STRICT','LOOSE')`),
    )
    .addColumn('emit_unchanged', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('max_retries', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(3)
        .check(sql`max_retries >= 0`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('users_airline_email_uq', ['airline_id', 'email'])
    .execute();

  await db.schema
    .createTable('travellers')
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('traveller_email', 'text', (c) => c.notNull())
    .addColumn('employee_id', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('name', 'text')
    .addColumn('date_of_birth', 'date')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('travellers_pk', ['airline_id', 'traveller_email'])
    .execute();

  await db.schema
    .createTable('company_configs')
    .addColumn('airline_id', 'uuid', (c) => c.primaryKey().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('crew_booker_email', 'text')
    .addColumn('cancellation_lookback_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`cancellation_lookback_days >= 0`),
    )
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.user_id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('refresh_token_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.client_id').onDelete('cascade'))
    .addColumn('family_id', 'uuid', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('refresh_tokens_family_ix').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('public_jwk', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active','previous','retired')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .execute();
  // At most one active key, whatever the number of auth replicas racing to create it.
  await sql`create unique index signing_keys_one_active on signing_keys ((true)) where status = 'active'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'signing_keys',
    'refresh_tokens',
    'oauth_clients',
    'company_configs',
    'travellers',
    'users',
    'airlines',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

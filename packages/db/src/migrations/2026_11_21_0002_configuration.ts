import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
export async function up(db: Kysely<any>): Promise<void> {
  // One row per hotel an airline has ever configured at a base; the id is stable across versions.
  await db.schema
    .createTable('hotel_configs')
    .addColumn('hotel_config_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('base_station', 'char(3)', (c) => c.notNull())
    .addColumn('property_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('handler_type', 'text', (c) => c.notNull().check(sql`handler_type in ('GDS','DIRECT')`))
    .addColumn('terms', 'jsonb', (c) => c.notNull())
    .addColumn('legacy_rate_periods', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('in_current', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('hotel_configs_airline_base_property_uq', ['airline_id', 'base_station', 'property_id'])
    .execute();

  await db.schema
    .createTable('hotel_config_versions')
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('snapshot', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('hotel_config_versions_pk', ['airline_id', 'version'])
    .execute();

  await db.schema
    .createTable('flight_config_versions')
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('snapshot', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('flight_config_versions_pk', ['airline_id', 'version'])
    .execute();

  await db.schema
    .createTable('flight_rules')
    .addColumn('airline_id', 'uuid', (c) => c.primaryKey().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('auto_book_max_price', 'jsonb')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('hotel_contracts')
    .addColumn('contract_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('hotel_config_id', 'bigint', (c) =>
      c.notNull().references('hotel_configs.hotel_config_id').onDelete('cascade'),
    )
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('contract_number', 'text', (c) => c.notNull())
    .addColumn('contract_from', 'date', (c) => c.notNull())
    .addColumn('contract_to', 'date', (c) => c.notNull())
    .addColumn('automated_booking_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('rate_periods', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('hotel_contracts_dates_ck', sql`contract_to >= contract_from`)
    .execute();
  await db.schema.createIndex('hotel_contracts_hotel_ix').on('hotel_contracts').column('hotel_config_id').execute();

  await db.schema
    .createTable('hotel_change_requests')
    .addColumn('request_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('hotel_config_id', 'bigint', (c) => c.notNull())
    .addColumn('contract_id', 'bigint', (c) =>
      c.notNull().references('hotel_contracts.contract_id').onDelete('cascade'),
    )
    .addColumn('intent', 'text', (c) => c.notNull().check(sql`intent in ('ENABLE','DISABLE','DELETE')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('OPEN','APPROVED','DECLINED','WITHDRAWN')`))
    .addColumn('hotel_name', 'text')
    .addColumn('station', 'text', (c) => c.notNull())
    .addColumn('contract_number', 'text', (c) => c.notNull())
    .addColumn('contract_from', 'date', (c) => c.notNull())
    .addColumn('contract_to', 'date', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('decided_by', 'text')
    .addColumn('decided_on', 'timestamptz')
    .addColumn('decision_note', 'text')
    .execute();
  // One OPEN request per contract, even under concurrent raises.
  await sql`create unique index hotel_change_requests_one_open on hotel_change_requests (contract_id) where status = 'OPEN'`.execute(
    db,
  );
  await db.schema
    .createIndex('hotel_change_requests_airline_ix')
    .on('hotel_change_requests')
    .columns(['airline_id', 'request_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'hotel_change_requests',
    'hotel_contracts',
    'flight_rules',
    'flight_config_versions',
    'hotel_config_versions',
    'hotel_configs',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

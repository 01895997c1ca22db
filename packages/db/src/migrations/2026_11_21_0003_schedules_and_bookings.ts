import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('schedule_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('external_ref', 'text')
    .addColumn('as_of', 'timestamptz')
    .addColumn('schedule_start_date', 'date', (c) => c.notNull())
    .addColumn('schedule_end_date', 'date', (c) => c.notNull())
    .addColumn('pairing_count', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('QUEUED','PROCESSING','BOOKING','COMPLETED','FAILED','PARTIAL')`),
    )
    .addColumn('error', 'text')
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('schedules_airline_seq_ix').on('schedules').columns(['airline_id', 'seq']).execute();
  await sql`create index schedules_airline_open_ix on schedules (airline_id, seq) where status in ('QUEUED','PROCESSING')`.execute(
    db,
  );

  // The roster as received (gzip of the JSON body), apart from the small schedule rows.
  await db.schema
    .createTable('schedule_payloads')
    .addColumn('schedule_id', 'uuid', (c) => c.primaryKey().references('schedules.schedule_id').onDelete('cascade'))
    .addColumn('body_gzip', 'bytea', (c) => c.notNull())
    .execute();
  // Already compressed: skip TOAST compression.
  await sql`alter table schedule_payloads alter column body_gzip set storage external`.execute(db);

  // What the next diff of an airline compares with (engine RosterState, gzip JSON).
  await db.schema
    .createTable('roster_states')
    .addColumn('airline_id', 'uuid', (c) => c.primaryKey().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('schedule_id', 'uuid', (c) => c.notNull())
    .addColumn('state_gzip', 'bytea', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table roster_states alter column state_gzip set storage external`.execute(db);

  await db.schema
    .createTable('bookings')
    .addColumn('booking_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('HOTEL','FLIGHT')`))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('PENDING','CONFIRMED','MODIFIED','CANCELLED','FAILED','NEEDS_REVIEW')`),
    )
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('SCHEDULE_DIFF','AIRLINE_INJECTED','IROP')`))
    .addColumn('manual_override', 'boolean', (c) => c.notNull().defaultTo(false))
    // The roster dropped it and its cancellation awaits review: the diff treats it as cancelled.
    .addColumn('pending_cancel', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('config_version_used', 'text')
    .addColumn('retry_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('schedule_id', 'uuid')
    .addColumn('action_id', 'uuid')
    .addColumn('employee_id', 'text')
    .addColumn('pairing_number', 'text')
    .addColumn('duty_date', 'date')
    .addColumn('duty_period_num', 'integer')
    .addColumn('leg_sequence', 'integer')
    .addColumn('flight_number', 'text')
    .addColumn('irop_ref', 'text')
    .addColumn('traveller_email', 'text')
    .addColumn('traveller_name', 'text')
    // The stay or leg the roster (or the airline) asks for.
    .addColumn('station', 'text')
    .addColumn('checkin_time_local', 'text')
    .addColumn('checkout_time_local', 'text')
    .addColumn('from_airport', 'text')
    .addColumn('to_airport', 'text')
    .addColumn('dep_time_local', 'text')
    .addColumn('arr_time_local', 'text')
    // What the supplier holds (confirmation, property, price, PNR, ticket, …).
    .addColumn('hotel', 'jsonb')
    .addColumn('flight', 'jsonb')
    .addColumn('booked_by', 'text')
    .addColumn('review_reason', 'text')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('bookings_airline_type_date_ix')
    .on('bookings')
    .columns(['airline_id', 'type', 'duty_date'])
    .execute();
  await db.schema.createIndex('bookings_schedule_ix').on('bookings').column('schedule_id').execute();
  await db.schema
    .createIndex('bookings_airline_employee_ix')
    .on('bookings')
    .columns(['airline_id', 'employee_id'])
    .execute();
  await db.schema
    .createIndex('bookings_airline_pairing_ix')
    .on('bookings')
    .columns(['airline_id', 'pairing_number'])
    .execute();
  await sql`create index bookings_retry_ix on bookings (next_attempt_at) where status = 'FAILED' and next_attempt_at is not null`.execute(
    db,
  );

  await db.schema
    .createTable('booking_events')
    .addColumn('event_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.booking_id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('reason', 'text')
    .addColumn('actor', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('booking_events_booking_ix')
    .on('booking_events')
    .columns(['booking_id', 'event_id'])
    .execute();

  await db.schema
    .createTable('action_items')
    .addColumn('action_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('schedule_id', 'uuid', (c) => c.references('schedules.schedule_id').onDelete('cascade'))
    .addColumn('item_key', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subtype', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('disposition', 'text')
    .addColumn('auto_eligible', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('anchors', 'jsonb', (c) => c.notNull())
    .addColumn('source_rows', 'jsonb', (c) => c.notNull())
    .addColumn('booking_id', 'uuid')
    .addColumn('flight_options_url', 'text')
    .addColumn('recommended_action', 'text')
    .addColumn('message', 'text')
    .addColumn('notes', 'text')
    .addColumn('irop_ref', 'text')
    .addColumn('event_at', 'timestamptz')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('disposition_at', 'timestamptz')
    .execute();
  await sql`create unique index action_items_schedule_key_uq on action_items (schedule_id, item_key) where schedule_id is not null`.execute(
    db,
  );
  await db.schema
    .createIndex('action_items_schedule_seq_ix')
    .on('action_items')
    .columns(['schedule_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('action_items_airline_seq_ix')
    .on('action_items')
    .columns(['airline_id', 'seq'])
    .execute();
  await db.schema.createIndex('action_items_booking_ix').on('action_items').column('booking_id').execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('event_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('schedule_id', 'uuid', (c) => c.notNull().references('schedules.schedule_id').onDelete('cascade'))
    .addColumn('event_key', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('anchors', 'jsonb', (c) => c.notNull())
    .addColumn('source_rows', 'jsonb', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('audit_events_schedule_key_uq', ['schedule_id', 'event_key'])
    .execute();
  await db.schema
    .createIndex('audit_events_schedule_seq_ix')
    .on('audit_events')
    .columns(['schedule_id', 'seq'])
    .execute();

  // Transactional outbox: jobs written with the data they act on, relayed to BullMQ when Redis answers.
  await db.schema
    .createTable('outbox')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('delay_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'outbox',
    'audit_events',
    'action_items',
    'booking_events',
    'bookings',
    'roster_states',
    'schedule_payloads',
    'schedules',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

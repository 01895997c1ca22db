import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
export async function up(db: Kysely<any>): Promise<void> {
  // Where a DIRECT hotel's rooming lists go (required for a DIRECT stay to be booked).
  await db.schema.alterTable('hotel_configs').addColumn('reservations_email', 'text').execute();

  // One version of one night's rooming list of one hotel: every version sent, opened and answered is kept.
  await db.schema
    .createTable('rooming_lists')
    .addColumn('list_id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('seq', 'bigserial', (c) => c.notNull().unique())
    .addColumn('airline_id', 'uuid', (c) => c.notNull().references('airlines.airline_id').onDelete('cascade'))
    .addColumn('hotel_config_id', 'bigint', (c) => c.notNull().references('hotel_configs.hotel_config_id'))
    .addColumn('night', 'date', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    // QUEUED (waiting to be sent: its due time, or the SMTP server), SENDING (claimed by a worker until next_attempt_at), SENT, ANSWERED, EXPIRED.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('due_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull())
    .addColumn('send_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sends', 'integer', (c) => c.notNull().defaultTo(0))
    // The operator asked for the same version to be e-mailed again (same rows, same references).
    .addColumn('resend_requested', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_error', 'text')
    .addColumn('message_id', 'text')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('opened_at', 'timestamptz')
    .addColumn('answered_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('rooming_lists_version_uq', ['hotel_config_id', 'night', 'version'])
    .execute();
  await db.schema
    .createIndex('rooming_lists_hotel_seq_ix')
    .on('rooming_lists')
    .columns(['hotel_config_id', 'seq'])
    .execute();
  await sql`create index rooming_lists_due_ix on rooming_lists (next_attempt_at) where status in ('QUEUED', 'SENDING') or resend_requested`.execute(
    db,
  );
  await sql`create index rooming_lists_expiry_ix on rooming_lists (expires_at) where status = 'SENT'`.execute(db);

  // A row: one stay's change on one list version. row_ref is the stay's reference at the hotel (same in every version).
  await db.schema
    .createTable('rooming_rows')
    .addColumn('row_id', 'bigserial', (c) => c.primaryKey())
    .addColumn('list_id', 'uuid', (c) => c.notNull().references('rooming_lists.list_id').onDelete('cascade'))
    .addColumn('booking_id', 'uuid', (c) => c.notNull().references('bookings.booking_id').onDelete('cascade'))
    .addColumn('task_ref', 'text')
    .addColumn('row_ref', 'text', (c) => c.notNull())
    .addColumn('marking', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('priority', 'text')
    .addColumn('send_at', 'timestamptz', (c) => c.notNull())
    .addColumn('crew_name', 'text')
    .addColumn('rank', 'text')
    .addColumn('employee_id', 'text')
    .addColumn('pairing_number', 'text')
    .addColumn('checkin_time_local', 'text', (c) => c.notNull())
    .addColumn('checkout_time_local', 'text', (c) => c.notNull())
    .addColumn('hotel_confirmation_number', 'text')
    .addColumn('reject_reason', 'text')
    .addColumn('answered_at', 'timestamptz')
    .addUniqueConstraint('rooming_rows_list_booking_uq', ['list_id', 'booking_id'])
    .execute();
  await db.schema.createIndex('rooming_rows_booking_ix').on('rooming_rows').columns(['booking_id', 'row_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rooming_rows').ifExists().execute();
  await db.schema.dropTable('rooming_lists').ifExists().execute();
  await db.schema.alterTable('hotel_configs').dropColumn('reservations_email').execute();
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The operator's exchange rates against the pivot currency (USD): one row per currency and the date the
// rate holds from. Rows are kept, so "the rate of a date" stays what it was when a later rate is set.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('fx_rates')
    .addColumn('currency', 'char(3)', (c) => c.notNull().check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('as_of', 'date', (c) => c.notNull())
    .addColumn('rate', 'numeric', (c) => c.notNull().check(sql`rate > 0`))
    .addColumn('set_by', 'text')
    .addColumn('set_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('fx_rates_pk', ['currency', 'as_of'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fx_rates').ifExists().execute();
}

import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The airline's fare-conditions rule: ANY (the default, the rule off), REFUNDABLE or CHANGEABLE only.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table flight_rules add column if not exists fare_conditions text not null default 'ANY'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table flight_rules drop column if exists fare_conditions`.execute(db);
}

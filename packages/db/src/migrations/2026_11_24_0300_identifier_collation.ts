import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// The identifier columns in the indexes a big roster's rows go through (employee and pairing numbers,
// item keys, booking and item types) compare byte-wise (collation "C") instead of through the locale's strcoll:
// each of a roster's 160k bookings and items descends several such indexes. Identifiers have no linguistic
// order; under C.UTF-8 the order is the same, under a language locale it becomes code-point order. Every
// column compared with another (bookings ↔ rostered rows ↔ rooming rows ↔ travellers) changes together:
// Postgres refuses to compare two different column collations.
const COLUMNS: [table: string, column: string][] = [
  ['bookings', 'employee_id'],
  ['bookings', 'pairing_number'],
  ['bookings', 'type'],
  ['action_items', 'type'],
  ['action_items', 'item_key'],
  ['rostered_layovers', 'employee_id'],
  ['rostered_layovers', 'pairing_number'],
  ['rostered_deadheads', 'employee_id'],
  ['rostered_deadheads', 'pairing_number'],
  ['rooming_rows', 'employee_id'],
  ['rooming_rows', 'pairing_number'],
  ['travellers', 'employee_id'],
];

async function setCollation(db: Kysely<any>, collation: string): Promise<void> {
  const byTable = new Map<string, string[]>();
  for (const [table, column] of COLUMNS) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  for (const [table, columns] of byTable)
    await sql
      .raw(`alter table ${table} ${columns.map((c) => `alter column ${c} type text collate ${collation}`).join(', ')}`)
      .execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await setCollation(db, '"C"');
}

export async function down(db: Kysely<any>): Promise<void> {
  await setCollation(db, '"default"');
}

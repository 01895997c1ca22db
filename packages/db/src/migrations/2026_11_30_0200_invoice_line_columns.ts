import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// Beside the invoice body as posted, the api keeps its lines as the reconciliation reads them: one array per field
// (line-columns.ts), gzip-compressed. Nullable: an invoice stored before, or by the previous release during the
// rollout, has only the body, and the reconciliation reads that. The previous release reads the body only, which
// this release still writes, so an invoice posted now is reconciled by either.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table invoice_payloads add column if not exists lines_columns_gz bytea`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table invoice_payloads drop column if exists lines_columns_gz`.execute(db);
}

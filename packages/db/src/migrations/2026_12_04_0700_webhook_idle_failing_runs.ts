import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
// A webhook endpoint's failing run (failing_since) ends when its last waiting delivery is given up. Releases before
// this left it open, so an endpoint quiet since then was disabled by its next single failure, counted from a start
// days old. Those runs end here: failing_since is cleared where nothing is PENDING. Data only; down changes nothing.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`update webhook_endpoints e set failing_since = null
    where e.failing_since is not null
      and not exists (select 1 from webhook_deliveries d where d.endpoint_id = e.endpoint_id and d.status = 'PENDING')`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  // Nothing to undo: a run ended stays ended under any release.
}

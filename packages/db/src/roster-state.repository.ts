import { sql } from 'kysely';
import type { DbOrTrx } from './database';

/*
 * The roster state aggregate: what the next diff of an airline compares with (roster_states), and the facts
 * that let a byte-identical resubmission skip the diff (body SHA-256, settled fingerprint of the window).
 */

export async function loadRosterState(db: DbOrTrx, airlineId: string) {
  return db.selectFrom('roster_states').select(['state_gzip', 'schedule_id']).where('airline_id', '=', airlineId).executeTakeFirst();
}

/** What the worker keeps of a processed roster for a byte-identical resubmission (see windowFingerprint). */
export interface SettledRoster {
  body_sha256: string;
  /** Null unless re-diffing the roster against its state would derive nothing. */
  settled_fingerprint: string | null;
  settled_cutoff: string | null;
  audit_events: number | null;
}

export async function saveRosterState(db: DbOrTrx, airlineId: string, scheduleId: string, stateGzip: Buffer, settled: SettledRoster | null = null): Promise<void> {
  const facts = {
    body_sha256: settled?.body_sha256 ?? null,
    settled_fingerprint: settled?.settled_fingerprint ?? null,
    settled_cutoff: settled?.settled_cutoff ?? null,
    audit_events: settled?.audit_events ?? null,
  };
  await db
    .insertInto('roster_states')
    .values({ airline_id: airlineId, schedule_id: scheduleId, state_gzip: stateGzip, ...facts })
    .onConflict((oc) => oc.column('airline_id').doUpdateSet({ schedule_id: scheduleId, state_gzip: stateGzip, updated_at: new Date(), ...facts }))
    .execute();
}

/** The small columns of the airline's roster state (not the state itself). */
export function loadSettledRoster(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('roster_states')
    .select(['schedule_id', 'body_sha256', 'settled_fingerprint', sql<string | null>`settled_cutoff::text`.as('settled_cutoff'), 'audit_events'])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
}

/** The state is now that of `scheduleId` too (a byte-identical resubmission that derived nothing). */
export async function adoptRosterState(db: DbOrTrx, airlineId: string, scheduleId: string): Promise<void> {
  await db.updateTable('roster_states').set({ schedule_id: scheduleId, updated_at: new Date() }).where('airline_id', '=', airlineId).execute();
}

/**
 * A fingerprint of every row version the diff reads or the roster writes: the airline's bookings dated inside
 * the window and its travellers, as count and sum of hashtext(id : xmin). Any insert, update or delete of such
 * a row changes its xmin or the set, so an equal fingerprint means no row changed (but for a 2^-32 hash
 * coincidence per changed row). `others` is the same over the row versions this transaction did not write.
 */
export async function windowFingerprints(db: DbOrTrx, airlineId: string, window: { start: string; end: string }): Promise<{ all: string; others: string }> {
  const r = await sql<{ all_fp: string; others_fp: string }>`with me as (select (txid_current() % 4294967296)::text as xid),
    b as (select hashtext(booking_id::text || ':' || xmin::text)::bigint as h, xmin::text = (select xid from me) as mine
      from bookings where airline_id = ${airlineId} and duty_date between ${window.start} and ${window.end}),
    t as (select hashtext(traveller_email || ':' || xmin::text)::bigint as h, xmin::text = (select xid from me) as mine
      from travellers where airline_id = ${airlineId})
    select
      (select count(*) || ':' || coalesce(sum(h), 0) from b) || '/' || (select count(*) || ':' || coalesce(sum(h), 0) from t) as all_fp,
      (select count(*) filter (where not mine) || ':' || coalesce(sum(h) filter (where not mine), 0) from b) || '/' ||
        (select count(*) filter (where not mine) || ':' || coalesce(sum(h) filter (where not mine), 0) from t) as others_fp`.execute(db);
  return { all: r.rows[0]!.all_fp, others: r.rows[0]!.others_fp };
}

export async function windowFingerprint(db: DbOrTrx, airlineId: string, window: { start: string; end: string }): Promise<string> {
  const r = await sql<{ fp: string }>`select
      (select count(*) || ':' || coalesce(sum(hashtext(booking_id::text || ':' || xmin::text)::bigint), 0)
         from bookings where airline_id = ${airlineId} and duty_date between ${window.start} and ${window.end})
      || '/' ||
      (select count(*) || ':' || coalesce(sum(hashtext(traveller_email || ':' || xmin::text)::bigint), 0)
         from travellers where airline_id = ${airlineId}) as fp`.execute(db);
  return r.rows[0]!.fp;
}

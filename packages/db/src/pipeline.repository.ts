import { sql } from 'kysely';
import type { DbOrTrx } from './database';
import { bulkInsert, bulkUpdate, copyInsert, type ColumnTypes } from './bulk';
import { emitPendingReview, scheduleEventsAfter } from './webhook.repository';

/** Per-airline processing lock namespace (pg advisory locks take two int4 keys). */
const AIRLINE_LOCK = 7301;

export async function tryLockAirline(conn: DbOrTrx, airlineId: string): Promise<boolean> {
  const r = await sql<{ ok: boolean }>`select pg_try_advisory_lock(${AIRLINE_LOCK}, hashtext(${airlineId})) as ok`.execute(conn);
  return r.rows[0]?.ok === true;
}

export async function unlockAirline(conn: DbOrTrx, airlineId: string): Promise<void> {
  await sql`select pg_advisory_unlock(${AIRLINE_LOCK}, hashtext(${airlineId}))`.execute(conn);
}

/** The oldest schedule of the airline still to process (an interrupted PROCESSING one first of all). */
export function nextOpenSchedule(db: DbOrTrx, airlineId: string) {
  return db.selectFrom('schedules').selectAll().where('airline_id', '=', airlineId).where('status', 'in', ['QUEUED', 'PROCESSING']).orderBy('seq').limit(1).executeTakeFirst();
}

export function markProcessing(db: DbOrTrx, scheduleId: string) {
  return db
    .updateTable('schedules')
    .set({ status: 'PROCESSING', started_at: sql<Date>`coalesce(started_at, now())` })
    .where('schedule_id', '=', scheduleId)
    .where('status', 'in', ['QUEUED', 'PROCESSING'])
    .execute();
}

/** FAILED, with its schedule.failed webhook event in the same statement. */
export async function markFailed(db: DbOrTrx, scheduleId: string, error: string): Promise<void> {
  await sql`with done as (update schedules set status = 'FAILED', error = ${error}, completed_at = now()
      where schedule_id = ${scheduleId} and status in ('QUEUED', 'PROCESSING')
      returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done')}
    select 1`.execute(db);
}

/** BOOKING while any item's task is open, else COMPLETED; only from PROCESSING (a schedule is processed once). */
export async function finishProcessing(db: DbOrTrx, scheduleId: string, openItems: number): Promise<boolean> {
  // With its webhook events (schedule.processing_completed when nothing is open): same statement, same transaction.
  const r = await sql<{ n: number; airline_id: string | null }>`with done as (update schedules
      set status = ${openItems > 0 ? 'BOOKING' : 'COMPLETED'}, completed_at = case when ${openItems > 0} then completed_at else now() end
      where schedule_id = ${scheduleId} and status = 'PROCESSING'
      returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter("(select * from done where status = 'COMPLETED')")}
    select (select count(*) from done)::int as n, (select airline_id from done) as airline_id`.execute(db);
  const row = r.rows[0];
  if (!row || row.n !== 1) return false;
  // One action_item.pending_review event for the whole schedule, never one per item.
  await emitPendingReview(db, row.airline_id!, scheduleId);
  return true;
}

/**
 * Called after a booking task's outcome is committed: the schedule completes once none of its items is
 * open. Run outside that transaction, so whichever settle commits last sees every other one (two checks
 * inside their own transactions could each see the other's item still open).
 */
export async function completeIfSettled(db: DbOrTrx, scheduleId: string): Promise<void> {
  await sql`with done as (update schedules set status = 'COMPLETED', completed_at = now()
    where schedule_id = ${scheduleId} and status = 'BOOKING'
      and not exists (select 1 from action_items where schedule_id = ${scheduleId} and disposition is null)
    returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done')}
    select 1`.execute(db);
}

/** Completes every BOOKING schedule with no open item (a worker that died between a settle and its check). */
export async function completeSettledSchedules(db: DbOrTrx): Promise<number> {
  const r = await sql<{ n: number }>`with done as (update schedules s set status = 'COMPLETED', completed_at = now()
    where s.status = 'BOOKING' and not exists (select 1 from action_items a where a.schedule_id = s.schedule_id and a.disposition is null)
    returning schedule_id, airline_id, external_ref, status, error, completed_at),
    ${scheduleEventsAfter('done')}
    select (select count(*) from done)::int as n`.execute(db);
  return r.rows[0]?.n ?? 0;
}

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

/** A resubmission's audit events are those of the identical roster before it: copied, and counted. */
export async function copyAuditEvents(trx: DbOrTrx, fromScheduleId: string, toScheduleId: string): Promise<number> {
  const r = await sql`insert into audit_events (airline_id, schedule_id, event_key, classification, message, anchors, source_rows, details)
    select airline_id, ${toScheduleId}, event_key, classification, message, anchors, source_rows, details
    from audit_events where schedule_id = ${fromScheduleId} and classification in ('DATA_QUALITY_FLAG', 'DUPLICATE_ROW') order by seq`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}

/** The airline's bookings the diff reconciles: those dated inside the window (set-based, one query per type). */
export function bookingsInWindow(db: DbOrTrx, airlineId: string, type: 'HOTEL' | 'FLIGHT', start: string, end: string) {
  return db
    .selectFrom('bookings')
    .select([
      'booking_id',
      'status',
      'manual_override',
      'pending_cancel',
      'retry_count',
      'traveller_email',
      'employee_id',
      'pairing_number',
      'duty_date',
      'duty_period_num',
      'leg_sequence',
      'flight_number',
      'station',
      'checkin_time_local',
      'checkout_time_local',
      'from_airport',
      'to_airport',
      'dep_time_local',
      'arr_time_local',
    ])
    .where('airline_id', '=', airlineId)
    .where('type', '=', type)
    .where('duty_date', '>=', start)
    .where('duty_date', '<=', end)
    .execute();
}

export const ACTION_ITEM_COLUMNS: ColumnTypes = {
  action_id: 'uuid',
  airline_id: 'uuid',
  schedule_id: 'uuid',
  item_key: 'text',
  source: 'text',
  type: 'text',
  subtype: 'text',
  classification: 'text',
  priority: 'text',
  disposition: 'text',
  auto_eligible: 'boolean',
  anchors: 'jsonb',
  source_rows: 'jsonb',
  booking_id: 'uuid',
  flight_options_url: 'text',
  recommended_action: 'text',
  message: 'text',
  notes: 'text',
  irop_ref: 'text',
  event_at: 'timestamptz',
  details: 'jsonb',
  disposition_at: 'timestamptz',
};

export const BOOKING_COLUMNS: ColumnTypes = {
  booking_id: 'uuid',
  airline_id: 'uuid',
  type: 'text',
  status: 'text',
  source: 'text',
  manual_override: 'boolean',
  config_version_used: 'text',
  schedule_id: 'uuid',
  action_id: 'uuid',
  employee_id: 'text',
  pairing_number: 'text',
  duty_date: 'date',
  duty_period_num: 'integer',
  leg_sequence: 'integer',
  flight_number: 'text',
  irop_ref: 'text',
  traveller_email: 'text',
  traveller_name: 'text',
  station: 'text',
  checkin_time_local: 'text',
  checkout_time_local: 'text',
  from_airport: 'text',
  to_airport: 'text',
  dep_time_local: 'text',
  arr_time_local: 'text',
  booked_by: 'text',
  review_reason: 'text',
  hotel: 'jsonb',
  flight: 'jsonb',
  task_ref: 'text',
  created_status: 'text',
  created_reason: 'text',
};

/** The roster's new wish for an existing booking (MODIFY / CANCEL items), with its new status. */
export const BOOKING_CHANGE_COLUMNS: ColumnTypes = {
  booking_id: 'uuid',
  status: 'text',
  pending_cancel: 'boolean',
  review_reason: 'text',
  station: 'text',
  checkin_time_local: 'text',
  checkout_time_local: 'text',
  duty_date: 'date',
  from_airport: 'text',
  to_airport: 'text',
  flight_number: 'text',
  dep_time_local: 'text',
  arr_time_local: 'text',
  schedule_id: 'uuid',
  action_id: 'uuid',
  hotel: 'jsonb',
  task_ref: 'text',
};

export const BOOKING_EVENT_COLUMNS: ColumnTypes = { booking_id: 'uuid', status: 'text', reason: 'text', actor: 'text' };

export const AUDIT_EVENT_COLUMNS: ColumnTypes = {
  airline_id: 'uuid',
  schedule_id: 'uuid',
  event_key: 'text',
  classification: 'text',
  message: 'text',
  anchors: 'jsonb',
  source_rows: 'jsonb',
  details: 'jsonb',
};

/** Everything one diff writes, in the caller's transaction (the schedule's move out of PROCESSING commits with it). */
export async function writeDiffResult(
  trx: DbOrTrx,
  w: {
    actionItems: Record<string, unknown>[];
    newBookings: Record<string, unknown>[];
    bookingChanges: Record<string, unknown>[];
    bookingEvents: Record<string, unknown>[];
    auditEvents: Record<string, unknown>[];
  },
): Promise<void> {
  // COPY for the big inserts: new ids, and item keys unique within one diff (the whole diff is one
  // transaction, so a re-run after a crash starts from nothing and needs no ON CONFLICT).
  await copyInsert(trx, 'bookings', BOOKING_COLUMNS, w.newBookings);
  await bulkUpdate(
    trx,
    'bookings',
    'booking_id',
    BOOKING_CHANGE_COLUMNS,
    w.bookingChanges,
    `status = coalesce(x.status, t.status), pending_cancel = coalesce(x.pending_cancel, t.pending_cancel), review_reason = coalesce(x.review_reason, t.review_reason),
     station = coalesce(x.station, t.station), checkin_time_local = coalesce(x.checkin_time_local, t.checkin_time_local),
     checkout_time_local = coalesce(x.checkout_time_local, t.checkout_time_local), duty_date = coalesce(x.duty_date, t.duty_date),
     from_airport = coalesce(x.from_airport, t.from_airport), to_airport = coalesce(x.to_airport, t.to_airport),
     flight_number = coalesce(x.flight_number, t.flight_number), dep_time_local = coalesce(x.dep_time_local, t.dep_time_local),
     arr_time_local = coalesce(x.arr_time_local, t.arr_time_local), hotel = case when x.hotel is null then t.hotel else coalesce(t.hotel, '{}'::jsonb) || x.hotel end,
     schedule_id = coalesce(x.schedule_id, t.schedule_id), action_id = coalesce(x.action_id, t.action_id), task_ref = coalesce(x.task_ref, t.task_ref), updated_at = now()`,
  );
  await copyInsert(trx, 'booking_events', BOOKING_EVENT_COLUMNS, w.bookingEvents);
  await copyInsert(trx, 'action_items', ACTION_ITEM_COLUMNS, w.actionItems);
  await bulkInsert(trx, 'audit_events', AUDIT_EVENT_COLUMNS, w.auditEvents, 'on conflict do nothing');
}

/** What the booking policy needs of an airline, read once per schedule. */
export async function policyContext(db: DbOrTrx, airlineId: string, travellerEmails?: string[]) {
  const [airline, company, rules, flights, hotelVersion, travellers] = await Promise.all([
    db.selectFrom('airlines').selectAll().where('airline_id', '=', airlineId).executeTakeFirstOrThrow(),
    db.selectFrom('company_configs').selectAll().where('airline_id', '=', airlineId).executeTakeFirst(),
    db.selectFrom('flight_rules').selectAll().where('airline_id', '=', airlineId).executeTakeFirst(),
    db.selectFrom('flight_config_versions').select(['snapshot', 'version']).where('airline_id', '=', airlineId).orderBy('version', 'desc').limit(1).executeTakeFirst(),
    db.selectFrom('hotel_config_versions').select('version').where('airline_id', '=', airlineId).orderBy('version', 'desc').limit(1).executeTakeFirst(),
    travellerEmails && travellerEmails.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('travellers')
          .select(['traveller_email', 'date_of_birth', 'first_name', 'last_name', 'name'])
          .where('airline_id', '=', airlineId)
          .$if(travellerEmails !== undefined, (q) => q.where('traveller_email', 'in', travellerEmails!))
          .execute(),
  ]);
  return { airline, company, rules, flights, hotelVersion, travellers };
}

/** Crew entries create or update traveller profiles (employee_id, name); the date of birth is the operator's. */
export async function upsertTravellersFromRoster(trx: DbOrTrx, airlineId: string, crew: { traveller_email: string; employee_id: string; name: string }[]): Promise<void> {
  const rows = crew.map((c) => ({ airline_id: airlineId, traveller_email: c.traveller_email.toLowerCase(), employee_id: c.employee_id, name: c.name }));
  for (let i = 0; i < rows.length; i += 5000) {
    const chunk = rows.slice(i, i + 5000);
    await sql`insert into travellers (airline_id, traveller_email, employee_id, name)
      select airline_id, traveller_email, employee_id, name from json_to_recordset(${JSON.stringify(chunk)}::json) as x(airline_id uuid, traveller_email text, employee_id text, name text)
      on conflict (airline_id, traveller_email) do update set employee_id = excluded.employee_id, name = excluded.name, updated_at = now()
      where travellers.employee_id is distinct from excluded.employee_id or travellers.name is distinct from excluded.name`.execute(trx);
  }
}

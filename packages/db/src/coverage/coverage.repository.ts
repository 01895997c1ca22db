import { sql } from 'kysely';
import type { DeadheadCoverageFacts, LayoverCoverageFacts } from '@crew/contracts';
import type { DbOrTrx } from '../database';
import { copyInsert, type ColumnTypes } from '../bulk';
import { ofPairings } from '../bulk';

/*
 * The coverage monitor's data. The diff keeps the latest processed roster's layovers and DH legs
 * as rows (rostered_layovers / rostered_deadheads); coverage reads them next to the bookings. The state of a
 * row is the engine's (classifyLayovers / classifyDeadheads): these queries only gather the facts.
 */

/**
 * A booking the roster does not hold is looked for by its date: check-in (departure) on the duty date or the
 * day after, and the window's instants may fall on the previous local date with a large UTC offset.
 */
const MATCH_MARGIN_DAYS = 2;

/**
 * Replaces the airline's rostered rows dated inside the processed window with the roster's (the engine's
 * rosteredRowsIn: those dated inside the window, each with its roster_date), as
 * nextRosterState does with the gzip state: rows outside the window, and rows whose current row was skipped
 * as impossible data (`flagged`), stay. Written by difference: the window's stored rows are read
 * as one signature each (every column the roster gives, checkin_at/dep_at follow from the local times), and
 * only stored rows the roster no longer has are deleted and only roster rows not stored as they are are
 * COPYed: the same end state as deleting the window and COPYing every row, for a fraction of the writes
 * when a resubmission changes little (a first roster reads nothing and COPYs every row). COPY cannot
 * conflict: after the DELETE only flagged keys and unchanged rows remain in the window, and a roster's kept
 * rows have unique keys (the first occurrence wins). With `pairings`, only those pairing_numbers' rows are
 * replaced (`rows` are theirs): the others are known unchanged (engine changedPairings). Returns how many rows
 * of each table were deleted or written.
 */
export async function replaceRosteredRows(
  trx: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  rows: {
    layovers: readonly Record<string, unknown>[];
    deadheads: readonly Record<string, unknown>[];
    flaggedKeys: readonly string[];
  },
  pairings?: readonly string[],
): Promise<{ rostered_layovers: number; rostered_deadheads: number }> {
  const flagged = [...rows.flaggedKeys];
  const scope = { airlineId, window, flagged, pairings };
  return {
    rostered_layovers: await writeByDifference(
      trx,
      'rostered_layovers',
      LAYOVER_SIGNATURE,
      ROSTERED_LAYOVER_COLUMNS,
      scope,
      rows.layovers,
    ),
    rostered_deadheads: await writeByDifference(
      trx,
      'rostered_deadheads',
      DEADHEAD_SIGNATURE,
      ROSTERED_DEADHEAD_COLUMNS,
      scope,
      rows.deadheads,
    ),
  };
}

/** Separates a row's fields in its signature (no roster value holds it); a null field is NULL_FIELD. */
const SEP = '\u0001';
const NULL_FIELD = '\u0002';

/** The columns a rostered row's signature is made of, in order (the derived checkin_at / dep_at are left out). */
const LAYOVER_SIGNATURE = [
  'roster_date',
  'row_key',
  'employee_id',
  'pairing_number',
  'duty_period_num',
  'duty_date',
  'traveller_email',
  'station',
  'checkin_time_local',
  'checkout_time_local',
] as const;
const DEADHEAD_SIGNATURE = [
  'roster_date',
  'row_key',
  'employee_id',
  'pairing_number',
  'duty_period_num',
  'leg_sequence',
  'traveller_email',
  'from_airport',
  'to_airport',
  'flight_number',
  'dep_time_local',
  'arr_time_local',
] as const;

/** The SQL of a stored row's signature: the same text signatureOf makes of a row to write (dates as YYYY-MM-DD, integers in decimal). */
function signatureSql(columns: readonly string[]): string {
  return columns.map((c) => `coalesce(${c}::text, chr(2))`).join(' || chr(1) || ');
}

function signatureOf(row: Record<string, unknown>, columns: readonly string[]): string {
  // One join, not a += per field: a flat string, hashed and compared without first flattening a rope.
  const parts = new Array<string>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    // Rostered rows hold only strings and integers (rosteredRowsIn).
    const v = row[columns[i]!] as string | number | null | undefined;
    parts[i] = v === null || v === undefined ? NULL_FIELD : String(v);
  }
  return parts.join(SEP);
}

async function writeByDifference(
  trx: DbOrTrx,
  table: 'rostered_layovers' | 'rostered_deadheads',
  signature: readonly string[],
  columns: ColumnTypes,
  {
    airlineId,
    window,
    flagged,
    pairings,
  }: {
    airlineId: string;
    window: { start: string; end: string };
    flagged: string[];
    pairings: readonly string[] | undefined;
  },
  rows: readonly Record<string, unknown>[],
): Promise<number> {
  if (pairings?.length === 0) return 0;
  // Each stored row's physical address with its signature: the rows to delete are deleted by address (a TID
  // scan), which stays valid to the end of this transaction (the airline's rows have one writer, the holder of
  // its processing lock, and no VACUUM FULL can run while this transaction holds the table).
  const stored = await sql<{
    tid: string;
    sig: string;
  }>`select ctid::text as tid, ${sql.raw(signatureSql(signature))} as sig from ${sql.table(table)}
    where airline_id = ${airlineId} and roster_date between ${window.start} and ${window.end} and row_key <> all(${flagged}::text[])
    and ${ofPairings(pairings)}`.execute(trx);
  const have = new Map<string, string>();
  for (const r of stored.rows) have.set(r.sig, r.tid);
  // Nothing stored in the window (an airline's first roster): every row is written, no signature needed.
  const toWrite = have.size === 0 ? rows : rows.filter((row) => !have.delete(signatureOf(row, signature)));
  // A kept row has left the map: what remains there is no longer rostered.
  const gone = [...have.values()];
  if (gone.length) await sql`delete from ${sql.table(table)} where ctid = any(${gone}::tid[])`.execute(trx);
  await copyInsert(trx, table, columns, toWrite, { airline_id: airlineId });
  return gone.length + toWrite.length;
}

const ROSTERED_LAYOVER_COLUMNS: ColumnTypes = {
  airline_id: 'uuid',
  roster_date: 'date',
  row_key: 'text',
  employee_id: 'text',
  pairing_number: 'text',
  duty_period_num: 'integer',
  duty_date: 'date',
  traveller_email: 'text',
  station: 'text',
  checkin_time_local: 'text',
  checkout_time_local: 'text',
  checkin_at: 'timestamptz',
};

const ROSTERED_DEADHEAD_COLUMNS: ColumnTypes = {
  airline_id: 'uuid',
  roster_date: 'date',
  row_key: 'text',
  employee_id: 'text',
  pairing_number: 'text',
  duty_period_num: 'integer',
  leg_sequence: 'integer',
  traveller_email: 'text',
  from_airport: 'text',
  to_airport: 'text',
  flight_number: 'text',
  dep_time_local: 'text',
  arr_time_local: 'text',
  dep_at: 'timestamptz',
};

export interface CoverageQuery {
  /** The window of check-in (departure) instants: [from, to). */
  from: Date;
  to: Date;
  station?: string;
}

/** A layover's coverage facts (contracts' LayoverCoverageFacts: what the engine classifies) and where it stands. */
export interface LayoverCoverageRow extends LayoverCoverageFacts {
  /** Unique within the answer: the roster row's key, or `b:<booking_id>` for a booking the roster does not hold. */
  row_key: string;
  at: Date;
  employee_id: string | null;
  pairing_number: string | null;
  duty_period_num: number | null;
  duty_date: string | null;
  traveller_email: string | null;
}

/** A DH leg's coverage facts and where it stands. */
export interface DeadheadCoverageRow extends DeadheadCoverageFacts {
  row_key: string;
  at: Date;
  employee_id: string | null;
  pairing_number: string | null;
  duty_date: string | null;
  leg_sequence: number | null;
  traveller_email: string | null;
}

/**
 * Runs a coverage query with JIT off: its cost estimate (thousands of index probes) crosses jit_above_cost, and
 * compiling takes longer than the query gains from it.
 */
async function withoutJit<T>(db: DbOrTrx, query: (d: DbOrTrx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return query(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return query(trx);
  });
}

/** The accepted dates' range (contracts formats: years 0001-9999); beyond it toISOString gives `+010000-…` or `0000-…`, which ::date refuses. */
const FIRST_DAY = Date.parse('0001-01-01T00:00:00Z');
const LAST_DAY = Date.parse('9999-12-31T00:00:00Z');

/**
 * The UTC date `days` after `d`, clamped to years 0001-9999: a window at the edge of the accepted years (its
 * margin or its end past them) bounds its date filter there instead of failing the query.
 */
const dateOf = (d: Date, days: number) =>
  new Date(Math.min(Math.max(d.getTime() + days * 86_400_000, FIRST_DAY), LAST_DAY)).toISOString().slice(0, 10);

/**
 * Every layover of the airline checking in inside the window, set-based: the rostered layovers with the
 * booking that stands for each (same layover key, whatever its date: a live one before a cancelled one, a
 * held one before the rest, the newest first), then the airline's live hotel bookings checking in inside the
 * window that no rostered layover holds (dropped by the roster, or injected). `airlineId` scopes every part:
 * no other airline's crew.
 */
export async function layoverCoverage(db: DbOrTrx, airlineId: string, q: CoverageQuery): Promise<LayoverCoverageRow[]> {
  const lo = dateOf(q.from, -MATCH_MARGIN_DAYS);
  const hi = dateOf(q.to, 1);
  const station = q.station ?? null;
  const r = await withoutJit(db, (d) =>
    sql<LayoverCoverageRow>`
    select 'ROSTERED' as origin, r.row_key, r.checkin_at as at, r.employee_id, r.pairing_number, r.duty_period_num, r.duty_date::text as duty_date, r.traveller_email,
      r.station, r.checkin_time_local, r.checkout_time_local, b.booking_id, b.status as booking_status, b.pending_cancel, b.review_reason,
      b.station as b_station, b.checkin_time_local as b_checkin_time_local, b.checkout_time_local as b_checkout_time_local
    from rostered_layovers r
    left join lateral (
      select booking_id, status, pending_cancel, review_reason, station, checkin_time_local, checkout_time_local from bookings b
      where b.airline_id = ${airlineId} and b.employee_id = r.employee_id and b.type = 'HOTEL' and b.pairing_number = r.pairing_number and b.duty_period_num = r.duty_period_num
      order by (b.status = 'CANCELLED' or b.pending_cancel), (b.status in ('CONFIRMED', 'MODIFIED')) desc, b.seq desc
      limit 1
    ) b on true
    where r.airline_id = ${airlineId} and r.checkin_at >= ${q.from} and r.checkin_at < ${q.to} and (${station}::text is null or r.station = ${station})
    union all
    select case when b.source = 'SCHEDULE_DIFF' or b.pending_cancel then 'DROPPED' else 'INJECTED' end, 'b:' || b.booking_id, b.checkin_time_local::timestamptz, b.employee_id, b.pairing_number, b.duty_period_num,
      b.duty_date::text, b.traveller_email, b.station, b.checkin_time_local, b.checkout_time_local, b.booking_id, b.status, b.pending_cancel, b.review_reason,
      b.station, b.checkin_time_local, b.checkout_time_local
    from bookings b
    where b.airline_id = ${airlineId} and b.type = 'HOTEL' and b.duty_date between ${lo}::date and ${hi}::date
      and b.status <> 'CANCELLED' and b.station is not null and b.checkin_time_local is not null and b.checkout_time_local is not null
      and b.checkin_time_local::timestamptz >= ${q.from} and b.checkin_time_local::timestamptz < ${q.to} and (${station}::text is null or b.station = ${station})
      and not exists (
        select 1 from rostered_layovers x
        where x.airline_id = ${airlineId} and x.employee_id = b.employee_id and x.pairing_number = b.pairing_number and x.duty_period_num = b.duty_period_num)`.execute(
      d,
    ),
  );
  return r.rows;
}

/** The same for DH legs departing inside the window, against the airline's flight bookings. */
export async function deadheadCoverage(
  db: DbOrTrx,
  airlineId: string,
  q: CoverageQuery,
): Promise<DeadheadCoverageRow[]> {
  const lo = dateOf(q.from, -MATCH_MARGIN_DAYS);
  const hi = dateOf(q.to, 1);
  const station = q.station ?? null;
  const r = await withoutJit(db, (d) =>
    sql<DeadheadCoverageRow>`
    select 'ROSTERED' as origin, r.row_key, r.dep_at as at, r.employee_id, r.pairing_number, r.roster_date::text as duty_date, r.leg_sequence, r.traveller_email,
      r.from_airport, r.to_airport, r.flight_number, r.dep_time_local, r.arr_time_local, b.booking_id, b.status as booking_status, b.pending_cancel, b.review_reason,
      b.from_airport as b_from_airport, b.to_airport as b_to_airport, b.flight_number as b_flight_number, b.dep_time_local as b_dep_time_local, b.arr_time_local as b_arr_time_local
    from rostered_deadheads r
    left join lateral (
      select booking_id, status, pending_cancel, review_reason, from_airport, to_airport, flight_number, dep_time_local, arr_time_local from bookings b
      where b.airline_id = ${airlineId} and b.employee_id = r.employee_id and b.type = 'FLIGHT' and b.pairing_number = r.pairing_number and b.duty_date = r.roster_date and b.leg_sequence = r.leg_sequence
      order by (b.status = 'CANCELLED' or b.pending_cancel), (b.status in ('CONFIRMED', 'MODIFIED')) desc, b.seq desc
      limit 1
    ) b on true
    where r.airline_id = ${airlineId} and r.dep_at >= ${q.from} and r.dep_at < ${q.to} and (${station}::text is null or r.from_airport = ${station})
    union all
    select case when b.source = 'SCHEDULE_DIFF' or b.pending_cancel then 'DROPPED' else 'INJECTED' end, 'b:' || b.booking_id, b.dep_time_local::timestamptz, b.employee_id, b.pairing_number,
      b.duty_date::text, b.leg_sequence, b.traveller_email, b.from_airport, b.to_airport, b.flight_number, b.dep_time_local, b.arr_time_local, b.booking_id, b.status, b.pending_cancel, b.review_reason,
      b.from_airport, b.to_airport, b.flight_number, b.dep_time_local, b.arr_time_local
    from bookings b
    where b.airline_id = ${airlineId} and b.type = 'FLIGHT' and b.duty_date between ${lo}::date and ${hi}::date
      and b.status <> 'CANCELLED' and b.from_airport is not null and b.to_airport is not null and b.dep_time_local is not null and b.arr_time_local is not null
      and b.dep_time_local::timestamptz >= ${q.from} and b.dep_time_local::timestamptz < ${q.to} and (${station}::text is null or b.from_airport = ${station})
      and not exists (
        select 1 from rostered_deadheads x
        where x.airline_id = ${airlineId} and x.employee_id = b.employee_id and x.pairing_number = b.pairing_number and x.roster_date = b.duty_date and x.leg_sequence = b.leg_sequence)`.execute(
      d,
    ),
  );
  return r.rows;
}

/** Airlines with rostered layovers or hotel bookings checking in inside the window (what the worker's gauges cover). */
export async function airlinesWithLayovers(db: DbOrTrx, from: Date, to: Date): Promise<string[]> {
  // Per airline, through the (airline_id, …) indexes: never a scan of every airline's bookings.
  const r = await sql<{ airline_id: string }>`
    select a.airline_id from airlines a
    where exists (select 1 from rostered_layovers r where r.airline_id = a.airline_id and r.checkin_at >= ${from} and r.checkin_at < ${to})
       or exists (select 1 from bookings b where b.airline_id = a.airline_id and b.type = 'HOTEL' and b.duty_date between ${dateOf(from, -MATCH_MARGIN_DAYS)}::date and ${dateOf(to, 1)}::date and b.status <> 'CANCELLED')`.execute(
    db,
  );
  return r.rows.map((x) => x.airline_id);
}

/**
 * Records the airline's layovers now AT_RISK inside the horizon and forgets the ones that no longer are (or
 * whose check-in has passed); answers the keys that were not at risk at the previous sample. Concurrent
 * workers insert each key once (on conflict do nothing), so each newly at-risk layover is reported once.
 */
export async function markAtRisk(
  trx: DbOrTrx,
  airlineId: string,
  rows: readonly { row_key: string; at: Date }[],
): Promise<Set<string>> {
  const keys = rows.map((r) => r.row_key);
  await sql`delete from coverage_at_risk where airline_id = ${airlineId} and row_key <> all(${keys}::text[])`.execute(
    trx,
  );
  if (!rows.length) return new Set();
  const r = await sql<{ row_key: string }>`insert into coverage_at_risk (airline_id, row_key, checkin_at)
    select ${airlineId}, k, t from unnest(${keys}::text[], ${rows.map((x) => x.at.toISOString())}::timestamptz[]) as x(k, t)
    on conflict (airline_id, row_key) do nothing returning row_key`.execute(trx);
  return new Set(r.rows.map((x) => x.row_key));
}

/** Forgets the at-risk layovers of airlines that have none inside the horizon any more. */
export async function forgetAtRiskExcept(db: DbOrTrx, airlineIds: readonly string[]): Promise<void> {
  await sql`delete from coverage_at_risk where airline_id <> all(${[...airlineIds]}::uuid[])`.execute(db);
}

import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import { ofPairings } from '../bulk';
import { gunzipText } from '../compressed';
import { readInWindow } from './window-bookings';

/*
 * The roster state aggregate: what the next diff of an airline compares with (roster_states), and the facts
 * that let a byte-identical resubmission skip the diff (body SHA-256, settled fingerprint of the window).
 */

/** The stored state of an airline's last diff (gzipped JSON of the engine's stored form), and whose it is. */
export interface StoredRosterStateRow {
  state_gzip: Buffer;
  schedule_id: string;
}

export async function loadRosterState(db: DbOrTrx, airlineId: string): Promise<StoredRosterStateRow | undefined> {
  return db
    .selectFrom('roster_states')
    .select(['state_gzip', 'schedule_id'])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
}

/** A stored roster state (loadRosterState) decompressed (on libuv's pool): its JSON text, or null when there is none. */
export async function rosterStateText(
  row: Promise<StoredRosterStateRow | undefined> | StoredRosterStateRow | undefined,
): Promise<string | null> {
  const stored = await row;
  return stored ? gunzipText(stored.state_gzip) : null;
}

/** A stored roster state (loadRosterState, or its text from rosterStateText) decoded: the JSON its writer stored, or null when there is none. */
export async function decodeRosterState<State>(
  row: Promise<StoredRosterStateRow | undefined> | StoredRosterStateRow | undefined | Promise<string | null>,
  parse: (text: string) => State = (text) => JSON.parse(text) as State,
): Promise<State | null> {
  const stored = await row;
  const text = typeof stored === 'string' || stored === null ? stored : await rosterStateText(stored);
  return text === null ? null : parse(text);
}

/** What the worker keeps of a processed roster for a byte-identical resubmission (see windowFingerprint). */
export interface SettledRoster {
  body_sha256: string;
  /** Null unless re-diffing the roster against its state would derive nothing. */
  settled_fingerprint: string | null;
  settled_cutoff: string | null;
  audit_events: number | null;
}

export async function saveRosterState(
  db: DbOrTrx,
  airlineId: string,
  scheduleId: string,
  stateGzip: Buffer,
  settled: SettledRoster | null = null,
  diffBasisGzip: Buffer | null = null,
): Promise<void> {
  const facts = {
    diff_basis_gzip: diffBasisGzip,
    body_sha256: settled?.body_sha256 ?? null,
    settled_fingerprint: settled?.settled_fingerprint ?? null,
    settled_cutoff: settled?.settled_cutoff ?? null,
    audit_events: settled?.audit_events ?? null,
  };
  await db
    .insertInto('roster_states')
    .values({ airline_id: airlineId, schedule_id: scheduleId, state_gzip: stateGzip, ...facts })
    .onConflict((oc) =>
      oc
        .column('airline_id')
        .doUpdateSet({ schedule_id: scheduleId, state_gzip: stateGzip, updated_at: new Date(), ...facts }),
    )
    .execute();
}

/** What the next diff compares with to diff only the pairings that changed (gzipped engine DiffBasis), or null. */
export async function loadDiffBasis(db: DbOrTrx, airlineId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('roster_states')
    .select('diff_basis_gzip')
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
  return row?.diff_basis_gzip ?? null;
}

/** The small columns of the airline's roster state (not the state itself). */
export function loadSettledRoster(db: DbOrTrx, airlineId: string) {
  return db
    .selectFrom('roster_states')
    .select([
      'schedule_id',
      'body_sha256',
      'settled_fingerprint',
      sql<string | null>`settled_cutoff::text`.as('settled_cutoff'),
      'audit_events',
    ])
    .where('airline_id', '=', airlineId)
    .executeTakeFirst();
}

/** The state is now that of `scheduleId` too (a byte-identical resubmission that derived nothing). */
export async function adoptRosterState(db: DbOrTrx, airlineId: string, scheduleId: string): Promise<void> {
  await db
    .updateTable('roster_states')
    .set({ schedule_id: scheduleId, updated_at: new Date() })
    .where('airline_id', '=', airlineId)
    .execute();
}

/** hashtext(id : xmin) of every row version the fingerprints cover, and whether this transaction wrote it. */
const bookingVersions = (airlineId: string, window: { start: string; end: string }, ownWrites: boolean) =>
  sql`select pairing_number, hashtext(booking_id::text || ':' || xmin::text)::bigint as h, ${ownWrites ? sql`xmin::text = (select (txid_current() % 4294967296)::text)` : sql`false`} as mine,
      duty_date, checkin_time_local
    from bookings where airline_id = ${airlineId} and ${readInWindow(window)}`;
const travellerVersions = (airlineId: string, ownWrites: boolean) =>
  sql`select hashtext(traveller_email || ':' || xmin::text)::bigint as h, ${ownWrites ? sql`xmin::text = (select (txid_current() % 4294967296)::text)` : sql`false`} as mine
    from travellers where airline_id = ${airlineId}`;
/** A set of row versions as count:sum, of all of them and of those this transaction did not write. */
const ALL = sql`count(*) || ':' || coalesce(sum(h), 0)`;
const OTHERS = sql`count(*) filter (where not mine) || ':' || coalesce(sum(h) filter (where not mine), 0)`;
/** The first and last duty or (hotel) check-in date of the group's bookings, as YYYY-MM-DD. */
const DATES = sql`least(min(duty_date)::text, min(left(checkin_time_local, 10))) as first, greatest(max(duty_date)::text, max(left(checkin_time_local, 10))) as last`;

/** The fingerprints of an airline's window (see windowFingerprint), with each pairing_number's bookings' own. */
export interface WindowFingerprints {
  all: string;
  /** Over the row versions this transaction did not write (equal to `all` outside a writing transaction). */
  others: string;
  /** Per pairing_number, `all` of its bookings the diff reads (readInWindow) alone (bookings without one left out). */
  byPairing: Map<string, string>;
  /** Per pairing_number, `others` of its bookings (left out when all of them are this transaction's). */
  othersByPairing: Map<string, string>;
  /** Per pairing_number of `byPairing`, the first and last of its bookings' duty and (hotel) check-in dates (engine DiffBasisNow.bookingDates), when asked for. */
  datesByPairing?: Map<string, [string, string]>;
}

/**
 * A fingerprint of every row version the diff reads or the roster writes: the airline's bookings a diff in the
 * window reads (readInWindow) and its travellers, as count and sum of hashtext(id : xmin). Any insert, update or
 * delete of such a row changes its xmin or the set, so an equal fingerprint means no row changed (but for a 2^-32 hash
 * coincidence per changed row). `ownWrites`: inside a writing transaction, `others` leaves its own row
 * versions out (and the transaction gets an id if it had none). `dates`: with `datesByPairing` (a diff in a
 * window other than the last one's needs them).
 */
export async function windowFingerprints(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  { ownWrites = true, dates = false }: { ownWrites?: boolean; dates?: boolean } = {},
): Promise<WindowFingerprints> {
  const { whole, byPairing, othersByPairing, datesByPairing } = await bookingFingerprints(
    db,
    airlineId,
    window,
    ownWrites,
    undefined,
    dates,
  );
  const travellers = await sql<{
    all_fp: string;
    others_fp: string;
  }>`with t as (${travellerVersions(airlineId, ownWrites)}) select ${ALL} as all_fp, ${OTHERS} as others_fp from t`.execute(
    db,
  );
  const t = travellers.rows[0]!;
  return {
    all: `${whole.all_fp}/${t.all_fp}`,
    others: `${whole.others_fp}/${t.others_fp}`,
    byPairing,
    othersByPairing,
    datesByPairing,
  };
}

/** windowFingerprints' `byPairing` and `othersByPairing` of these pairing_numbers alone, inside a writing transaction. */
export async function pairingFingerprints(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  pairings: readonly string[],
): Promise<Pick<WindowFingerprints, 'byPairing' | 'othersByPairing'>> {
  const { byPairing, othersByPairing } = await bookingFingerprints(db, airlineId, window, true, pairings);
  return { byPairing, othersByPairing };
}

async function bookingFingerprints(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
  ownWrites: boolean,
  pairings?: readonly string[],
  dates = false,
) {
  const versions = bookingVersions(airlineId, window, ownWrites);
  const bookings = await sql<{
    whole: number;
    pairing_number: string | null;
    all_fp: string;
    others_fp: string;
    first: string | null;
    last: string | null;
  }>`with b as (${versions} and ${ofPairings(pairings)})
    select grouping(pairing_number) as whole, pairing_number, ${ALL} as all_fp, ${OTHERS} as others_fp, ${dates ? DATES : sql`null as first, null as last`}
    from b group by grouping sets ((pairing_number), ())`.execute(db);
  const byPairing = new Map<string, string>();
  const othersByPairing = new Map<string, string>();
  const datesByPairing = dates ? new Map<string, [string, string]>() : undefined;
  let whole = bookings.rows[0]!;
  for (const r of bookings.rows) {
    if (Number(r.whole) === 1) whole = r;
    else if (r.pairing_number !== null) {
      byPairing.set(r.pairing_number, r.all_fp);
      datesByPairing?.set(r.pairing_number, [r.first!, r.last!]);
      // A pairing_number with none but this transaction's bookings has no `others`, as it had no bookings before.
      if (!r.others_fp.startsWith('0:')) othersByPairing.set(r.pairing_number, r.others_fp);
    }
  }
  return { whole, byPairing, othersByPairing, datesByPairing };
}

/** windowFingerprints' `all` alone (one sum, no groups). */
export async function windowFingerprint(
  db: DbOrTrx,
  airlineId: string,
  window: { start: string; end: string },
): Promise<string> {
  const r = await sql<{
    fp: string;
  }>`with b as (${bookingVersions(airlineId, window, false)}), t as (${travellerVersions(airlineId, false)})
    select (select ${ALL} from b) || '/' || (select ${ALL} from t) as fp`.execute(db);
  return r.rows[0]!.fp;
}

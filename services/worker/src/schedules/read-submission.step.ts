import { createHash } from 'node:crypto';
import {
  gunzipBytes,
  gunzipText,
  rosterStateRepo,
  scheduleRepo,
  type DbOrTrx,
  type ScheduleRow,
  airlinePolicyRepo,
} from '@crew/db';
import {
  storedStateOfText,
  windowMoved,
  type AirlineBookingContext,
  type DiffBasis,
  type StoredState,
} from '@crew/engine';
import type { TravellerVault } from '@crew/platform';
import { awaitedLater, UnprocessableSchedule, unreadable } from './schedule-errors';
import type { RosterBytes } from './schedule-run';
import { openBookingContext } from '@crew/platform';

/*
 * Step 1 of the schedule processor, read the submission: the stored roster (its SHA-256 tells a byte-identical
 * resubmission), and, while it is decompressed, what its diff compares it with.
 */

/** A schedule's roster as the intake stored it (gzip), and the SHA-256 of those bytes. */
export interface StoredSubmission {
  /** Dropped (null) once decompressed. */
  body: Buffer | null;
  sha256: string;
}

export async function readStoredSubmission(db: DbOrTrx, scheduleId: string): Promise<StoredSubmission> {
  const payload = await scheduleRepo.findPayload(db, scheduleId);
  if (!payload) throw new UnprocessableSchedule('the stored roster is missing');
  const body = payload.body_gzip;
  // Of the stored bytes: equal bytes, equal roster (a differently compressed upload of the same roster only misses the shortcut).
  return { body, sha256: createHash('sha256').update(body).digest('hex') };
}

/** The roster decompressed (on libuv's pool); the stored body is dropped. */
export async function readRoster(stored: StoredSubmission): Promise<RosterBytes> {
  let bytes: Buffer;
  try {
    bytes = await gunzipBytes(stored.body!);
  } catch (err) {
    throw unreadable(err);
  }
  stored.body = null;
  return { bytes };
}

/** What a diff compares a roster with, read while the roster is decompressed and parsed (readComparedWith). */
export interface ComparedWith {
  /** Read first: the basis alone tells whether the whole roster is parsed. */
  basis: Promise<DiffBasis | null>;
  read: Promise<rosterStateRepo.WindowFingerprints>;
  /**
   * The stored state of the last diff (it is ours to write, under the airline's lock): read first, decompressed on
   * libuv's pool as soon as it arrives and read once it is (engine storedStateOfText), while the pool decompresses the roster.
   */
  state: Promise<StoredState | null>;
  settings: Promise<AirlineBookingContext>;
}

/**
 * What the diff compares a roster with, before it reads the bookings: the window's fingerprints (equal to the
 * same inside the write transaction, nothing changed in between; see settled-resubmission), per pairing_number
 * too, the settings (no traveller is read), the basis the last diff left (engine changedPairings) and its stored
 * state (only this airline's processor writes it, under the lock it holds). Queued on the connection at once.
 */
export function readComparedWith(
  conn: DbOrTrx,
  vault: TravellerVault,
  schedule: ScheduleRow,
  processedAt: string,
): ComparedWith {
  const window = { start: schedule.schedule_start_date, end: schedule.schedule_end_date };
  // Read as soon as it is decompressed (split into its lines, or parsed when of an older form), while the pool decompresses the roster.
  const state = rosterStateRepo.decodeRosterState(
    rosterStateRepo.rosterStateText(rosterStateRepo.loadRosterState(conn, schedule.airline_id)),
    storedStateOfText,
  );
  const basis = loadDiffBasis(conn, schedule.airline_id);
  // The bookings' dates matter only to a diff in a window other than the last one's (engine changedPairings).
  const read = basis.then((b) =>
    rosterStateRepo.windowFingerprints(conn, schedule.airline_id, window, {
      ownWrites: false,
      dates: b !== null && windowMoved(b, window),
    }),
  );
  const settings = read.then(async () =>
    openBookingContext(
      vault,
      schedule.airline_id,
      await airlinePolicyRepo.loadBookingFacts(conn, schedule.airline_id, []),
      processedAt,
    ),
  );
  // Each is awaited by the diff (a failure reaches it there), or left unread when the roster cannot be read.
  for (const p of [state, basis, read, settings]) awaitedLater(p);
  return { read, settings, basis, state };
}

/** The basis the airline's last diff left (engine changedPairings), or null. */
async function loadDiffBasis(db: DbOrTrx, airlineId: string): Promise<DiffBasis | null> {
  const gzipped = await rosterStateRepo.loadDiffBasis(db, airlineId);
  return gzipped && (JSON.parse(await gunzipText(gzipped)) as DiffBasis);
}

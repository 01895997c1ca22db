import { airlinePolicyRepo, diffWriteRepo, reviewSettingsRepo, type DbOrTrx } from '@crew/db';
import {
  cancellationCutoffOf,
  diffStateOf,
  rosterStateOfLines,
  rosterStateOfStored,
  type AirlineBookingContext,
  type DateWindow,
  reviewSettingsOf,
  type DiffState,
  type ReviewSettings,
  type RosterState,
} from '@crew/engine';
import { openBookingContext, type TravellerVault } from '@crew/platform';
import { wholeRosterOf, type DiffSubject, type Flattened } from './flatten.step';
import { stateLinesPlanOf, type StateLinesPlan } from './next-state.step';
import { awaitedLater } from './schedule-errors';
import { nextTurn, type DiffRun, type RosterBytes } from './schedule-run';
import type { StepTimings } from './step-timings';

/*
 * Step 4 of the schedule processor, read what the roster is diffed against, read-only: the previous roster state, the
 * bookings dated inside the window (of the pairings to diff, or all), and what the booking policy is made of. The
 * dry-run preview (the api's preview.service) reads the same rows from the same repositories.
 */

/** What the diff and the write take: the roster, the pairings to diff, the airline's context and the state diffed against. */
export interface DiffInputs {
  subject: DiffSubject;
  /** The pairing_numbers to diff, or null for all of them. */
  changed: Set<string> | null;
  ctx: AirlineBookingContext;
  /** The airline's review settings (its items' due_by), read once per submission. */
  review: ReviewSettings;
  state: DiffState;
  /** The version of each booking's row the diff read (db WindowBooking.version): its changes are written onto it alone. */
  versionOf: (bookingId: string) => string | undefined;
  stateLines: StateLinesPlan;
}

/**
 * Reads the rows and builds the diff's state (engine diffStateOf) and booking context (engine bookingContextOf).
 * When the settings changed since they were read before the roster was flattened, the whole roster is diffed
 * after all. The roster's bytes are dropped here: everything needed of them is in the subject.
 */
export async function readDiffState(
  run: DiffRun,
  vault: TravellerVault,
  roster: RosterBytes,
  flattened: Flattened,
): Promise<DiffInputs> {
  const { conn, airlineId, window, processedAt, timings } = run;
  const { basis, elements, stored, lines, movedFrom, basisCutoff } = flattened;
  let { subject } = flattened;
  let { changed } = subject;
  // The previous state the diff reads: the lines of the pairings it reads and writes again, or all of it. Decoded a
  // turn later, once loadDiffState has queued its reads: Postgres reads the bookings meanwhile.
  const previousOf = (s: DiffSubject) =>
    nextTurn().then(() =>
      s.rewritten ? rosterStateOfLines(lines!, s.rewritten) : (movedFrom ?? (stored && rosterStateOfStored(stored))),
    );
  let rows = await loadDiffState(
    conn,
    airlineId,
    window,
    timings,
    changed ? [...changed] : undefined,
    previousOf(subject),
  );
  let ctx = openBookingContext(vault, airlineId, rows.facts, processedAt);
  if (
    changed &&
    (ctx.emitUnchanged || cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days) < basisCutoff)
  ) {
    // The settings changed since they were read before the roster was flattened: the whole diff after all, of the
    // whole roster.
    changed = null;
    if (subject.skipped) subject = wholeRosterOf(roster.bytes!, elements);
    rows = await loadDiffState(conn, airlineId, window, timings, undefined, previousOf(subject));
    ctx = openBookingContext(vault, airlineId, rows.facts, processedAt);
  }
  // Everything needed from the roster is in `subject` now.
  roster.bytes = null;
  const diffed = subject;
  return timings.timed('map_bookings', () => ({
    subject: diffed,
    changed,
    ctx,
    review: reviewSettingsOf(rows.reviewSettings),
    stateLines: stateLinesPlanOf(diffed, lines, basis, changed),
    state: diffStateOf(rows.previous, rows.hotelRows, rows.flightRows),
    versionOf: versionsOf([rows.hotelRows, rows.flightRows]),
  }));
}

/** Each booking's row version, looked up in a map built at the first look-up (a diff that changes no booking needs none). */
function versionsOf(lists: diffWriteRepo.WindowBooking[][]): (bookingId: string) => string | undefined {
  let versions: Map<string, string> | null = null;
  return (bookingId) => {
    if (!versions) {
      versions = new Map();
      for (const rows of lists) for (const b of rows) versions.set(b.booking_id, b.version);
    }
    return versions.get(bookingId);
  };
}

/** What a roster is diffed against, as stored: plain rows, turned into the diff's input by the engine (diffStateOf). */
interface DiffStateRows {
  previous: RosterState | null;
  hotelRows: diffWriteRepo.WindowBooking[];
  flightRows: diffWriteRepo.WindowBooking[];
  /** The booking context is assembled from these (engine bookingContextOf). */
  facts: Awaited<ReturnType<typeof airlinePolicyRepo.loadBookingFacts>>;
  reviewSettings: Awaited<ReturnType<typeof reviewSettingsRepo.findReviewSettings>>;
}

/**
 * With `pairings`, only their bookings are read (a diff of the pairings that changed, engine changedPairings).
 * `previous`: the previous state, on its way (decoded while Postgres reads the bookings).
 */
async function loadDiffState(
  db: DbOrTrx,
  airlineId: string,
  window: DateWindow,
  timings: StepTimings,
  pairings: readonly string[] | undefined,
  previous: Promise<RosterState | null>,
): Promise<DiffStateRows> {
  // Queued on the connection behind the state: Postgres reads the bookings while this process decodes the state.
  const rest = Promise.all([
    diffWriteRepo.bookingsInWindow(db, airlineId, 'HOTEL', window.start, window.end, pairings),
    diffWriteRepo.bookingsInWindow(db, airlineId, 'FLIGHT', window.start, window.end, pairings),
    airlinePolicyRepo.loadBookingFacts(db, airlineId),
    reviewSettingsRepo.findReviewSettings(db, airlineId),
  ]);
  // Awaited below, once the state is decoded.
  awaitedLater(rest);
  const state = await timings.timed('load_decode_state', () => previous);
  const [hotelRows, flightRows, facts, reviewSettings] = await timings.timed('load_bookings_context', () => rest);
  return { previous: state, hotelRows, flightRows, facts, reviewSettings };
}

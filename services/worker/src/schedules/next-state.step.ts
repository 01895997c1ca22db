import { gzipJson, gzipText, rosterStateRepo, type DbOrTrx } from '@crew/db';
import {
  cancellationCutoffOf,
  diffBasisOf,
  linesOfStateInParts,
  rewrittenPairings,
  stateLinesText,
  type AirlineBookingContext,
  type DerivedActionItem,
  type DiffBasis,
  type DiffResult,
  type StateLines,
} from '@crew/engine';
import type { QueuedStatements } from './queued-statements';
import type { DiffSubject } from './flatten.step';
import { awaitedLater } from './schedule-errors';
import { derived, nextTurn, type DiffRun } from './schedule-run';

/*
 * Step 5 of the schedule processor (write.step), the next state: the roster state the next diff compares with (a line
 * per pairing_number, engine state-lines) encoded while the items are written, the window's fingerprints as this
 * transaction leaves it, and the basis that lets the next diff look only at the pairings that changed.
 */

/** Rows grouped, or pairing_numbers' lines encoded, of the next roster state between two turns of the event loop (engine linesOfStateInParts): parts of a few ms. */
const STATE_PART = 2000;

/** Which lines of the stored state the next state writes again, and what its lines are numbered from. */
export interface StateLinesPlan {
  /** Each pairing_number's first row in the roster (the stored state's lines number their current rows from it). */
  firstRows: Map<string, number>;
  /** The pairing_numbers whose state lines are written again, or undefined for all: every other line is kept as stored. */
  rewritten: Set<string> | undefined;
  /** The stored state's lines, when it is of lines. */
  lines: StateLines | null;
}

export function stateLinesPlanOf(
  subject: DiffSubject,
  lines: StateLines | null,
  basis: DiffBasis | null,
  changed: Set<string> | null,
): StateLinesPlan {
  // The whole roster diffed against a state of lines (a moved window, a pairing_number sent twice) keeps those it may too.
  const rewritten =
    !lines || !basis || !changed || !subject.elements
      ? undefined
      : (subject.rewritten ?? rewrittenPairings(basis, subject.elements, changed));
  const firstRows = new Map<string, number>(
    subject.skipped
      ? subject.elements!.map((e) => [e[1], e[2]])
      : subject.flat.pairings.map((p) => [p.pairing_number, p.first_row]),
  );
  return { firstRows, rewritten, lines };
}

/**
 * The next state, encoded a part at a time while the slices are written (the COPYs keep receiving their bytes),
 * then compressed on libuv's pool: awaited where it is stored. The lines of the pairings not read are kept as
 * they were.
 */
export function encodeNextState(next: DiffResult['nextStateParts'], plan: StateLinesPlan): Promise<Buffer> {
  const { firstRows, rewritten, lines } = plan;
  return derived(linesOfStateInParts(next, firstRows, STATE_PART, rewritten))
    .then((encoded) => stateLinesText(firstRows, encoded, rewritten && lines!, rewritten))
    .then(gzipText);
}

export interface NextStateInput {
  subject: DiffSubject;
  changed: Set<string> | null;
  ctx: AirlineBookingContext;
  /** The window's fingerprints read before the diff. */
  read: rosterStateRepo.WindowFingerprints;
  /** Whether a byte-identical resubmission may skip the diff, as far as the items and their writes tell. */
  settles: boolean;
  actionItems: readonly DerivedActionItem[];
  /** Pairing_numbers with an adopted booking. */
  adopted: Iterable<string>;
  /** What the write transaction sent ahead: the fingerprints' read joins it (a rollback waits for it). */
  queued: QueuedStatements;
  /** The encoded state (encodeNextState). */
  stateGzip: Promise<Buffer>;
  bodySha256: string;
  auditEvents: number;
}

/** The fingerprints, the next basis and the state saved, with what lets a byte-identical resubmission skip the diff. */
export async function saveNextState(trx: DbOrTrx, run: DiffRun, input: NextStateInput): Promise<void> {
  const { schedule, airlineId, window, processedAt, timings } = run;
  const { subject, changed, ctx, read, settles } = input;
  // The roster and elements the next basis is made of (found here for a first roster).
  let { flat: basisFlat, elements: basisElements } = subject;
  // Settled only if no one else's row version came or went while this transaction wrote (its own are new rows).
  const reading = settles || !changed ? rosterStateRepo.windowFingerprints(trx, airlineId, window) : null;
  if (reading) (input.queued.later ??= []).push(reading);
  const later = subject.later;
  if (later && !ctx.emitUnchanged)
    ({ flat: basisFlat, elements: basisElements } = await timings.timed('tx_find_elements', async () => {
      // Sent first: Postgres computes the fingerprints while this process scans the roster for the next basis.
      // Awaited right after (tx_fingerprints).
      if (reading) awaitedLater(reading);
      await nextTurn();
      return later();
    }));
  const { fingerprints, diffed } = await timings.timed('tx_fingerprints', async () => {
    const fingerprints = reading && (await reading);
    // The bookings of the pairings diffed, as this transaction leaves them. Those of the others are recorded as
    // read: had anyone changed one since, the next diff sees a difference and diffs that pairing.
    const diffed = fingerprints ?? (await rosterStateRepo.pairingFingerprints(trx, airlineId, window, [...changed!]));
    return { fingerprints, diffed };
  });
  const { basis, cutoff } = await timings.timed('tx_basis', async () => {
    const bookingsNow = new Map(changed ? [...read.byPairing].filter(([pairing]) => !changed.has(pairing)) : []);
    for (const [pairing, fingerprint] of diffed.byPairing)
      if (!changed || changed.has(pairing)) bookingsNow.set(pairing, fingerprint);
    const cutoff = cancellationCutoffOf(processedAt, ctx.policy.cancellation_lookback_days);
    // A pairing_number diffed whose bookings someone else changed since they were read was diffed with what it had.
    const disturbed = [...input.adopted];
    for (const pairing of changed ?? new Set([...read.byPairing.keys(), ...diffed.othersByPairing.keys()]))
      if (read.byPairing.get(pairing) !== diffed.othersByPairing.get(pairing)) disturbed.push(pairing);
    const basis = ctx.emitUnchanged
      ? null
      : await gzipJson(
          diffBasisOf(basisFlat, input.actionItems, bookingsNow, window, cutoff, disturbed, basisElements ?? []),
        );
    return { basis, cutoff };
  });
  await timings.timed('tx_save_state', async () =>
    rosterStateRepo.saveRosterState(
      trx,
      airlineId,
      schedule.schedule_id,
      await input.stateGzip,
      {
        body_sha256: input.bodySha256,
        settled_fingerprint: settles && fingerprints && fingerprints.others === read.all ? fingerprints.all : null,
        settled_cutoff: cutoff,
        audit_events: input.auditEvents,
      },
      basis,
    ),
  );
}

import type { DateWindow } from './time';
import type { BookingStatus, DiffSettings, FlatRoster, RosterState } from './types';

/** Everything the hotel and deadhead diffs share, prepared once by diffRoster. */
export interface DiffContext {
  current: FlatRoster;
  previous: RosterState;
  window: DateWindow;
  settings: DiffSettings;
  processedMs: number;
  /** Oldest checkout date still eligible for LAYOVER_CANCELLED (processedAt's UTC date - lookback). */
  cancellationCutoff: string;
  /** Keys whose current row was skipped as impossible data: left alone. */
  flagged: ReadonlySet<string>;
}

/**
 * Which of two bookings with the same row key the diff uses: a live one (status other than
 * CANCELLED) wins over a cancelled one; among equals the smallest booking_id, so the choice
 * does not depend on input order.
 */
export function prefers(
  candidate: { booking_id: string; status: BookingStatus },
  held: { booking_id: string; status: BookingStatus } | null,
): boolean {
  if (!held) return true;
  const live = candidate.status !== 'CANCELLED';
  const heldLive = held.status !== 'CANCELLED';
  return (live && !heldLive) || (live === heldLive && candidate.booking_id < held.booking_id);
}

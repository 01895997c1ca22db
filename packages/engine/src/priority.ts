import type { Priority } from '@crew/contracts';
import { instantOf, MS_PER_DAY, MS_PER_HOUR } from './time';

/**
 * Priority from the time left between processing and the event (DESIGN 6): under 24 h P1,
 * under 72 h P2, under 7 days P3, else P4. An event already past is P1. Both arguments are
 * ISO timestamps with offset, or epoch milliseconds.
 */
export function priorityFor(eventAt: string | number, processedAt: string | number): Priority {
  const event = typeof eventAt === 'number' ? eventAt : instantOf(eventAt);
  const now = typeof processedAt === 'number' ? processedAt : instantOf(processedAt);
  const lead = event - now;
  // An unreadable time gives NaN; treat it as urgent rather than letting it sink to P4.
  if (!(lead >= 24 * MS_PER_HOUR)) return 'P1';
  if (lead < 72 * MS_PER_HOUR) return 'P2';
  if (lead < 7 * MS_PER_DAY) return 'P3';
  return 'P4';
}

/** A P1 task's webhook events are delivered before bulk ones (its endpoint is drained first). */
export function urgentEvents(priority: Priority | null | undefined): boolean {
  return priority === 'P1';
}

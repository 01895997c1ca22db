import { sql, type Db } from '@crew/db';
import { diffRoster, flattenRoster, type DiffResult } from '@crew/engine';
import type { ScheduleSubmission } from '@crew/contracts';

/** What the first submission of `roster` derives when nothing goes wrong (no previous roster, no bookings). */
export function undisturbedRun(roster: ScheduleSubmission): DiffResult {
  return diffRoster({
    current: flattenRoster(roster),
    previous: null,
    hotelBookings: [],
    flightBookings: [],
    window: { start: roster.schedule_start_date, end: roster.schedule_end_date },
    settings: { emit_unchanged: false, cancellation_lookback_days: 0 },
    processedAt: '2027-02-01T00:00:00Z',
  });
}

/**
 * The schedule ended with exactly the action items of the undisturbed run (none twice, none missing), one
 * booking per item and its audit events, whatever interrupted its processing.
 */
export async function expectUndisturbedRun(db: Db, scheduleId: string, expected: DiffResult): Promise<void> {
  const rows = await db.selectFrom('action_items').select(['item_key']).where('schedule_id', '=', scheduleId).execute();
  expect(rows.length).toBe(expected.actionItems.length);
  expect(new Set(rows.map((r) => r.item_key))).toEqual(new Set(expected.actionItems.map((i) => i.item_key)));
  const bookings = await db
    .selectFrom('bookings')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  expect(bookings.n).toBe(rows.length);
  const audits = await db
    .selectFrom('audit_events')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('schedule_id', '=', scheduleId)
    .executeTakeFirstOrThrow();
  expect(audits.n).toBe(expected.auditEvents.length);
}

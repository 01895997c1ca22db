import type { ScheduleAccepted } from '@crew/contracts';
import { outboxRepo, scheduleRepo, type Db } from '@crew/db';
import { scheduleJob, type OutboxRelay } from '@crew/queue';
import type { RosterSummary } from './roster-intake';
import { scheduleLinks } from './views';

/**
 * Stores the submission and its processing job in one transaction, then nudges the relay. The 202 is
 * only sent once the roster is durable; Redis being down delays the job, never loses it.
 */
export async function acceptSchedule(
  db: Db,
  relay: OutboxRelay,
  airlineId: string,
  body: RosterSummary,
  compressed: Buffer,
): Promise<ScheduleAccepted> {
  const schedule = await db.transaction().execute(async (trx) => {
    const row = await scheduleRepo.insertSchedule(trx, {
      airline_id: airlineId,
      external_ref: body.external_ref ?? null,
      as_of: body.as_of ? new Date(body.as_of) : null,
      schedule_start_date: body.schedule_start_date,
      schedule_end_date: body.schedule_end_date,
      pairing_count: body.pairing_count,
    });
    await scheduleRepo.insertPayload(trx, row.schedule_id, compressed);
    await outboxRepo.addToOutbox(trx, [scheduleJob(airlineId, row.schedule_id)]);
    return row;
  });
  relay.kick();
  return {
    schedule_id: schedule.schedule_id,
    external_ref: schedule.external_ref,
    processing_status: 'QUEUED',
    received_at: schedule.received_at.toISOString(),
    links: scheduleLinks(schedule.schedule_id),
  };
}

import { sql } from 'kysely';
import type { DbOrTrx } from '../database';
import { newestFirst } from '../keyset';
import type { BookingRow } from './booking.table';

/* Retry jobs (POST …/bookings/retry): the bookings a job sends back to their tasks, and its progress. */

/** The statuses a retry job counts as succeeded. */
const SUCCEEDED = ['CONFIRMED', 'MODIFIED', 'CANCELLED'];

export function insertRetryJob(trx: DbOrTrx, airlineId: string, filters: Record<string, unknown>, total: number) {
  return trx
    .insertInto('retry_jobs')
    .values({ airline_id: airlineId, filters: JSON.stringify(filters), total })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A retry job's bookings, in one statement: each joins the job; those still FAILED with fewer than
 * `maxRetries` retries go back to PENDING with one more. Returns those, as updated, in `seq` order.
 * A booking taken over from an earlier job leaves its outcome there: that job counts it succeeded or failed
 * as it stands when taken over (FAILED, the status a job takes, counts failed), so the earlier job settles.
 */
export async function retryFailedBookings(
  trx: DbOrTrx,
  airlineId: string,
  bookingIds: string[],
  maxRetries: number,
  retryJobId: string,
): Promise<BookingRow[]> {
  if (bookingIds.length === 0) return [];
  const { rows } = await sql<BookingRow & { retried: boolean }>`
    with target as (
      select booking_id, retry_job_id as left_job, status in (${sql.join(SUCCEEDED)}) as left_succeeded,
        status = 'FAILED' and retry_count < ${maxRetries} as retried
      from bookings where airline_id = ${airlineId} and booking_id = any(${bookingIds}::uuid[])
      for update),
    left_jobs as (
      update retry_jobs j set
        left_succeeded = j.left_succeeded + l.succeeded,
        left_failed = j.left_failed + l.failed
      from (
        select left_job,
          count(*) filter (where left_succeeded)::int as succeeded,
          count(*) filter (where not left_succeeded)::int as failed
        from target where left_job is not null and left_job <> ${retryJobId}
        group by left_job) l
      where j.retry_job_id = l.left_job)
    update bookings b set
      retry_job_id = ${retryJobId},
      status = case when t.retried then 'PENDING' else b.status end,
      retry_count = case when t.retried then b.retry_count + 1 else b.retry_count end,
      next_attempt_at = case when t.retried then null else b.next_attempt_at end,
      updated_at = case when t.retried then now() else b.updated_at end
    from target t where b.booking_id = t.booking_id
    returning b.*, t.retried`.execute(trx);
  return rows
    .filter((r) => r.retried)
    .sort((a, b) => a.seq - b.seq)
    .map(({ retried: _retried, ...row }) => row);
}

/**
 * A retry job's progress: its bookings' current statuses, plus the outcomes of those a later job took over
 * as they were when it did.
 */
export async function retryJobProgress(db: DbOrTrx, airlineId: string, retryJobIds: string[]) {
  if (retryJobIds.length === 0) return [];
  return db
    .selectFrom('retry_jobs as j')
    .leftJoin('bookings as b', 'b.retry_job_id', 'j.retry_job_id')
    .select([
      'j.retry_job_id',
      'j.total',
      'j.seq',
      'j.created_at',
      sql<number>`(j.left_succeeded + count(b.booking_id) filter (where b.status in (${sql.join(SUCCEEDED)})))::int`.as(
        'succeeded',
      ),
      sql<number>`(j.left_failed + count(b.booking_id) filter (where b.status in ('FAILED','NEEDS_REVIEW')))::int`.as(
        'failed',
      ),
    ])
    .where('j.airline_id', '=', airlineId)
    .where('j.retry_job_id', 'in', retryJobIds)
    .groupBy('j.retry_job_id')
    .orderBy('j.seq', 'desc')
    .execute();
}

export function listRetryJobIds(db: DbOrTrx, airlineId: string, limit: number, beforeSeq: number | null) {
  return newestFirst(
    db.selectFrom('retry_jobs').select(['retry_job_id', 'seq']).where('airline_id', '=', airlineId),
    limit,
    beforeSeq,
  );
}
